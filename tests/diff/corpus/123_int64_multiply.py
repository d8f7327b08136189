# 64-bit integer multiplies and squares, which the AVX2 kernels build from
# 32-bit halves (AVX2 has no 64-bit multiply): values across the whole range
# so that products wrap as NumPy's do, int64 and uint64, mixed with Python
# ints and int32, x**2 and np.square, strided and reversed views, in-place
# updates, and fused into sums and comparisons. Values by checksum of every
# byte. In a function: evaluated frames only.
import numpy as np

from corpus_digest import show


def main():
    rng = np.random.default_rng(123)
    for dtype in (np.int64, np.uint64):
        info = np.iinfo(dtype)
        for n in (4097, 100003):
            a = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
            b = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
            small = rng.integers(0, 3000, size=n, dtype=dtype)
            name = f"{dtype.__name__} {n}"
            show(f"{name} a * b", a * b)
            show(f"{name} np.multiply", np.multiply(a, b))
            show(f"{name} a * a + b", a * a + b)
            show(f"{name} a ** 2", a ** 2)
            show(f"{name} np.square", np.square(b))
            show(f"{name} times a Python int", a * 6364136223846793005)
            show(f"{name} small * small", small * small)
            show(f"{name} strided", a[:3000:3] * b[1:3001:3])
            show(f"{name} reversed", a[::-1] * small)
            show(f"{name} sum of products", (small * small).sum())
            show(f"{name} wrapped sum of products", np.sum(a * b))
            show(f"{name} product compared", (small * small) > 4_000_000)
            show(f"{name} 2-D rows", (a[:4000].reshape(40, 100) * small[:100]).sum(axis=1))
            c = a.copy()
            c *= b
            show(f"{name} in place", c)
            c[1:] *= c[:-1]
            show(f"{name} in place, aliased", c)
    i = rng.integers(-(2**31), 2**31 - 1, size=50000, dtype=np.int32)
    j = rng.integers(-(2**62), 2**62, size=50000, dtype=np.int64)
    show("int32 * int64", i * j)
    show("int32 * int32", i * i)
    show("int32 squared", np.square(i))
    show("arange squared", np.arange(-30000, 30000) ** 2)


main()
