# Integer products (np.prod, ndarray.prod) in kernels: they wrap modulo
# 2**64 as NumPy's do, in any order; of every integer width and of bools
# (into int64 or uint64), over all elements, along the last axis (rows of
# 1 to thousands of elements), with keepdims, of strided and transposed
# values; odd factors so that products do not wrap to 0, and even ones
# that do. Float products stay NumPy's (one factor after another).
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(162)


def main():
    for n in (2048, 24_000, 100_003):
        j = rng.integers(-1000, 1000, n) | 1
        u = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True) | 1
        show(f"{n} int64", (j * 3).prod())
        show(f"{n} uint64", np.prod(u ^ 2))
        show(f"{n} int32 into int64", (j.astype(np.int32) * 5).prod())
        show(f"{n} uint8 into uint64", (j.astype(np.uint8) | 1).prod())
        show(f"{n} int16", np.prod(j.astype(np.int16) * 7))
        show(f"{n} bools", [(j > -1001).prod(), (j > 0).prod()])
        show(f"{n} even factors", (j + 1).prod())
        show(f"{n} stepped", (j * 3)[::5].prod())
        show(f"{n} beside a sum", [(j * 3).prod(), (j * 3).sum()])
        show(f"{n} float stays NumPy's", (rng.uniform(0.99, 1.01, n) * 1.0001).prod())
    j = rng.integers(-1000, 1000, 24_000) | 1
    for k in (1, 2, 3, 4, 5, 8, 12, 16, 40, 64, 100, 1000, 3000):
        show(f"rows of {k}", (j * 3).reshape(-1, k).prod(axis=1))
    show("keepdims", (j * 3).reshape(200, 120).prod(axis=-1, keepdims=True))
    show("transposed", (j * 3).reshape(40, 600).T.prod(axis=1))
    show("columns", (j * 3).reshape(40, 600).prod(axis=0))
    show("two last axes", (j * 3).reshape(20, 30, 40).prod(axis=(1, 2)))


main()
