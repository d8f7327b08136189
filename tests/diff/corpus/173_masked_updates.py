# x[mask] of a boolean mask of x's shape, element-wise work on such values
# and their assignment back, x[mask] = f(x[mask], y[mask]), fuse into loops
# over the whole shape: real, integer and complex values, masks that are
# arrays or pending values, values that escape (their length is the mask's
# count), masks that differ, shapes that do not fit, casts, and warnings
# that only the unmasked elements would raise.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(173)
shape = (120, 90)
c = rng.uniform(-2.2, 0.8, shape) + 1j * rng.uniform(-1.2, 1.2, shape)
x0 = rng.standard_normal(shape)
y0 = rng.standard_normal(shape)
a0 = rng.integers(-50, 50, shape)


def escape_time(c, iterations):
    z = np.zeros_like(c)
    counts = np.full(c.shape, iterations, dtype=np.int32)
    m = np.ones(c.shape, dtype=bool)
    for i in range(iterations):
        z[m] = z[m] ** 2 + c[m]
        escaped = np.abs(z) > 2
        counts[m & escaped] = i
        m &= ~escaped
    return counts, z, m


def real_updates(x, y):
    x = x.copy()
    for k in range(6):
        m = x > -0.5 + 0.1 * k
        x[m] = np.sqrt(np.abs(x[m])) * 0.75 + y[m] * 0.5 - 0.1
    return x


def array_mask(x, y, m):
    x = x.copy()
    x[m] = x[m] * y[m] + 1.5
    x[m] -= 0.25
    return x


def integer_updates(a):
    a = a.copy()
    m = a % 3 == 0
    a[m] = a[m] * 7 - 2
    b = a.astype(np.int32)
    n = b > 10
    b[n] = (b[n] // 3) ^ 5
    return a, b


def escaping(x, y):
    m = x > 0.3
    v = x[m] * 2.0 + y[m]
    w = np.sin(x[m])
    return v, w, v.shape, len(w), float(v.sum()), repr(w[:3])


def different_masks(x, y):
    m1 = x > 0
    m2 = y > 0
    try:
        r = x[m1] + y[m2]
    except ValueError as e:
        r = "ValueError: " + str(e)
    m3 = ~m1
    s = x[m1].sum() + x[m3].sum() * 1j
    return r, s


def equal_counts(x):
    m1 = x > 0
    m2 = np.roll(m1, 7)
    return x[m1] * x[m2] + 1


def misfits(x, y):
    out = []
    try:
        x[np.ones(x.shape[0], dtype=bool)] = 1.0
        out.append("row mask: " + repr(x.sum()))
    except Exception as e:
        out.append(type(e).__name__ + ": " + str(e))
    try:
        x[np.ones((x.shape[0], 3), dtype=bool)] * 2
    except Exception as e:
        out.append(type(e).__name__ + ": " + str(e))
    y = y.copy()
    m = y > 0
    try:
        y[m] = y[m][:-1] * 2
    except Exception as e:
        out.append(type(e).__name__ + ": " + str(e))
    return out


def casts(x, a):
    a = a.copy()
    m = x > 0
    a[m] = x[m] * 10
    x = x.copy()
    x[m] = a[m] + 1
    return a, x


def hidden_overflow(x):
    # exp of the unmasked elements would overflow: python3 never computes
    # them, so no warning may show.
    x = x.copy()
    x[:, ::7] = 1000.0
    m = x < 500
    x[m] = np.exp(x[m])
    return x


def shown_overflow(x):
    x = x.copy() * 400
    m = x > 0
    x[m] = np.exp(x[m])
    return x


show("escape counts", escape_time(c, 30)[0])
counts, z, inside = escape_time(c, 30)
show("escape z", z)
show("escape inside", inside)
show("real updates", real_updates(x0, y0))
show("array mask", array_mask(x0, y0, y0 > 0.2))
a, b = integer_updates(a0)
show("integer a", a)
show("integer b", b)
v, w, vshape, wlen, vsum, whead = escaping(x0, y0)
show("escaping v", v)
show("escaping w", w)
print("escaping", vshape, wlen, repr(vsum), whead)
r, s = different_masks(x0, y0)
print("different masks", r if isinstance(r, str) else r.shape, repr(s))
show("equal counts", equal_counts(x0))
for line in misfits(x0.copy(), y0):
    print("misfit", line)
a2, x2 = casts(x0, a0)
show("casts a", a2)
show("casts x", x2)
with np.errstate(over="warn"):
    show("hidden overflow", hidden_overflow(x0))
    show("shown overflow", shown_overflow(x0))
