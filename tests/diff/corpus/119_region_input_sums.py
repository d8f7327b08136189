# Float sums and means whose operands are arrays as they are (no arithmetic
# first), which npython adds in place in NumPy's pairwise order: rows of
# lengths that NumPy's summation cuts unevenly, float32, slices whose rows
# are contiguous, reductions over several contiguous axes, one long sum
# (cut over the threads), signed zeros, and infinities and NaNs with
# NumPy's warnings. Values by checksum of every byte. In a function:
# evaluated frames only.
import warnings

import numpy as np

from corpus_digest import show


def main():
    rng = np.random.default_rng(119)
    a = rng.standard_normal((3000, 1001))
    show("rows of 1001", a.sum(axis=1))
    show("rows of 1001, mean", np.mean(a, axis=1))
    show("rows of 1001, keepdims", a.sum(axis=1, keepdims=True))
    show("rows of 129", a[:, :129].sum(axis=1))
    show("rows of 7", a[:, 3:10].sum(axis=-1))
    show("every other row", a[::2, 100:900].sum(axis=1))
    show("reversed rows", a[::-1, :555].mean(axis=1))
    show("two sums", (a[:, :300].sum(axis=1), a[:, :300].mean(axis=1)))
    f = a.astype(np.float32)
    show("float32 rows", f.sum(axis=1))
    show("float32 mean", f[:, :777].mean(axis=1))
    show("float32 whole", f.sum())
    show("whole", a.sum())
    show("whole, 2-D slice of rows", a[5:2005].sum())
    show("one long sum", np.sum(rng.standard_normal(3_000_001)))
    b = rng.standard_normal((40, 50, 333))
    show("last two axes", b.sum(axis=(1, 2)))
    show("last two axes, mean", b.mean(axis=(-2, -1)))
    show("last axis of 3-D", b.sum(axis=2))
    show("first axis", a[:, :50].sum(axis=0))
    show("negative zeros", np.full((100, 1001), -0.0).sum(axis=1))
    show("negative zero mean", np.full(50_001, -0.0).mean())
    big = np.full((10, 5001), 1e308)
    big[3, 7] = np.inf
    big[4, 7] = -np.inf
    big[5, 0] = np.nan
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        show("overflow and nan", big.sum(axis=1))
    print("warnings:", sorted({f"{w.category.__name__}: {w.message}" for w in caught}))
    with np.errstate(over="raise"):
        try:
            big.sum(axis=1)
        except FloatingPointError as e:
            print("raised:", e)
    print(repr(a[7].sum()), repr(np.float32(f[9].mean())), repr(a[:, 0].sum()))


main()
