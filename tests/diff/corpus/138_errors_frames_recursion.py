# A region that fails (MemoryError: a broadcast of 10^12 elements) raises
# once, and the program's handler goes on (values of the failed region are
# not computed again by later work); a frame's f_locals shows values, not
# pending ones; a deep recursion stops with CPython's message (its
# comparison of small ints before a jump has no recursion check of its own).
# Arrays of 4,096 elements and more: npython records work on them.
import sys

import numpy as np


def fallback_on_memory_error():
    a = np.ones(10**6)
    b = np.ones((10**6, 1))
    try:
        c = a * b
        print("no error", c.shape)
    except MemoryError:
        print("fallback")
    d = a * 2
    print("done", d.sum())


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


fallback_on_memory_error()
frame_locals()
recursion_limit()
