# Kernels are shared between regions that compute the same thing: a Python
# number and a 0-d array (a NumPy scalar) of the same dtype are different
# inputs to a kernel (one is held as an int64 or a double, the other is read
# in its own type), so they must not share one.
import numpy as np

n = 40000
t = np.linspace(-2.0, 2.0, n)


def with_python_bool(x):
    return np.where(x, True, x)


def with_numpy_bool(x):
    return np.where(x, np.bool_(True), x)


def with_python_int(x):
    return np.where(x > 0, 3, x)


def with_numpy_int(x):
    return np.where(x > 0, np.int64(3), x)


junk = [np.full(n, 7.5e18) * 1.0 for _ in range(4)]
del junk
for f in (with_python_bool, with_numpy_bool, with_python_int, with_numpy_int, with_numpy_bool):
    r = f(t * 1)
    print(f.__name__, r.dtype, float(r.sum()), r[:2], r[-2:])
