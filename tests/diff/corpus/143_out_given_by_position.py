# NumPy calls that write into an array given as `out` by position, while
# pending work reads that array: ndarray.take(indices, axis, out), and the
# functions concatenate and stack with out as their third argument. Pending
# work is computed first, as NumPy computed it at its own line; the same
# calls without out, or with fewer arguments, leave it pending. Arrays of
# 4,096 elements (made eagerly, from lists): npython records work on them.
import numpy as np


def take_out_by_position(a, x, idx):
    y = a * 2
    x.take(idx, None, a)
    z = a + 1
    kept = x.take(idx[:5], 0)
    return y[:3], z[:3], kept


def take_out_and_mode_by_position(a, x, idx):
    y = a - 1
    x.take(idx, 0, a, "clip")
    return y[:3], a[:3]


def concatenate_out_by_position(a, x):
    y = a * 3
    np.concatenate((x[:2048], x[2048:]), 0, a)
    return y[:3], a[:3]


def stack_out_by_position(out, x):
    y = out * 5
    np.stack((x, x), 0, out)
    return y[0, :3], out[1, :3]


def main():
    for step in range(3):
        a = np.array([float(i + step) for i in range(4096)])
        x = np.array([5.0 + step] * 4096)
        idx = np.array([step] * 4096)
        print("take", take_out_by_position(a, x, idx))
        a = np.array([float(i) for i in range(4096)])
        big = np.array([10**6 + i for i in range(4096)])
        print("take clip", take_out_and_mode_by_position(a, x, big))
        a = np.array([float(-i) for i in range(4096)])
        print("concatenate", concatenate_out_by_position(a, x))
        out = np.array([[float(i)] * 4096 for i in range(2)])
        print("stack", stack_out_by_position(out, x))


main()
