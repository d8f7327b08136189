# A frame's f_locals shows values, not pending ones; a deep recursion stops
# with CPython's message (its comparison of small ints before a jump has no
# recursion check of its own). Arrays of 4,096 elements: npython records
# work on them.
import sys

import numpy as np


def frame_locals():
    frame = sys._getframe()
    y = np.ones(4096) * 2
    seen = frame.f_locals
    print(sorted(seen), type(seen["y"]).__name__, seen["y"][:3])


def deep(n):
    return deep(n + 1) if n < 10**6 else n


def recursion_limit():
    try:
        deep(0)
    except RecursionError as e:
        print(e)


frame_locals()
recursion_limit()
