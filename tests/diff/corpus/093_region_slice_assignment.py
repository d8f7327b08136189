# Assignment through a basic index (`u[1:-1] = ...`, `u[3] = ...`, steps,
# negative steps, None, Ellipsis) into values a region computes: the right
# side is computed before the assignment even when it reads u (NumPy's copy
# semantics), scalars are cast as NumPy's setitem casts them, values
# broadcast, views of u see the assignment, and NumPy's errors come from the
# assignment's line.
import numpy as np

n = 30000
a = np.linspace(-3.0, 3.0, n)
ai = np.arange(n) % 1000 - 500


def show(name, r):
    r = np.asarray(r)
    f = r.astype(np.float64)
    print(name, r.dtype, r.shape, np.round(f.ravel()[:6], 10).tolist(), float(np.round(f.sum(), 6)))


def aliasing():
    u = a * 1.0
    u[1:] = u[:-1]
    show("shift_right", u)
    u = a * 1.0
    u[:-1] = u[1:]
    show("shift_left", u)
    u = a * 1.0
    u[::-1] = u
    show("reverse", u)
    u = a * 1.0
    u[::-2] = u[::2] * 3
    show("neg_step", u)
    u = a * 1.0
    u[1:-1] = u[1:-1] + 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
    u[1:-1] = u[1:-1] + 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
    show("stencil_lazy", u * 2)
    u = a * 1.0
    u[2:] += u[:-2]
    show("augmented", u)


def forms():
    u = a * 2.0
    u[5] = 1.5
    u[-1] = -7
    u[10:20] = 3
    u[100:200:7] = u[:15]
    u[...] = u + 1
    u[:, None][3:6] = 0
    v = u * u
    show("forms", v[:300])
    m = a.reshape(100, 300) * 1.0
    m[1] = m[0]
    m[:, 2] = m[:, 3] * 2
    m[2:4, ::50] = 9
    m[5:10] = m[0, :]
    m[10:12] = np.ones((1, 1, 300))
    m[20, 30] = np.float32(2.5)
    m[..., -1] = m[..., 0]
    show("2d", m.sum(axis=1))
    e = a * 1.0
    e[7:7] = 5
    show("empty_part", e + 0)


def casts():
    i = ai * 1
    i[:10] = 2.9
    i[10:20] = -2.9
    i[20] = True
    i[30:40] = np.float64(7.7)
    i[40:50] = np.int16(-3)
    i[50:60] = np.array(12.5)
    i[60:] = i[60:] // 2
    show("int_target", i[:80])
    f = a.astype(np.float32) * np.float32(1)
    f[:100] = ai[:100]
    f[100:200] = 1e20
    f[200:300] = np.float64(0.1)
    f[300:] = f[300:] * 2
    show("f32_target", f)
    g = a * 1.0
    g[:100] = ai[:100] * 2
    g[100:200] = f[:100] + 0
    show("f64_from_others", g)
    h = ai * 1
    h[:100] = a[:100] * 2
    show("int_from_float_array", h[:120])
    k = ai * 1
    k[:100] = a[:100] > 0
    k8 = ai.astype(np.int8) * np.int8(1)
    k8[:300] = ai[:300] * 3
    show("quiet_casts", k8[:10] + k[:10])
    s = (a * 1.0).astype(np.float32)
    s[20:30] = (a * 1.0).astype(np.float32).max()
    s[30] = ai.astype(np.int16).max()
    s[31:35] = (ai > 0).any()
    show("lazy_scalars", s[:40] * 1)
    s = (a * 1.0).astype(np.float32)
    s[:10] = a.sum()
    show("float64_scalar_into_float32", s[:12] * 1)
    s = (a * 1.0).astype(np.float32)
    s[10:20] = ai.sum()
    show("int64_scalar_into_float32", s[:22] * 1)
    b = a > 0
    b[:10] = 5
    b[10:20] = 0.0
    show("bool_target", b & b)


def views():
    u = a * 1.0
    w = u[:10]
    u[:] = 0
    show("live_view", w)
    u = a * 1.0
    part = u[100:200]
    part[:] = 1
    show("assign_into_view", u[95:105])
    u = a * 1.0
    t = u[::3]
    t[::2] = -1
    show("view_of_view", u[:12])
    u = a * 1.0
    kept = u
    u[3:5] = 42
    show("alias", kept[:6])
    r = np.broadcast_to(a * 1.0, (2, n))
    try:
        r[0, :5] = 1
    except ValueError as err:
        print("ValueError", err)


def errors():
    u = a * 1.0
    try:
        u[1:] = u
    except ValueError as err:
        print("ValueError", err)
    u = a * 1.0
    try:
        u[n] = 1
    except IndexError as err:
        print("IndexError", err)
    u = a * 1.0
    try:
        u[1, 2] = 1
    except IndexError as err:
        print("IndexError", err)
    u = a * 1.0
    try:
        u[3] = u[:1]
    except (ValueError, TypeError) as err:
        print(type(err).__name__, err)
    i8 = ai.astype(np.int8) * np.int8(1)
    try:
        i8[:5] = 300
    except OverflowError as err:
        print("OverflowError", err)
    i8 = ai.astype(np.int8) * np.int8(1)
    try:
        i8[7] = float("nan")
    except ValueError as err:
        print("ValueError", err)
    i8 = ai.astype(np.int8) * np.int8(1)
    i8[10:20] = np.array(np.nan)
    show("nan_array_to_int8", i8[:30])
    i8 = ai.astype(np.int8) * np.int8(1)
    i8[10:20] = (a * np.nan)[:10]
    show("nan_lazy_to_int8", i8[:30])
    f = a.astype(np.float32) * np.float32(1)
    f[:5] = 1e300
    show("f32_overflow", f[:8])
    m = a.reshape(100, 300) * 1.0
    try:
        m[:, 1:] = m[:2, 1:]
    except ValueError as err:
        print("ValueError", err)
    u = a * 1.0
    u[4:8] = 1
    show("after_errors", u + 1)


aliasing()
forms()
casts()
views()
errors()
