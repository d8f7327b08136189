# Float sums of 128 times a power of two operands, which kernels add leaf by
# leaf in NumPy's order (eight running sums per leaf of 128, then up the
# tree): one leaf, many, whole arrays, rows, blocks of rows, several sums
# and an element-wise result from one loop, broadcast operands, operands
# from element indices, float32, and the special values and warnings the
# adds themselves make. Each result is printed exactly.
import warnings

import numpy as np

rng = np.random.default_rng(112)


def exact(label, value):
    value = np.asarray(value)
    print(label, value.dtype, value.shape, value.ravel()[:4].tolist(), value.ravel()[-2:].tolist(),
          float(np.sum(value, dtype=np.float64)))


def sums_of(dtype):
    name = np.dtype(dtype).name
    for n in (128, 256, 4096, 1 << 17):
        x = rng.standard_normal(n).astype(dtype)
        exact(f"{name} whole {n}", np.sum(x * 3))
        exact(f"{name} mean {n}", (x - 1).mean())
    # Operands made from element indices, whose count restarts each row.
    for n in (1 << 13, 1 << 15):
        exact(f"{name} arange {n}", np.sum(np.arange(n, dtype=dtype) * 0.5))
        exact(f"{name} arange {n}, mean", np.arange(n, dtype=dtype).mean())
    # Leaves inside rows, rows inside leaves, and blocks of rows.
    for rows, n in ((300, 128), (50, 1024), (64, 16), (32, 64)):
        a = rng.standard_normal((rows, n)).astype(dtype)
        exact(f"{name} rows of {n}", (a * a).sum(axis=1))
    b = rng.standard_normal((6, 16, 32)).astype(dtype)
    exact(f"{name} blocks of 16 x 32", (b + 2).sum(axis=(1, 2)))
    c = rng.standard_normal((4, 8, 4, 64)).astype(dtype)
    exact(f"{name} blocks of 8 x 4 x 64", (c * c).sum(axis=(1, 2, 3)))
    exact(f"{name} blocks of 8 x 4 x 64, mean", (c - c * 2).mean(axis=(1, 2, 3)))
    # Two sums and an element-wise result of one loop.
    d = rng.standard_normal((40, 256)).astype(dtype)
    e = rng.standard_normal((40, 256)).astype(dtype)
    prod = d * e
    first = prod.sum(axis=1)
    second = (d + e).sum(axis=1)
    exact(f"{name} first of two sums", first)
    exact(f"{name} second of two sums", second)
    exact(f"{name} element-wise result beside them", prod)
    # An operand that does not move along the rows.
    w = rng.standard_normal(512).astype(dtype)
    v = rng.standard_normal(64).astype(dtype)
    exact(f"{name} broadcast rows", np.sum(v[:, None] * w[None, :], axis=1))
    exact(f"{name} broadcast products", np.sum(v[:, None, None] * w[None, None, :128] * 1, axis=(-2, -1)))


def special_values(dtype):
    name = np.dtype(dtype).name
    z = np.full((3, 256), -0.0, dtype=dtype)
    exact(f"{name} negative zeros", (z * 1).sum(axis=1))
    s = rng.standard_normal((4, 512)).astype(dtype)
    s[1, 300] = np.nan
    s[2, 7] = np.inf
    s[3, 100] = np.inf
    s[3, 400] = -np.inf
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exact(f"{name} nan and infinities", (s * 2).sum(axis=1))
    print(f"{name} warnings:", [str(w.message) for w in caught])
    big = np.full(1024, np.finfo(dtype).max / 4, dtype=dtype)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exact(f"{name} overflowing sum", np.sum(big * 2))
    print(f"{name} warnings:", [str(w.message) for w in caught])
    with np.errstate(over="raise"):
        try:
            print(np.sum(big * 2))
        except FloatingPointError as error:
            print(f"{name} raised:", error)


for dtype in (np.float64, np.float32):
    sums_of(dtype)
    special_values(dtype)
