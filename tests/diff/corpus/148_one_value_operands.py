# NumPy's loops take other paths for an operand that is one value (a scalar,
# a 0-d array, a broadcast row): power's exponents -1, 0.5 and 2 (as 1 / x,
# sqrt and x * x), fmax and fmin of signed zeros. Kernels that call NumPy's
# loops must pass such operands as NumPy's own call does.
import numpy as np

from corpus_digest import show


def power(x, e):
    return x ** e


def extremes(x, z):
    return np.fmax(z, x), np.fmin(x, z), np.fmax(np.floor(x * 0.0), z)


rng = np.random.default_rng(148)
x = rng.standard_normal(100_000) * 3
x32 = x.astype(np.float32)
with np.errstate(all="ignore"):
    for e in (-1.0, np.array(-1.0), np.float64(-1.0), 0.5, np.array(0.5), 2.0, np.array(2.0), 3.0, -2.0,
              np.array(-0.5)):
        show(f"float64 ** {e!r}", power(x, e))
        show(f"float32 ** {e!r}", power(x32, np.float32(e)))
    rows = x.reshape(1000, 100)
    show("rows ** column", power(rows, np.full((1000, 1), 0.5)))
    show("rows ** (0-d * 2)", power(rows, np.array(0.25) * 2))
    zeros = np.where(np.arange(100_000) % 2 == 0, 0.0, -0.0)
    for z in (np.float64(-0.0), np.float64(0.0), -0.0):
        for r in extremes(zeros, z):
            show(f"signed zeros against {z!r}", r)
