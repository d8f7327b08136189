# np.bincount (without weights) and np.histogram (a number of equal bins,
# with and without weights): of every integer type bincount takes, bool and
# pending values (the bins computed by a region first); minlength shorter
# and longer than the values' range; huge sparse values; values of one
# bin; histograms over a given range and over the values' own, values on
# the edges and outside, NaNs and infinities outside the range, a range
# of one value, strided and 2-D arrays, weights with NaNs and infinities
# (and NumPy's warning where blocks' sums meet), many bins and one; and
# every argument NumPy refuses, with its error.
import warnings

import numpy as np

from corpus_digest import show

rng = np.random.default_rng(175)
n = 200_000
x = np.concatenate([rng.normal(-1.0, 1.2, n - n // 4), rng.normal(2.0, 0.5, n // 4)])
w = rng.exponential(1.0, n)


def counts():
    b = np.clip(((x + 5.0) / 0.05).astype(np.int64), 0, 199)
    show("bincount pending", np.bincount(np.clip(((x + 5.0) / 0.05).astype(np.int64), 0, 199)))
    show("bincount minlength", np.bincount(b, minlength=300))
    show("bincount short minlength", np.bincount(b, minlength=3))
    show("bincount minlength 0", np.bincount(b, minlength=0))
    for dtype in (np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32, np.int64):
        show(f"bincount {np.dtype(dtype)}", np.bincount((b % 100).astype(dtype)))
    show("bincount bool", np.bincount(x > 0.5))
    show("bincount strided", np.bincount(b[::-3]))
    show("bincount one value", np.bincount(np.full(50_000, 7)))
    sparse = rng.integers(0, 3, 40_000) * 1_000_003
    show("bincount sparse", np.bincount(sparse))
    show("bincount weights", np.bincount(b, weights=w))
    show("bincount uint64", np.bincount(b.astype(np.uint64)))
    print("bincount then", repr(int(np.bincount(b)[80:120].sum())))


def show_hist(name, r):
    counts, edges = r
    show(name, counts)
    show(name + " edges", edges)


def histograms():
    show_hist("hist range", np.histogram(x, bins=200, range=(-5, 5)))
    show_hist("hist own range", np.histogram(x, bins=37))
    show_hist("hist default bins", np.histogram(x))
    show_hist("hist weights", np.histogram(x, bins=50, weights=w))
    show_hist("hist weights range", np.histogram(x, 64, (-2.0, 3.5), None, w))
    show_hist("hist one bin", np.histogram(x, bins=1, range=(0, 1)))
    show_hist("hist many bins", np.histogram(x, bins=100_000))
    show_hist("hist 2-D strided", np.histogram(x.reshape(400, 500)[:, ::3], bins=33, range=(-1, 2)))
    show_hist("hist 2-D weights", np.histogram(x.reshape(400, 500).T, bins=29, weights=w.reshape(400, 500).T))
    show_hist("hist pending", np.histogram(x * 2.0 + 1.0, bins=80, range=(-6.0, 6.0)))
    edges = np.linspace(-3.0, 3.0, 121)
    on_edges = np.repeat(edges, 500)
    show_hist("hist on edges", np.histogram(on_edges, bins=120, range=(-3.0, 3.0)))
    show_hist("hist on edges weights", np.histogram(on_edges, bins=120, range=(-3.0, 3.0), weights=np.ones(on_edges.size)))
    odd = x.copy()
    odd[::97] = np.nan
    odd[::101] = np.inf
    odd[::103] = -np.inf
    show_hist("hist NaN and inf outside", np.histogram(odd, bins=40, range=(-4, 4)))
    show_hist("hist range of one value", np.histogram(np.full(30_000, 2.5), bins=10))
    show_hist("hist tiny range", np.histogram(x, bins=7, range=(0.1, 0.1 + 1e-12)))
    show_hist("hist density", np.histogram(x, bins=30, density=True))
    show_hist("hist density False", np.histogram(x, bins=30, density=False))
    show_hist("hist array bins", np.histogram(x, bins=np.array([-1.0, 0.0, 0.5, 3.0])))
    show_hist("hist int values", np.histogram((x * 10).astype(np.int64), bins=20))
    show_hist("hist float32 values", np.histogram(x.astype(np.float32), bins=20))
    heavy = w.copy()
    heavy[::1000] = np.nan
    show_hist("hist NaN weights", np.histogram(x, bins=25, weights=heavy))
    # Each block's sum finite, blocks' sums overflowing where they meet
    # (NumPy's `n += ...` warns), or infinities of both signs in different
    # blocks (invalid), or within a block (bincount's own adds: no warning).
    at_blocks = np.arange(0, n, 65536)
    big = np.ones(n)
    big[at_blocks] = 1.5e308
    centred = x.copy()
    centred[at_blocks] = 0.0
    signs = np.ones(n)
    signs[at_blocks] = np.where(np.arange(at_blocks.size) % 2 == 0, np.inf, -np.inf)
    for name, weights in (("overflow", big), ("inf blocks", signs), ("inf within", np.where(np.arange(n) % 2 == 0, np.inf, -np.inf))):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            show_hist(f"hist weights {name}", np.histogram(centred, bins=5, range=(-1, 1), weights=weights))
        print(name, "warnings", [str(c.message) for c in caught])
    h, e = np.histogram(x - x.mean(), bins=64)
    print("hist then", repr(int(h.max())), repr(float(e[1] - e[0])))


def refused():
    b = np.clip(((x + 5.0) / 0.05).astype(np.int64), 0, 199)
    cases = [
        ("negative", lambda: np.bincount(b - 3)),
        ("float values", lambda: np.bincount(x * 1.0)),
        ("2-D", lambda: np.bincount(b.reshape(1000, 200))),
        ("negative minlength", lambda: np.bincount(b, minlength=-1)),
        ("weights length", lambda: np.bincount(b, weights=w[:10])),
        ("unknown keyword", lambda: np.bincount(b, bins=3)),
        ("x by keyword", lambda: np.bincount(x=b)),
        ("x twice", lambda: np.bincount(b, x=b)),
        ("minlength twice", lambda: np.bincount(b, None, 3, minlength=3)),
        ("hist NaN range", lambda: np.histogram(x * np.nan, bins=10)),
        ("hist bad range", lambda: np.histogram(x, bins=10, range=(2, 1))),
        ("hist infinite range", lambda: np.histogram(x, bins=10, range=(0, np.inf))),
        ("hist zero bins", lambda: np.histogram(x, bins=0)),
        ("hist negative bins", lambda: np.histogram(x, bins=-4)),
        ("hist weights shape", lambda: np.histogram(x, bins=10, weights=w[:5])),
        ("hist unknown keyword", lambda: np.histogram(x, bins=10, normed=True)),
        ("hist a by keyword", lambda: np.histogram(a=x, bins=10)),
        ("hist bins twice", lambda: np.histogram(x, 10, bins=10)),
    ]
    for name, call in cases:
        try:
            r = call()
            show(name, r if not isinstance(r, tuple) else r[0])
        except (ValueError, TypeError) as e:
            print(name, type(e).__name__, e)


counts()
histograms()
refused()
