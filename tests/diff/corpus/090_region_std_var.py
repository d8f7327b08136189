# np.std / np.var and the methods, spelled out in region ops for float64
# (axis int/tuple/None, ddof, keepdims, 0-d results as NumPy scalars,
# standardising rows), and the cases run through NumPy: other dtypes, an
# inf in the data (NumPy's warning), ddof >= count, dtype=.
import warnings
import numpy as np
warnings.simplefilter("always")
rng = np.random.default_rng(5)
a = rng.standard_normal((300, 200)) * 3 + 1
v = rng.standard_normal(50000)

def main():
    print(repr(np.std(v)), repr(np.var(v)), repr(v.std()), repr(v.var(ddof=1)))
    print(np.std(a, axis=1)[:4], np.var(a, axis=-1, keepdims=True).shape, a.std(1, ddof=2)[-3:])
    print(np.std(a, axis=0)[:4], np.var(a, axis=(0, 1)), a.std(axis=None, keepdims=True))
    z = (a - a.mean(axis=1, keepdims=True)) / a.std(axis=1, keepdims=True)
    print(z[:2, :3], float(z.sum()))
    print(type(np.std(v * 2)).__name__, np.std(v * 2).dtype)
    w = v.copy(); w[5] = np.inf
    print(np.std(w * 1))
    print(np.var(v[:3] * 1, ddof=3), np.std(a.astype(np.float32) * 2, axis=1)[:3])
    print(np.std(np.arange(20000) * 2, axis=0), np.std(v * 1, dtype=np.float32))
    m = np.ones((2, 20000)); m[1] = 3
    print(m.std(axis=1), np.std(m, axis=0)[:3], np.var(m * 1.5))

main()
