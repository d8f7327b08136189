# The functions NumPy computes with algorithms of its own (exp, log, sin,
# tan, arcsin, tanh, arctan2, power, //, % ...), float32 and float64, on
# ordinary values and on NaN, infinities, signed zeros, subnormals, huge and
# tiny arguments, contiguous, strided, 2-D and fused into expressions (a
# function of a function, of a broadcast column, summed): npython's kernels
# call NumPy's own loops for them, so every bit must be NumPy's.
import numpy as np

from corpus_digest import show

UNARY = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "sign",
         "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh"]
BINARY = ["power", "arctan2", "floor_divide", "remainder", "fmin", "fmax"]

rng = np.random.default_rng(145)


def values(dtype, n):
    x = rng.standard_normal(n) * rng.choice([1e-3, 0.5, 3.0, 40.0, 1e4], size=n)
    x[:40] = [0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1e-310, -1e-310, 1e-40, -1e-40,
              1e308, -1e308, 3e38, -3e38, 710.0, -745.5, 88.7, -103.9, 1e22, -1e22,
              np.pi / 2, np.pi, 1.0, -1.0, 0.5, 2.0, 1e-8, -1e-8, 100.5, 1e300,
              89.5, 709.9, 1e-20, 2.5e-16, 7.0, -7.0, 0.999999, 1.000001, 1e6, 3.0]
    with np.errstate(all="ignore"):
        return x.astype(dtype)


def f(name):
    return getattr(np, name)


for dtype in (np.float64, np.float32):
    x = values(dtype, 50_000)
    y = values(dtype, 50_000)
    grid = values(dtype, 300 * 130).reshape(300, 130)
    column = values(dtype, 300).reshape(300, 1)
    wide = values(dtype, 3 * 20_000).reshape(20_000, 3)
    # Finite results only where they are summed: the sign of a NaN a sum
    # keeps is the order of its adds (README, known differences).
    moderate = rng.uniform(0.05, 0.45, (300, 130)).astype(dtype)
    scale = rng.uniform(0.5, 1.0, (300, 1)).astype(dtype)
    with np.errstate(all="ignore"):
        for name in UNARY:
            show(f"{dtype.__name__} {name}", f(name)(x))
            show(f"{dtype.__name__} {name} of x*0.75+0.25", f(name)(x * dtype(0.75) + dtype(0.25)))
            show(f"{dtype.__name__} {name} strided column", f(name)(wide[:, 1]))
            show(f"{dtype.__name__} {name} 2-D slice", f(name)(grid[::2, 3:120]))
            show(f"{dtype.__name__} {name} of sin, plus x", f(name)(np.sin(x)) + x)
            show(f"{dtype.__name__} {name} rows summed", f(name)(moderate / scale).sum(axis=1))
            show(f"{dtype.__name__} {name} in place", f(name)(x.copy(), out=None))
        for name in BINARY:
            show(f"{dtype.__name__} {name}", f(name)(x, y))
            show(f"{dtype.__name__} {name} by a scalar", f(name)(x, dtype(1.7)))
            show(f"{dtype.__name__} {name} of a scalar", f(name)(dtype(2.5), y))
            show(f"{dtype.__name__} {name} by a column", f(name)(grid, column))
        show(f"{dtype.__name__} x ** 3", x ** 3)
        show(f"{dtype.__name__} x ** 2.5 + x ** -1.5", x ** 2.5 + x ** -1.5)
        show(f"{dtype.__name__} softmax rows", np.exp(grid - grid.max(axis=1, keepdims=True)).sum(axis=1))
        show(f"{dtype.__name__} sin^2 + cos^2", np.sin(x) ** 2 + np.cos(x) ** 2)

# Integers into these functions compute in float64, as NumPy's casts say.
ints = rng.integers(-50, 50, size=10_000)
with np.errstate(all="ignore"):
    show("int64 exp", np.exp(ints))
    show("int64 sin plus arctan", np.sin(ints) + np.arctan(ints * 0.5))
    show("int32 log1p", np.log1p(ints.astype(np.int32) + 60))

# With NumPy's default error handling: the same warnings, once each.
z = np.linspace(-3.0, 3.0, 4096)
show("log of signed", np.log(z))
show("arcsin outside", np.arcsin(z * 2.0))
show("power negative base", np.power(z, 0.5))
# fmax's loop clears the floating-point flags when it ends: exp's overflow
# before it in the same kernel must still be reported.
show("exp overflow then fmax", np.fmax(np.exp(z * 400.0), z))
print(repr(float(np.exp(z).sum())), repr(float(np.tanh(z * 100.0).sum())))
