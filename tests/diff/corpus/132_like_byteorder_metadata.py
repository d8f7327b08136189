# Creation calls and dtypes a region must not change: *_like of an unnamed
# temporary (only its shape and dtype are used, so the region may never
# compute it; npython crashed here), of a temporary computed from a
# transposed array (NumPy keeps its Fortran order), arange and linspace in
# a non-native byte order, and dtypes with metadata, which results keep.
import numpy as np


def likes(x):
    a = np.zeros_like(x * 2)
    b = np.ones_like(x + 1, dtype=np.int16)
    c = np.full_like(np.sqrt(x), 2.5)
    d = np.full_like(x - 1, fill_value=7, dtype=np.float32)
    e = np.empty_like(x * 3, dtype=np.int8)
    f = np.ones_like(x > 0.5, dtype=None)
    g = np.zeros_like(x.T * 2)
    h = np.zeros_like(x * 2) + x
    for v in (a, b, c, d, f, g):
        print(v.dtype, v.shape, v.strides, float(v.sum()))
    print(e.dtype, e.shape, e.strides)
    print(f"{float(h.sum()):.6f}")


def byte_order():
    a = np.arange(4096, dtype=">f8")
    b = np.arange(4096, dtype=">i4") * 2
    c = np.linspace(0, 1, 4096, dtype=">f8")
    print(a.dtype.str, b.dtype.str, c.dtype.str, a.tobytes()[8:16], float(a.sum()), int(b.sum()),
          f"{float(c.sum()):.6f}")


def metadata():
    md = np.dtype(np.float64, metadata={"unit": "m"})
    x = np.ones(4096, dtype=md)
    small = np.ones(5, dtype=md)
    print((x * 2).dtype.metadata, x.reshape(64, 64).sum(axis=0).dtype.metadata,
          np.arange(4096, dtype=md).dtype.metadata, np.sqrt(x).dtype.metadata, (small + 1).dtype.metadata,
          (-small).dtype.metadata, float((x * 2).sum()))


likes(np.random.default_rng(0).random((64, 64)))
likes(np.random.default_rng(1).random(4096))
byte_order()
metadata()
