# Recursion far deeper than the default limit, then runaway recursion.
import sys

import numpy as np  # so that npython's default policy evaluates this file

sys.setrecursionlimit(20000)


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


print("depth", depth(15000))


def runaway(n):
    return runaway(n + 1)


try:
    runaway(0)
except RecursionError as e:
    print("caught", type(e).__name__, e)


class Node:
    def __init__(self, child):
        self.child = child

    def size(self):
        return 1 + (self.child.size() if self.child else 0)


chain = None
for _ in range(12000):
    chain = Node(chain)
print("chain", chain.size())
print("array from recursion", np.arange(depth(10)).sum())
