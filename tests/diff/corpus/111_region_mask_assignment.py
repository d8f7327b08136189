# x[mask] = number on a recorded value as a region op: where(mask, value, x),
# which x's lazy value (and every alias of it) then names; NumPy's conversions
# (truncation, int8, bool, float32), what stays NumPy's (NumPy-scalar values,
# out-of-range ints, floats into ints, masks of another shape) and its errors.
import numpy as np
def show(l, v): v=np.asarray(v); print(l, v.dtype, v.shape, v.ravel()[:5].tolist(), float(v.astype(np.float64).sum()))
def main():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(5000)
    y = x * 2
    y[y < 0] = 0
    show("relu", y)
    z = np.sin(x)
    z[z > 0.5] = 0.5
    z[np.abs(z) < 0.1] = np.nan
    show("clip-ish", z + 1)
    i = (x * 100).astype(np.int64)
    i[i % 2 == 0] = -7
    show("int", i)
    i8 = (x * 10).astype(np.int8)
    i8[i8 > 5] = 127
    show("int8", i8)
    f = x.astype(np.float32) * 1
    f[f < 0] = 3
    show("f32 int value", f)
    b = x > 0
    c = b & (x < 1)
    c[x < -1] = True
    show("bool", c)
    w = x + 0
    alias = w
    w[w > 1] = 1.0
    show("alias", alias)
    v = x * 1
    m = v > 0
    v[m] = -v.mean()   # numpy scalar: eager
    show("numpy scalar", v)
    u = x * 3
    u[u > 0] = 2.5
    u2 = u * 2
    show("after", u2)
    q = (x * 100).astype(np.int16)
    try:
        q[q > 0] = 100000
    except OverflowError as e:
        print("OverflowError", e)
    try:
        q[q > 0] = 1.5
    except Exception as e:
        print(type(e).__name__, e)
    show("q", q)
    r = x * 1
    try:
        r[np.ones(3, bool)] = 1
    except IndexError as e:
        print("IndexError", e)
main()
