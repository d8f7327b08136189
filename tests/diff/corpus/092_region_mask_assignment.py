# Boolean-mask assignment `x[mask] = v` into values a region computes, with
# a scalar v: every dtype family, NumPy's setitem casts (a float into an int
# array truncates, NumPy scalars and 0-d arrays wrap), lazy and real masks,
# the value used by later operations and through aliases, and the errors and
# warnings NumPy gives (out-of-range ints, NaN into ints, shape mismatches,
# read-only views).
import numpy as np

n = 20000
base = np.arange(n) % 97 - 48
real_mask = base % 3 == 0


def fresh(a):
    """A value the region computes, of a's dtype."""
    return a * a.dtype.type(1)


def show(name, r):
    r = np.asarray(r)
    print(name, r.dtype, r.shape, r.ravel()[:8].tolist(), r.sum().item() if r.dtype != np.bool_ else int(r.sum()))


def families():
    for dtype in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                  np.float32, np.float64):
        x = fresh((base + 50).astype(dtype))
        x[x > 60] = 7
        x[real_mask] = 0
        show(np.dtype(dtype).name, x)


def casts():
    for dtype in (np.int8, np.int64, np.uint8, np.bool_, np.float32):
        x = fresh(base.astype(dtype))
        x[x == 5] = 2.7
        x[x == 6] = -2.7 if dtype != np.uint8 else 1.9
        x[x == 7] = True
        x[x == 8] = np.int64(300)
        x[x == 9] = np.float64(3.5)
        x[x == 10] = np.array(260)
        x[x == 11] = np.float32(1e30) if dtype == np.float32 else np.uint16(65535)
        show("cast_" + np.dtype(dtype).name, x)


def lazy_values():
    x = base * 1.5
    x[x < 0] = x.max()
    x[x > 60] = (x * 2).min()
    y = x + 1
    show("lazy_value", y)
    i = base * 2
    i[i > 10] = i.sum()
    show("lazy_int", i)


def aliases_and_later_use():
    x = base * 1.0
    alias = x
    x[x < 0] = 0.5
    x[real_mask] = -1
    show("alias", alias)
    z = x * x - alias
    show("later", z)
    s = base * 1.0
    t = s
    s[s > 40] = np.nan
    show("nan_sum", np.isnan(t) + np.isnan(s))
    x = base * 1.0
    m = x > 10
    x[m] = 1
    x[~m] = 2
    show("negated_mask", x * m)
    x = base * 1.0
    w = x[::2]
    x[x == 1] = 100
    show("view_seen", w)
    v = base * 1
    part = v[:100]
    part[part < 0] = 0
    show("through_view", v[:8])
    e = base * 1.0
    e[np.zeros(n, bool)] = 5
    show("empty_mask", e)


def errors():
    x = fresh(base.astype(np.int8))
    try:
        x[x > 0] = 300
    except OverflowError as err:
        print("OverflowError", err)
    try:
        x[x > 0] = float("nan")
    except ValueError as err:
        print("ValueError", err)
    try:
        x[x > 0] = float("inf")
    except OverflowError as err:
        print("OverflowError", err)
    x[x > 40] = np.float64("nan")
    show("nan_to_int8", x)
    u = fresh(base.astype(np.uint8))
    try:
        u[u > 0] = -1
    except OverflowError as err:
        print("OverflowError", err)
    f = fresh(base.astype(np.float32))
    f[f > 40] = 1e300
    show("overflow_f32", f)
    g = base * 1.0
    try:
        g[real_mask[:-1]] = 1
    except IndexError as err:
        print("IndexError", err)
    h = (base * 1.0).reshape(200, 100)
    try:
        h[h[:, 0] > 0] = 1
    except Exception as err:
        print(type(err).__name__)
    show("row_mask", h)
    b = np.broadcast_to(base * 1.0, (2, n))
    try:
        b[b > 0] = 1
    except ValueError as err:
        print("ValueError", err)
    with np.errstate(invalid="ignore"):
        k = base * 1
        k[k > 0] = np.float64("nan")
        show("nan_ignored", k)


families()
casts()
lazy_values()
aliases_and_later_use()
errors()
