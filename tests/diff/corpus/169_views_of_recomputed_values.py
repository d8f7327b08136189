# A region whose step raised a floating-point warning NumPy reports is
# computed again through NumPy from that step on: views of the values it
# computes again (slices, reshapes, transposes made in the same region)
# must be made again from the new arrays, or the program's writes through
# them reach the arrays computed first and are lost for what reads the
# value next. Found by tests/property (a write through t1[::2] lost).
import warnings

import numpy as np

from corpus_digest import show


def shifted(a0):
    t1 = np.sin(a0) + 1e-3
    t3 = t1[::2]
    t3[..., 1:] = t3[..., :-1]
    return np.minimum(t1, 0) * 1


def scaled_columns(a0):
    t = np.log(a0) * 2
    v = t.reshape(-1, 13).T[1::2]
    v[:] = 7.0
    return t + 1


a0 = np.linspace(-3, 3, 9 * 14 * 169).reshape(9, 14, 169)
a0[0, 0, 3] = np.inf
b0 = np.linspace(-1, 5, 13 * 400)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    show("shifted", shifted(a0))
    show("scaled columns", scaled_columns(b0))
print([str(c.message) for c in caught])
with np.errstate(invalid="ignore", divide="ignore"):
    show("shifted, ignored", shifted(a0))
    show("scaled columns, ignored", scaled_columns(b0))
