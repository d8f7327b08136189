# Arrays of short rows (under 64 elements): element-wise work over column
# slices, strided columns and broadcast columns, which npython runs flat
# (the rows one after another, gathered), and reductions along short rows,
# which it runs many rows to a kernel call, each row padded to whole vectors.
# Every reduction and dtype, rows of one vector or less and of several,
# NaNs, signed zeros, ties, keepdims, 3-D arrays, in-place updates of column
# slices, reductions over whole arrays of short rows, and NumPy's warnings
# (also of sums whose parts overflow only together). Values by checksum of
# every byte. In a function: evaluated frames only.
import warnings

import numpy as np

from corpus_digest import show


def special(rng, shape):
    x = rng.standard_normal(shape)
    x[rng.random(shape) < 0.02] = np.nan
    x[rng.random(shape) < 0.05] = 0.0
    x[rng.random(shape) < 0.05] = -0.0
    x[rng.random(shape) < 0.05] = 1.0  # ties
    return x


def reductions(tag, a):
    show(tag + " max", a.max(axis=1))
    show(tag + " min", np.min(a, axis=1))
    show(tag + " argmin", a.argmin(axis=1))
    show(tag + " argmax", np.argmax(a, axis=-1))
    show(tag + " sum of doubles", (a * 2).sum(axis=1))
    show(tag + " mean", (a + 1).mean(axis=1))
    show(tag + " prod", np.prod(a[:, :3] - 1, axis=1))
    show(tag + " any", (a > 1).any(axis=1))
    show(tag + " all", np.all(a > -1, axis=1))
    show(tag + " max, keepdims", (a - 1).max(axis=1, keepdims=True))
    show(tag + " max and sum", ((a * 3).max(axis=1), (a * 3).sum(axis=1)))


def main():
    rng = np.random.default_rng(120)
    for n in (1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 32, 63):
        x = special(rng, (2001, n))
        wide = special(rng, (2001, n + 5))[:, 2:n + 2]  # rows of a wider array
        ints = rng.integers(-100, 100, (2001, n))
        ints[:, n // 2] = ints[:, 0]  # ties
        for tag, a in (("f64", x), ("f32", x.astype(np.float32)), ("slice", wide),
                       ("strided", special(rng, (2001, 2 * n))[:, ::2]), ("int64", ints),
                       ("int32", ints.astype(np.int32)), ("int8", ints.astype(np.int8)),
                       ("uint16", (ints + 100).astype(np.uint16)), ("uint64", (ints + 100).astype(np.uint64))):
            reductions(f"{tag} rows of {n}", a)
        show(f"norm rows of {n}", np.linalg.norm(x, axis=1))
        show(f"norm slice rows of {n}", np.linalg.norm(wide, axis=1))
        show(f"sum of squares, slice rows of {n}", np.sqrt((wide ** 2).sum(axis=1)))
        show(f"row broadcast, rows of {n}", (x + rng.standard_normal(n)).argmin(axis=1))
        show(f"column broadcast, rows of {n}", (x - x[:, :1]).max(axis=1))
        show(f"elementwise slice, rows of {n}", wide * 2.0 + 1.0)
        show(f"elementwise column broadcast, rows of {n}", x / (np.abs(x[:, -1:]) + 1.0))
        show(f"elementwise row broadcast, rows of {n}", wide - np.arange(n))
        show(f"elementwise int slice, rows of {n}", ints[:, ::-1] * 3 + 1)
    # 3-D: the short rows of several outer dimensions.
    t = special(rng, (7, 301, 3))
    show("3-D max", (t * 2).max(axis=2))
    show("3-D argmax of a slice", np.abs(t[:, ::2, :2]).argmax(axis=-1))
    show("3-D elementwise", t[:, :, :2] * t[:, :, 1:])
    show("3-D broadcast", t - t.mean(axis=1)[:, None, :])
    # Reductions over all of an array of short rows. NumPy adds an input's
    # rows a buffer of whole rows at a time (up to 8,192 elements).
    for n in (2, 3, 5, 7):
        y = rng.standard_normal((30001, n + 2))[:, 1:n + 1]
        show(f"whole sum, rows of {n}", y.sum())
        show(f"whole float32 mean, rows of {n}", y.astype(np.float32)[::2].mean())
        show(f"whole sum of doubles, rows of {n}", (y * 2).sum())
        show(f"whole argmax, rows of {n}", y.argmax())
        show(f"whole count, rows of {n}", (y > 0).sum())
        show(f"whole max, rows of {n}", np.abs(y).max())
        show(f"whole any, rows of {n}", (y > 4).any())
    # One row, and rows of nothing.
    show("one row", special(rng, (1, 5)).max(axis=1))
    show("empty rows, sum", np.zeros((100, 0)).sum(axis=1))
    show("empty rows, elementwise", np.ones((100, 0)) * 2)
    # In-place updates of column slices, reading what they write.
    b = rng.standard_normal((3000, 6))
    b[:, :3] += 1.0
    b[:, 1:4] = b[:, 0:3] * 2.0
    b[:, ::2] -= b[:, 1::2]
    show("in place", b)
    # Warnings raised along short rows, with NumPy's messages and lines.
    c = rng.standard_normal((3000, 3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        show("log of negatives", np.log(c[:, :2]).max(axis=1))
        show("divide by zero", (c[:, 1:] / 0.0).argmin(axis=1))
        show("overflow", (c[:, ::2] * 1e308 * 10).sum(axis=1))
        # Sums whose parts, added on the threads, overflow only together.
        big = np.full(3_000_000, 1e302)
        show("overflow of the parts, input", big.sum())
        show("overflow of the parts, computed", (big * 1.0).sum())
        show("overflow of the buffers", np.full((1_000_000, 3), 1e302)[:, :2].sum())
    for w in caught:
        print("warning:", w.category.__name__, w.message, w.lineno)
    with np.errstate(invalid="raise"):
        try:
            np.sqrt(c[:, :2] - 5.0).min(axis=1)
        except FloatingPointError as e:
            print("raised:", e)


main()
