"""Calls of NumPy ufuncs (np.add ... np.sqrt, np.exp, np.arctan2, np.fmin,
np.rint, np.isnan, np.logical_*, np.sign, np.square, np.reciprocal, np.abs)
recorded inside functions and chained, for float32, float64 and integer
inputs, with scalars: values and result dtypes must be NumPy's, the
transcendental functions' included (kernels call NumPy's own loops)."""
import numpy as np

N = 60_000


def show(label, a):
    a = np.asarray(a)
    if a.dtype == bool:
        total = int(a.sum())
    elif a.dtype.kind == "f":
        total = np.nansum(a, dtype=np.float64)
    else:
        total = a.sum()
    print(label, a.dtype, a.shape, repr(total), repr(a.ravel()[:3]), repr(a.ravel()[-1]))


def inputs(dtype):
    t = np.linspace(-3.0, 3.0, N)
    x = (t * 1.7).astype(dtype)
    y = (np.cos(t * 5) * 2 + 0.1).astype(dtype)
    return x, y


def binary_calls(dtype):
    x, y = inputs(dtype)
    show(f"{dtype} add", np.add(x, y))
    show(f"{dtype} subtract", np.subtract(x, 1))
    show(f"{dtype} multiply", np.multiply(2, y))
    show(f"{dtype} divide", np.divide(x, y))
    show(f"{dtype} true_divide", np.true_divide(y, 3))
    show(f"{dtype} power", np.power(np.abs(x), y))
    show(f"{dtype} arctan2", np.arctan2(x, y))
    show(f"{dtype} hypot", np.hypot(x, y))
    show(f"{dtype} minimum", np.minimum(x, y))
    show(f"{dtype} maximum", np.maximum(x, 0.5))
    show(f"{dtype} fmin", np.fmin(x, y))
    show(f"{dtype} fmax", np.fmax(x, y))
    show(f"{dtype} copysign", np.copysign(y, x))
    show(f"{dtype} fmod", np.fmod(x, 1.25))
    show(f"{dtype} mod", np.mod(x, 1.25))


def unary_calls(dtype):
    x, y = inputs(dtype)
    pos = np.abs(x) + 0.5
    show(f"{dtype} sqrt", np.sqrt(pos))
    show(f"{dtype} exp", np.exp(x))
    show(f"{dtype} expm1", np.expm1(x / 4))
    show(f"{dtype} log", np.log(pos))
    show(f"{dtype} log2", np.log2(pos))
    show(f"{dtype} log10", np.log10(pos))
    show(f"{dtype} log1p", np.log1p(pos))
    show(f"{dtype} sin", np.sin(x))
    show(f"{dtype} cos", np.cos(x))
    show(f"{dtype} tan", np.tan(x / 4))
    show(f"{dtype} arcsin", np.arcsin(y / 3))
    show(f"{dtype} arccos", np.arccos(y / 3))
    show(f"{dtype} arctan", np.arctan(x))
    show(f"{dtype} sinh", np.sinh(x))
    show(f"{dtype} cosh", np.cosh(x))
    show(f"{dtype} tanh", np.tanh(x))
    show(f"{dtype} floor", np.floor(x))
    show(f"{dtype} ceil", np.ceil(x))
    show(f"{dtype} trunc", np.trunc(x))
    show(f"{dtype} rint", np.rint(x))
    show(f"{dtype} around", np.around(x, 2))
    show(f"{dtype} sign", np.sign(x))
    show(f"{dtype} square", np.square(x))
    show(f"{dtype} reciprocal", np.reciprocal(pos))
    show(f"{dtype} absolute", np.absolute(x))
    show(f"{dtype} np.abs", np.abs(y))
    show(f"{dtype} negative", np.negative(x))
    show(f"{dtype} cbrt", np.cbrt(x))
    show(f"{dtype} deg2rad", np.deg2rad(x))


def predicates(dtype):
    x, y = inputs(dtype)
    q = x / (y - y.dtype.type(0.1))
    show(f"{dtype} isnan", np.isnan(np.sqrt(x)))
    show(f"{dtype} isinf", np.isinf(np.exp(x * 100)))
    show(f"{dtype} isfinite", np.isfinite(q))
    show(f"{dtype} signbit", np.signbit(x))
    show(f"{dtype} logical_and", np.logical_and(x > 0, y > 0))
    show(f"{dtype} logical_or", np.logical_or(x > 2, y < -1))
    show(f"{dtype} logical_xor", np.logical_xor(x > 0, y > 0))
    show(f"{dtype} logical_not", np.logical_not(x > 0))
    show(f"{dtype} logical_and nums", np.logical_and(x, y))
    show(f"{dtype} greater", np.greater(x, y))
    show(f"{dtype} equal", np.equal(np.floor(x), np.ceil(x)))


def chains(dtype):
    x, y = inputs(dtype)
    r = np.sqrt(np.square(x) + np.square(y))
    show(f"{dtype} norm chain", r)
    g = np.exp(-np.square(x) / 2) * np.cos(np.arctan2(y, x))
    show(f"{dtype} gauss chain", g)
    s = np.where(np.isfinite(np.log(x)), np.log(np.maximum(x, 1e-3)), 0)
    show(f"{dtype} safe log chain", s)
    c = np.minimum(np.maximum(x, -1), 1) * np.sign(y)
    show(f"{dtype} clamp chain", c)


def integer_calls(dtype):
    x = (np.arange(N) % 41 - 20).astype(dtype)
    show(f"{dtype} np.abs", np.abs(x))
    show(f"{dtype} sign", np.sign(x))
    show(f"{dtype} square", np.square(x))
    show(f"{dtype} minimum", np.minimum(x, 3))
    show(f"{dtype} maximum", np.maximum(x, np.int8(-2)))
    show(f"{dtype} sqrt", np.sqrt(np.abs(x)))
    show(f"{dtype} exp", np.exp(x / 10))
    show(f"{dtype} floor", np.floor(x))
    show(f"{dtype} bitwise_and", np.bitwise_and(x, 6))
    show(f"{dtype} left_shift", np.left_shift(x, 1))
    show(f"{dtype} invert", np.invert(x))
    show(f"{dtype} logical_not", np.logical_not(x))
    show(f"{dtype} gcd", np.gcd(x, 12))


for dt in ["float32", "float64"]:
    binary_calls(dt)
    unary_calls(dt)
    predicates(dt)
    chains(dt)
for dt in ["int8", "int16", "int32", "int64"]:
    integer_calls(dt)


def scalar_args():
    x, y = inputs("float32")
    show("sqrt f32 * py", np.sqrt(x * x) * 2.0)
    show("add f32 np.float64", np.add(x, np.float64(1)))
    show("maximum f32 np.float32", np.maximum(x, np.float32(0)))
    show("exp f32 of py", np.exp(x) + 1)
    show("0-d ufunc", np.sqrt(np.array(2.0)) + x[:1])
    v = np.sqrt(np.float32(2)) * np.exp(np.float64(1))
    print("scalar ufuncs", type(v).__name__, repr(v))


scalar_args()
