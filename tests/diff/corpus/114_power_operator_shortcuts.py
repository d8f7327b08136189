# `**` on a float array with the exponent 2 or -1 (Python ints) or 0.5 (a
# Python float) is NumPy's square, reciprocal or sqrt, not power: sqrt(-0.0)
# is -0.0 where power gives 0.0, and the warnings name those ufuncs. Other
# exponents, NumPy-scalar exponents, np.power calls, integer arrays and
# NumPy-scalar bases keep power. Arrays are large enough to be traced, in a
# function (regions live in evaluated frames).
import warnings

import numpy as np

warnings.simplefilter("always")


def main():
    n = 4096
    x = np.linspace(-3.0, 3.0, n)
    x[:4] = [-0.0, 0.0, -np.inf, np.nan]
    for dtype in (np.float64, np.float32):
        a = x.astype(dtype)
        for label, value in [
            ("a ** 0.5", (a + 0) ** 0.5),
            ("a ** 2", (a * 1) ** 2),
            ("a ** -1", (a - 0) ** -1),
            ("a ** 2.0", (a + 0) ** 2.0),
            ("a ** -1.0", (a + 0) ** -1.0),
            ("a ** 3", (a + 0) ** 3),
            ("a ** np.float64(0.5)", (a + 0) ** np.float64(0.5)),
            ("np.power(a, 0.5)", np.power(a + 0, 0.5)),
        ]:
            print(dtype.__name__, label, value.dtype, value[:6].tolist(), float(np.nansum(value[6:])))
        b = a * 1
        b **= 0.5
        print(dtype.__name__, "b **= 0.5", b.dtype, b[:6].tolist())
        c = a * 1
        c **= -1
        print(dtype.__name__, "c **= -1", c.dtype, c[:6].tolist())
        with np.errstate(invalid="raise"):
            try:
                (a + 0) ** 0.5
            except FloatingPointError as e:
                print("raised:", e)

    i = np.arange(-n // 2, n // 2)
    print("int ** 2", ((i + 0) ** 2)[:4].tolist(), ((i + 0) ** 2).dtype)
    s = np.float64(-1.0)
    print("scalar ** 0.5", s ** 0.5)


main()
