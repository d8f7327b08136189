# Uncaught NumPy broadcasting error: traceback on stderr, exit status 1.
import numpy as np


def make_grid(n):
    return np.arange(n * 4, dtype=np.float64).reshape(n, 4)


def add_bias(grid, bias):
    return grid + bias


def pipeline(n):
    grid = make_grid(n)
    print("grid", grid.shape, grid.dtype)
    ok = add_bias(grid, np.ones(4))
    print("ok", ok.shape, int(ok.sum()))
    bad = add_bias(grid, np.ones(n + 2))
    print("unreachable", bad.shape)


print("start")
pipeline(3)
print("unreachable end")
