"""Exceptions raised by recorded operations surface at the operation's line,
with NumPy's type and message: broadcasting ValueError, AxisError from a bad
axis, min/argmax of an empty array, OverflowError of int8 + 1000, TypeError
of bitwise ops on floats, UFuncTypeError of casting, IndexError of a bad
index, reshape errors; the traceback's last frame line (tb_lineno) and
function name are printed, and values computed before the failure stay
usable."""
import numpy as np

N = 60_000


def where(e):
    tb = e.__traceback__
    lines = []
    while tb is not None:
        lines.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
        tb = tb.tb_next
    return lines


def report(label, fn, *args):
    try:
        r = fn(*args)
        print(label, "no error", repr(r))
    except Exception as e:
        print(label, type(e).__name__, "|", str(e), "|", where(e))


def broadcast():
    a = np.ones((300, 200)) * 2
    b = np.arange(150.0) + 1
    c = a + 1  # fine
    d = c * b  # ValueError here
    return d.sum()


def broadcast_small():
    a = np.ones((3, 4)) * 2
    b = np.arange(5) + 1
    return a + b


def bad_axis():
    a = np.arange(N).reshape(300, 200) * 2
    s = a + 1
    return s.sum(axis=2)


def bad_axis_negative():
    a = np.linspace(0, 1, N) * 3
    return np.mean(a, axis=-2)


def bad_axis_tuple():
    a = np.ones((300, 200)) - 1
    return a.max(axis=(0, 0))


def empty_min():
    a = np.arange(N) * 1.5
    e = a[a > 1e9]
    return e.min()


def empty_argmax():
    a = np.zeros((0, 5)) + 1
    return a.argmax(axis=0)


def int8_overflow():
    a = np.arange(N, dtype=np.int8) * 2
    b = a + 1  # fine
    return b + 1000


def uint8_negative():
    a = np.arange(N, dtype=np.uint8) + 1
    return a * -1


def bitwise_float():
    a = np.linspace(0, 10, N) * 2
    return a & 1


def shift_float():
    a = np.linspace(0, 10, N) + 1
    return a << 2


def invert_float():
    a = np.linspace(0, 10, N) + 1
    return ~a


def casting_out():
    a = np.arange(N, dtype=np.int32) + 1
    f = a * 0.5
    return np.add(f, 1, out=a)


def bad_index():
    a = np.arange(N) * 2
    b = a - 1
    return b[N + 5]


def bad_index_2d():
    a = (np.arange(N) * 2).reshape(300, 200)
    return a[1, 2, 3]


def bad_reshape():
    a = np.arange(N) * 2.0
    return a.reshape(7, -1)


def bad_where():
    a = np.arange(N) * 2.0
    return np.where(a > 3, a, np.zeros(7))


def string_mix():
    a = np.arange(N) * 2.0
    return a + "x"


def none_mix():
    a = np.arange(N) * 2.0
    return a * None


def matmul_shapes():
    a = np.ones((300, 200)) * 2
    return a @ (np.ones(300) + 1)


def multi_line_op():
    a = np.ones((300, 200)) * 2
    b = np.arange(7.0)
    r = (
        a
        * 2
        + b
    )
    return r


def nested_helper(v):
    return v + np.ones(3)


def through_helpers():
    a = np.arange(N) * 0.5
    b = a * 2
    return nested_helper(b)


def survives():
    a = np.arange(N) * 3.0
    b = a + 1
    try:
        bad = b + np.ones(4)
        print("not reached", bad)
    except ValueError as e:
        print("caught", e)
    print("survivors", repr(a.sum()), repr(b[:3]))


for fn in [
    broadcast, broadcast_small, bad_axis, bad_axis_negative, bad_axis_tuple, empty_min, empty_argmax,
    int8_overflow, uint8_negative, bitwise_float, shift_float, invert_float, casting_out, bad_index,
    bad_index_2d, bad_reshape, bad_where, string_mix, none_mix, matmul_shapes, multi_line_op,
    through_helpers,
]:
    report(fn.__name__, fn)
survives()


def zero_d_errors():
    z = np.array(3.0) * 2
    report("0-d axis", lambda: z.sum(axis=1))
    report("0-d index", lambda: z[0])
    report("0-d bitwise", lambda: z | 1)
    report("scalar overflow", lambda: np.int8(3) + 1000)


zero_d_errors()
