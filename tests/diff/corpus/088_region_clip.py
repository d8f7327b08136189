# np.clip and ndarray.clip as NumPy's _clip computes them: Python int bounds
# beyond an integer type's range are no bound (int8 does not wrap), None
# bounds, array bounds, NaN bounds and NaN data, lo > hi, 0-d, float32.
import warnings

import numpy as np

warnings.simplefilter("always")
n = 40000
a = np.linspace(-3, 3, n)
i8 = (np.arange(n) % 256 - 128).astype(np.int8)
i32 = np.arange(n, dtype=np.int32) - 20000
def show(r):
    print(type(r).__name__, r.dtype, r.shape, r[:3], r[-3:], float(np.asarray(r, dtype=float).sum()))
def main():
    show(np.clip(a, -1, 1))
    show(np.clip(a * 2, -1.5, None))
    show(np.clip(a * 2, None, 0.5))
    show((a + 1).clip(0, 2))
    show(np.clip(i8, -1000, 3))
    show(np.clip(i8, -5, 1000))
    show(np.clip(i8 + 1, -1000, 1000))
    show(np.clip(i8, -5, 5))
    show(np.clip(i32 * 3, -7, 10**6))
    show(np.clip(i32, np.int32(-3), np.int32(4)))
    lo = np.full(n, -0.5); hi = np.full(n, 0.25)
    show(np.clip(a, lo, hi))
    b = a.copy(); b[::7] = np.nan
    show(np.clip(b * 1, 0, np.nan))
    show(np.clip(b, np.nan, 1))
    show(np.clip(a, 2, 1))
    s = np.clip(a.sum(), 0, 10); print(type(s).__name__, s)
    show(np.clip(a.astype(np.float32) * 2, -1, 1.5))
    show(np.clip(a, 0, 1) * 2 + np.clip(a, -1, 0))
    z = np.zeros(n)
    for lo, hi, x in [(-0.0, 3, z), (0.0, 3, -z), (-3, -0.0, z), (-3, 0.0, -z)]:
        print("signed zero", np.signbit(np.clip(x * 1, lo, hi)[:2]), np.signbit(np.maximum(x * 1, lo)[:2]))
main()
