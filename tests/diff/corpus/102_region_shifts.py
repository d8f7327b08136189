# << and >> (and their ufuncs and in-place forms) as region ops: every
# integer lane type, counts beyond the bit width and negative counts (NumPy
# gives 0, or -1 for negative values shifted right), and floats refused.
import numpy as np
def main():
    n = 4096
    rng = np.random.default_rng(7)
    for dt in (np.int64, np.int32, np.uint64, np.uint32, np.int16, np.uint8):
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        s = rng.integers(0, 8 * np.dtype(dt).itemsize + 3, n).astype(dt)
        r1 = (a << s) + 0
        r2 = (a >> s) + 0
        r3 = (a << 3) ^ (a >> 2)
        r4 = np.left_shift(a, s) | np.right_shift(a, 1)
        b = a.copy()
        c = b + 0
        c <<= 1
        c >>= s
        for v in (r1, r2, r3, r4, c):
            print(dt.__name__, v.dtype, v[:4].tolist(), int(v.astype(np.int64).sum() % 1000003))
    neg = np.arange(-2048, 2048, dtype=np.int64)
    print(((neg >> np.int64(-1)) + 0)[:3].tolist(), ((neg << -1) + 0)[:3].tolist(), ((neg >> 64) + 0)[:3].tolist())
    try:
        print(np.arange(4096.0) << 1)
    except TypeError as e:
        print("TypeError", e)
main()
