# Float sums and means of all of an array laid out otherwise than
# C-contiguous, which npython adds in the order NumPy's iterator walks the
# array: dimensions from the largest memory step to the smallest, merged
# where they can, one run added pairwise (backwards along reversed axes) or
# rows through NumPy's 8,192-element buffer. Transposes, Fortran order,
# reversed axes, slices, steps, 3-D permutations, rows that merge into runs
# longer than the buffer (which once crashed), float32, a sum and a mean of
# one array in one region, signed zeros, NaN, infinities and overflow with
# NumPy's warnings, and another buffer size (np.setbufsize). Values by
# checksum of every byte. In a function: evaluated frames only.
import warnings

import numpy as np

from corpus_digest import show


def layouts(b):
    yield "transposed", b.T
    yield "Fortran order", np.asfortranarray(b)
    yield "last axis reversed", b[..., ::-1]
    yield "first axis reversed", b[::-1]
    yield "last axis sliced", b[..., 1:]
    yield "first axis stepped", b[::2]
    yield "both stepped", b[::2, ..., ::3]
    if b.ndim == 3:
        yield "axes 1 0 2", np.transpose(b, (1, 0, 2))
        yield "axes 2 0 1", np.transpose(b, (2, 0, 1))
        yield "middle reversed", b[:, ::-1]


def main():
    rng = np.random.default_rng(124)
    for shape in [(1340, 630), (2000, 70), (300, 9), (3, 2494, 8), (6, 1, 1654), (3, 1358, 283), (40, 50, 3),
                  (5, 4000, 2)]:
        for dtype in (np.float64, np.float32):
            b = (rng.standard_normal(shape) * 1e3).astype(dtype)
            for name, v in layouts(b):
                total = v.sum()
                mean = v.mean()
                show(f"{shape} {dtype.__name__} {name} sum", total)
                show(f"{shape} {dtype.__name__} {name} mean", mean)
                show(f"{shape} {dtype.__name__} {name} np.sum", np.sum(v))
    zeros = np.full((3000, 5), -0.0)
    show("negative zeros, transposed", zeros.T.sum())
    show("negative zeros, reversed", zeros[::-1].sum())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        big = np.full((2000, 30), 1e306)
        show("overflow, transposed", big.T.sum())
        show("overflow, stepped", big[::2].sum())
        special = rng.standard_normal((500, 40))
        special[7, 3] = np.nan
        show("nan, Fortran order", np.asfortranarray(special).sum())
        special[7, 3] = np.inf
        special[9, 1] = -np.inf
        show("inf - inf, reversed", special[:, ::-1].mean())
    for w in caught:
        print("warning:", w.category.__name__, w.message)
    # Another buffer size (np.setbufsize) changes NumPy's order; npython
    # then leaves the sums to NumPy.
    x = rng.standard_normal((20000, 3))
    old = np.setbufsize(4096)
    show("buffer of 4096, columns", x[:, :2].sum())
    show("buffer of 4096, stepped", x[::2].mean())
    np.setbufsize(old)
    show("buffer of 8192 again", x[:, :2].sum())


main()
