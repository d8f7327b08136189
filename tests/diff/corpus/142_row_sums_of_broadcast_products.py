# Sums along short rows (up to 128 elements) of values computed with a
# vector broadcast over the rows, `(X * w).sum(axis=1)`: NumPy's order of
# additions, bit for bit, for row lengths that fill whole vectors or not,
# float32 and float64, a strided vector, more than one such operand, and
# means; a column broadcast over the row (`X * c[:, None]`) too.
import numpy as np

from corpus_digest import show


def row_sums(X, w):
    return (X * w).sum(axis=1)


def row_stats(X, w, v):
    d = X - w
    return (d * d).sum(axis=1), (X * w + v).mean(axis=-1), np.sqrt(((X - w) ** 2).sum(axis=1))


def main():
    rng = np.random.default_rng(7)
    for dtype in (np.float64, np.float32):
        for n in (1, 3, 7, 8, 9, 10, 12, 16, 17, 20, 31, 33, 63, 64, 65, 100, 127, 128):
            X = (rng.standard_normal((3001, n)) * 1e3).astype(dtype)
            w = rng.standard_normal(n).astype(dtype)
            v = rng.standard_normal(n).astype(dtype)
            show(f"{np.dtype(dtype).name} n={n} sums", row_sums(X, w))
            for k, r in enumerate(row_stats(X, w, v)):
                show(f"{np.dtype(dtype).name} n={n} stats {k}", r)
            wide = rng.standard_normal(2 * n).astype(dtype)
            show(f"{np.dtype(dtype).name} n={n} strided w", row_sums(X, wide[::2]))
            c = rng.standard_normal(3001).astype(dtype)
            show(f"{np.dtype(dtype).name} n={n} column", (X * c[:, None]).sum(axis=1))
    X = np.ones((4000, 10))
    w = np.full(10, 1e308)
    print(row_sums(X, w)[:3])


main()
