# np.cumsum and np.cumprod, functions and methods: along each axis and
# along every element (no axis), of float64, float32, every integer type
# and bool (into int64 and uint64, wrapping), of arrays as they are
# (transposed, reversed, strided, Fortran order) and of pending values;
# their results read by later work; NaNs with payloads, infinities and
# overflow (NumPy's warning), empty arrays, one-element axes, bad axes and
# the keywords NumPy alone takes.
import warnings

import numpy as np

from corpus_digest import show

rng = np.random.default_rng(174)
m = rng.standard_normal((300, 70))
cube = rng.standard_normal((12, 40, 30))
ints = rng.integers(-120, 120, (200, 50))


def axes_of(a):
    return [None] + list(range(a.ndim)) + [-1]


def float_scans():
    for a in (m, m.astype(np.float32), cube, m.T, m[::-1], m[:, ::3], np.asfortranarray(m), cube.transpose(1, 2, 0),
              np.asfortranarray(cube), cube[:, ::-2, ::3]):
        for axis in axes_of(a):
            show(f"cumsum {a.dtype} {a.shape} {axis}", np.cumsum(a, axis=axis))
            show(f"cumprod {a.dtype} {a.shape} {axis}", np.cumprod(a * 0.25 + 1.0, axis))
    v = rng.standard_normal(50_000)
    show("cumsum flat", np.cumsum(v))
    show("cumsum pending", np.cumsum(v * 2.0 - 1.0) / 3.0)
    show("cumsum method", (v + 1.0).cumsum())
    show("cumprod method", (v * 0.01 + 1.0).cumprod())
    show("cumsum of centred", np.cumsum(v - v.mean()))
    print("last of cumsum", repr(np.cumsum(v * 0.5)[-1]))
    show("cumsum reversed", np.cumsum(v[::-1]))
    show("cumsum strided", np.cumsum(v[1::7]))
    show("cumsum then sum", np.cumsum(m * 2.0, axis=0).sum(axis=1))
    show("cumsum positional", np.cumsum(m + 0.0, 1))


def integer_scans():
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.bool_):
        a = (ints > 0) if dtype is np.bool_ else ints.astype(dtype)
        for axis in axes_of(a):
            show(f"cumsum {np.dtype(dtype)} {axis}", np.cumsum(a, axis=axis))
            show(f"cumprod {np.dtype(dtype)} {axis}", np.cumprod(a | 1 if dtype is not np.bool_ else a, axis=axis))
    big = rng.integers(-2**62, 2**62, 40_000)
    show("wrapping cumsum", np.cumsum(big * 3))
    show("wrapping cumprod", np.cumprod(big | 1))
    counts = rng.integers(0, 9, 100_000)
    show("long int cumsum", np.cumsum(counts))
    show("long int cumsum pending", np.cumsum(counts * 2 + 1)[-5:])
    show("bool cumsum pending", np.cumsum(counts > 4))


def special_values():
    v = rng.standard_normal(5000)
    v[100] = np.nan
    v[3000] = np.inf
    payload = np.frombuffer(np.array([0x7FF8000000000123], dtype=np.uint64).tobytes(), dtype=np.float64)[0]
    v[2000] = payload
    show("cumsum nan", np.cumsum(v * 1.0))
    show("cumprod nan", np.cumprod(v * 0.001 + 1.0))
    w = np.full(5000, 1e300)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        show("cumsum overflow", np.cumsum(w * 1.5))
        show("cumprod overflow", np.cumprod(w + 1.0))
    print("warnings", sorted(str(c.message) for c in caught))
    print(repr(np.cumsum(np.ones((3000, 0)) * 2.0, axis=0).shape), repr(np.cumsum(np.ones((0, 3000)) * 2.0).shape))
    show("one-element axis", np.cumsum(m[:1] * 3.0, axis=0))


def bad_calls():
    for call in (lambda: np.cumsum(m * 1.0, axis=2), lambda: (m * 1.0).cumprod(axis=-3),
                 lambda: np.cumsum(m * 1.0, axis=(0, 1))):
        try:
            call()
        except Exception as e:  # NumPy's own errors, raised at the call
            print(type(e).__name__, e)
    show("dtype keyword", np.cumsum(ints * 1, dtype=np.float32))
    out = np.empty_like(m)
    np.cumsum(m * 1.0, axis=0, out=out)
    show("out keyword", out)


float_scans()
integer_scans()
special_values()
bad_calls()
