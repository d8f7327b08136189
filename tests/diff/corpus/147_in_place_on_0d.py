# In-place operators on 0-d values a region holds: a 0-d array (np.where,
# astype of a reduction) stays an array, as NumPy's in-place operator gives
# it back; a NumPy scalar (a reduction) becomes a new scalar.
import numpy as np


def values(a):
    t = np.where(a.sum() > 0, 2.0, -1)
    t += 2.0
    u = (a.max() * 3).astype(np.float32)
    u **= 2
    s = a.sum()
    s += 1.5
    m = np.where(a.min() < 0, a.mean(), 0.0)
    m *= 4
    return t, u, s, m


for value in values(np.linspace(-1.0, 3.0, 4096)):
    print(type(value).__name__, value.dtype, value.shape, repr(value))
