# Runaway recursion: RecursionError is caught (depth is not printed).
import sys


def runaway(n):
    return runaway(n + 1) + 1


class Node:
    def __init__(self):
        self.child = self

    def depth(self):
        return 1 + self.child.depth()


def mutual_a(n):
    return mutual_b(n + 1)


def mutual_b(n):
    return mutual_a(n + 1)


for fn in (lambda: runaway(0), lambda: Node().depth(), lambda: mutual_a(0)):
    try:
        fn()
    except RecursionError:
        print("caught RecursionError")

try:
    runaway(0)
except RecursionError as e:
    print("is RuntimeError subclass:", isinstance(e, RuntimeError))
    print("message starts:", str(e).split(" while")[0])

nested = []
for _ in range(100000):
    nested = [nested]
try:
    repr(nested)
except RecursionError:
    print("caught RecursionError")
print("still works after:", runaway.__name__, sum(range(10)))
