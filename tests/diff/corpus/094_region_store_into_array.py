# A value a region computes assigned into part of an array the program
# holds (`u[1:-1] = ...`): the region runs at the assignment, and its last
# step may write straight into u's part, unless that part overlaps what the
# step reads (the heat stencil: a temporary and a copy, as NumPy), or is
# laid out otherwise, or the value is used afterwards. Results, warnings and
# errors are NumPy's.
import numpy as np

n = 50000
rng = np.random.default_rng(3)
src = rng.standard_normal(n)


def show(name, r):
    r = np.asarray(r)
    f = r.astype(np.float64)
    print(name, r.dtype, r.shape, np.round(f.ravel()[:5], 10).tolist(), float(np.round(f.sum(), 6)))


def stencils():
    u = src.copy()
    for _ in range(5):
        u[1:-1] = u[1:-1] + 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
    show("heat", u)
    v = np.zeros(n)
    for _ in range(3):
        v[1:-1] = src[2:] - 2 * src[1:-1] + src[:-2]
    show("laplacian_into_other", v)
    w = src.copy()
    w[1:] = w[:-1] * 2
    show("shift_real", w)
    w = src.copy()
    w[:-1] = w[1:] * 2
    show("shift_real_left", w)
    w = src.copy()
    w[::-1] = w * 3
    show("reverse_real", w)
    w = src.copy()
    w[::2] = w[1::2] + 1
    show("strided_target", w)


def layouts():
    m = np.zeros((250, 400))
    r = src[:4000] * 1.0
    m[10:20] = (m[10:20] + 1) * 2
    m[20:30] = src[:4000].reshape(10, 400) * 3
    m[30:40] = r.reshape(10, 400) * 2
    m[:, 5] = src[:250] + 1
    m[40:60, :200] = src[:4000].reshape(20, 200) - 1
    m[60:70] = r[:400] + src[:400]
    show("rows", m.sum(axis=1))
    i = np.zeros(n, dtype=np.int64)
    i[:] = src * 10
    show("float_into_int", i)
    f = np.zeros(n, dtype=np.float32)
    f[:] = src * 2
    show("float64_into_float32", f)
    g = np.zeros(n)
    g[:] = np.arange(n) * 2
    show("int_into_float", g)


def value_used_after():
    u = np.zeros(n)
    t = src * 2
    u[:] = t
    u += 1
    show("t_kept", t)
    show("u", u)
    s = src.sum()
    x = src * 3
    u[:] = x + 1
    show("sum_same_region", s)
    show("x_kept", x)
    v = np.zeros(n)
    y = src * 5
    v[:] = y
    y[:3] = 0
    show("v_after_y_changes", v)


def fp_reports():
    u = np.zeros(n)
    u[:] = np.sqrt(src)
    show("sqrt_warns", u)
    with np.errstate(invalid="ignore"):
        u[:] = np.log(src)
    show("log_ignored", u)
    try:
        with np.errstate(invalid="raise"):
            u[:] = np.sqrt(src)
    except FloatingPointError as err:
        print("FloatingPointError", err)
    show("unchanged", u)


def errors():
    r = np.zeros(n)
    r.flags.writeable = False
    try:
        r[:] = src * 2
    except ValueError as err:
        print("ValueError", err)
    u = np.zeros(n)
    try:
        u[1:] = src * 2
    except ValueError as err:
        print("ValueError", err)
    try:
        u[n + 1:n + 5] = src[:4] * 2
    except ValueError as err:
        print("ValueError", err)
    try:
        u[n] = (src * 2).sum()
    except IndexError as err:
        print("IndexError", err)
    try:
        u[:, 1] = src * 2
    except IndexError as err:
        print("IndexError", err)
    u[:5] = (src * 2)[:1]
    show("broadcast_one", u[:6])


stencils()
layouts()
value_used_after()
fp_reports()
errors()
