# np.empty and np.empty_like in regions, recorded from a shape alone too:
# arrays written whole (by slice assignment, in parts, or by a mask) before
# anything reads them, of several dtypes and shapes, from a lazy prototype,
# and unwritten ones whose shape, dtype and flags alone are shown (their
# contents are unspecified).
import numpy as np

rng = np.random.default_rng(115)


def show(label, a):
    a = np.asarray(a)
    print(label, a.dtype, a.shape, a.ravel()[:3].tolist(), a.ravel()[-2:].tolist(), float(a.sum(dtype=np.float64)))


def main():
    n = 5000
    x = rng.standard_normal(n)
    y = rng.standard_normal((n // 10, 10)).astype(np.float32)

    out = np.empty_like(x)
    out[:] = x * 2 + 1
    show("empty_like whole", out)

    u = np.empty(n)
    u[0] = 0.5
    u[1:-1] = x[1:-1] - x[:-2]
    u[-1] = -0.5
    show("empty in parts", u)

    v = np.empty(y.shape, dtype=np.float32)
    v[:, :5] = y[:, :5] * 3
    v[:, 5:] = -y[:, 5:]
    show("empty 2-d halves", v)

    w = np.empty(n, dtype=np.int32)
    w[...] = np.arange(n, dtype=np.int32) * 3
    w[x > 0] = -1
    show("empty int32, mask", w)

    z = np.empty_like(x * 3)
    z[:] = 7.0
    show("empty_like of lazy", z + x)

    b = np.empty((n,), dtype=bool)
    b[:] = x > 0.5
    show("empty bool", b)

    for shape in [(n,), (50, 100), (0,), (10, 0, 3)]:
        e = np.empty(shape)
        print("unwritten", e.shape, e.dtype, e.flags["C_CONTIGUOUS"], e.flags["WRITEABLE"])
    e = np.empty_like(y, dtype=np.int16)
    print("unwritten like", e.shape, e.dtype)
    try:
        np.empty(-1)
    except ValueError as error:
        print("ValueError:", error)


main()
