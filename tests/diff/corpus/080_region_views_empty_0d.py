"""Recorded operations on non-contiguous and negative-stride views (x[::2],
x[::-1], x.T, a[:, 0] of an (N, 3) array, Fortran-ordered arrays,
broadcast_to and stride-0 views), on empty arrays of several shapes and on
0-d arrays and NumPy scalars; result flags (contiguity), strides-derived
facts and values must be NumPy's."""
import numpy as np

N = 60_000


def show(label, a):
    a = np.asarray(a)
    total = repr(a.sum()) if a.size else "empty"
    print(label, a.dtype, a.shape, a.flags.c_contiguous, a.flags.f_contiguous, total, repr(a.ravel()[:3]))


def strided():
    x = np.arange(N, dtype=np.float64) * 0.5
    show("x[::2] + 1", x[::2] + 1)
    show("x[1::3] * x[::3]", x[1::3] * x[::3])
    show("x[::-1] - x", x[::-1] - x)
    show("x[::-2] * 2", x[::-2] * 2)
    show("x[-1:0:-7]", np.sqrt(x[-1:0:-7]))
    pts = (np.arange(N * 3, dtype=np.float64) % 1000).reshape(N, 3)
    c0 = pts[:, 0]
    c2 = pts[:, 2]
    show("col0*col2", c0 * c2 - pts[:, 1])
    show("norm of rows", np.sqrt((pts ** 2).sum(axis=1)))
    show("col mean", pts.mean(axis=0))
    m = np.arange(300 * 200, dtype=np.float64).reshape(300, 200)
    t = m.T
    show("m.T * 2", t * 2)
    show("m.T + m.T", t + t)
    show("m + m.T.T", m + t.T)
    show("m.T[::2, ::-3]", t[::2, ::-3] - 1)
    show("m[:, ::-1] * m", m[:, ::-1] * m)
    show("m[::-1, ::-1].sum(0)", (m[::-1, ::-1] * 1).sum(axis=0))
    f = np.asfortranarray(m) + 0
    show("fortran + 1", f + 1)
    show("fortran * C", f * m)
    show("fortran.sum(1)", f.sum(axis=1))
    b = np.broadcast_to(np.arange(200.0), (300, 200))
    show("broadcast_to * 2", b * 2)
    show("broadcast_to + m", b + m)
    s = np.lib.stride_tricks.as_strided(x, shape=(300, 200), strides=(8, 8))
    show("overlapping strided", s * 1)
    r = x.reshape(300, 200)[50:250:2, 10:190:3]
    show("2d slice", r * r - r)
    v = x.view()
    v2 = v[::4]
    show("view of view", v2 + v2[::-1])


def mixed_order_results():
    m = np.arange(300 * 200, dtype=np.float32).reshape(300, 200)
    ft = m.T * 1  # NumPy keeps the F order of the transpose
    show("order of T result", ft)
    show("T result then C", ft + np.ones((200, 300), dtype=np.float32))
    k = np.empty_like(m.T)
    show("empty_like(T) flags", np.zeros_like(k))
    print("strides", ft.strides, (m[:, ::2] * 2).strides, (m[::-1] + 0).strides)


def empties():
    for shape in [(0,), (0, 5), (5, 0), (3, 0, 4)]:
        e = np.ones(shape) * 2
        f = e + 1
        show(f"empty {shape}", f)
        print("  sum axis0", repr(f.sum(axis=0)), "any", repr(f.any()), "all", repr(f.all()))
    e = np.zeros(0, dtype=np.int8) + 1
    show("empty int8", e)
    print("empty mean", np.zeros(0).mean() if False else "skipped")
    big = np.arange(N) * 1.0
    sel = big[big < 0]
    show("selected empty", sel * 2)
    show("empty slice", big[N:] + 1)
    show("empty reversed", big[5:2] * 3)
    print("max with initial", repr((big[big < 0] + 1).max(initial=-1.0)))
    print("sum of empty keepdims", repr((big[:0] * 2).sum(keepdims=True)))


def zero_d():
    z = np.array(2.5)
    a = z * 2
    print("0-d * py", type(a).__name__, repr(a))
    b = np.add(z, 1)
    print("np.add 0-d", type(b).__name__, repr(b))
    c = np.multiply(z, 3, out=np.empty(()))
    print("out 0-d", type(c).__name__, repr(c))
    d = z[()] + 1
    print("z[()]", type(d).__name__, repr(d))
    e = z[...] + 1
    print("z[...]", type(e).__name__, repr(e))
    g = np.sqrt(z) + np.float32(1)
    print("sqrt 0-d + f32", type(g).__name__, repr(g))
    big = np.arange(N) * 1.0
    h = big + z
    show("big + 0-d", h)
    i = big * np.array(3, dtype=np.int8)
    show("big f64 * 0-d int8", i)
    j = (np.arange(N, dtype=np.int8) + np.array(100, dtype=np.int8))
    show("int8 + 0-d int8", j)
    k = big.sum() * z
    print("scalar * 0-d", type(k).__name__, repr(k))
    m = np.float32(3) * big[:3].astype(np.float32)
    show("f32 scalar * small", m)
    n = np.array([[5.0]]) * 2
    print("1x1", repr(n), repr(float(n[0, 0])))


strided()
mixed_order_results()
empties()
zero_d()
