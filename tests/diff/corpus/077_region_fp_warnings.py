"""Floating-point RuntimeWarnings from recorded operations under the default
warning filters: divide by zero, invalid value (sqrt/log of negatives, 0/0,
inf - inf), overflow (float32 * big, exp), reported with the file and line
of the operation (not of the line that uses the value), once per location
even in a loop, for values never used, for operations on several lines of
one expression, and interleaved with Python's own warnings.warn."""
import sys
import warnings

import numpy as np

N = 50_000
x = np.linspace(-1, 1, N)
x[N // 2] = 0.0
f32 = np.linspace(1, 1e3, N).astype(np.float32)


def divide():
    r = 1.0 / x
    s = r * 2
    print("divide", repr(np.isinf(s).sum()))
    sys.stdout.flush()


def invalid():
    a = np.sqrt(x)
    b = np.log(x - 0.5)
    c = (x * 0) / (x * 0)
    inf = np.exp(x * 1e4)
    d = inf - inf
    print("invalid", repr(np.isnan(a).sum()), repr(np.isnan(b).sum()), repr(np.isnan(c).sum()), repr(np.isnan(d).sum()))


def overflow():
    big = f32 * np.float32(3e36)
    e = np.exp(x * 800)
    p = f32 ** 20
    print("overflow", big.dtype, repr(np.isinf(big).sum()), repr(np.isinf(e).sum()), repr(np.isinf(p).sum()))


def used_later():
    q = x / x  # the warning names this line
    w = q + 1
    t = w * 2
    print("used later", repr(np.isnan(t).sum()))


def never_used():
    unused = np.log(x)  # noqa: F841
    also = 5.0 / (x * 0)  # noqa: F841
    return "returned"


def multi_line():
    r = (
        x * 2
        + np.sqrt(
            x - 2
        )
        / (x * 0)
    )
    print("multi line", repr(np.isnan(r).sum()))


def loop():
    out = []
    for k in range(4):
        v = np.log(x * k)
        out.append(int(np.isinf(v).sum()))
    print("loop", out)


def mixed_with_warn():
    a = 1.0 / (x * 0)
    warnings.warn("python warning after numpy op")
    b = np.sqrt(x - 10)
    warnings.warn("second python warning", UserWarning)
    print("mixed", repr(np.isinf(a).sum()), repr(np.isnan(b).sum()))


def two_flags_one_op():
    num = np.where(x > 0, 1.0, 0.0)
    r = num / (x * 0)
    print("two flags", repr(np.isinf(r).sum()), repr(np.isnan(r).sum()))


def helper(v):
    return np.arccos(v * 2)


def via_helper():
    a = helper(x)
    b = helper(x) + 1
    print("helper", repr(np.isnan(a).sum()), repr(np.isnan(b).sum()))


def integer_cases():
    i = np.arange(N) - N // 2
    d = i // 0
    m = i % 0
    print("int // 0", d.dtype, repr(d[:3]), repr(m[:3]))
    fd = i / 0
    print("int / 0", fd.dtype, repr(np.isinf(fd).sum()))


def small_and_0d():
    s = np.array([1.0, 0.0, -1.0])
    print("small", repr(s / 0), repr(np.log(s)))
    z = np.array(0.0) * 3
    print("0-d", repr(1 / z), repr(np.sqrt(z - 1)))
    print("scalar", repr(np.float64(1.0) / np.float64(0.0)), repr(np.float32(1e30) * np.float32(1e30)))


divide()
invalid()
overflow()
used_later()
print(never_used())
multi_line()
loop()
loop()
mixed_with_warn()
two_flags_one_op()
via_helper()
integer_cases()
small_and_0d()
for _ in range(3):
    divide()
r = 1.0 / x  # module level
print("module level", repr(np.isinf(r).sum()))
