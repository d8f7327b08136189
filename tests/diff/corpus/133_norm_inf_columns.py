# np.linalg.norm(expression, ord=+-inf) along a leading axis: NumPy computes
# abs(x).max(axis) through its own call, which reads the expression's value;
# a kernel that fused the expression kept it in registers (npython crashed
# here), so the call's argument is computed first.
import warnings

import numpy as np


def norms(a):
    r = [np.linalg.norm(a - 1, ord=np.inf, axis=0),
         np.linalg.norm(a * 2, ord=-np.inf, axis=-2),
         np.linalg.norm(-a, ord=np.inf, axis=0, keepdims=True),
         np.linalg.norm(a * 0.5 - 3, ord=1, axis=0)]
    for v in r:
        print(v.shape, repr(float(v.sum())), repr(float(v.max())))


def with_warning(a):
    r = np.linalg.norm(np.sqrt(a - 2.0), ord=np.inf, axis=0)  # invalid value: NaNs in the norm
    print(r.shape, int(np.isnan(r).sum()))


a = np.arange(4096.0).reshape(64, 64) / 100.0
norms(a)
norms(np.random.default_rng(3).standard_normal((16, 16, 16)))
norms(np.ones((2, 2048)))
warnings.simplefilter("always")
with_warning(np.random.default_rng(4).random((64, 64)) * 4)
