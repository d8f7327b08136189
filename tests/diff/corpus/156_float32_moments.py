# np.std / np.var of float32 arrays in region ops: NumPy divides the
# float32 sums by intp counts in float64 and rounds to float32, which the
# float32 quotient equals while float32 holds the count (up to 2**24; larger
# counts run through NumPy). Axes, ddof, keepdims, 0-d results, a
# standardisation, an inf (NumPy's warnings) and counts at the limit.
import warnings

import numpy as np

from corpus_digest import show

warnings.simplefilter("always")
rng = np.random.default_rng(23)


def moments(x):
    return [np.std(x), np.var(x * 1, ddof=1), x.std(axis=0), x.var(axis=-1, keepdims=True),
            np.std(x + 0, axis=None, keepdims=True), (x - x.mean()) / (x.std() + np.float32(1e-6))]


def main():
    for shape in [(50_000,), (300, 70), (40, 30, 20), (3, 1), (1,)]:
        x = (rng.standard_normal(shape, dtype=np.float32) * 7 + 2).astype(np.float32)
        for k, r in enumerate(moments(x)):
            show(f"{shape} {k}", r)
            if np.ndim(r) == 0:
                print("  ", type(r).__name__, repr(r))
    w = rng.standard_normal(5000, dtype=np.float32)
    w[7] = np.inf
    with warnings.catch_warnings(record=True) as caught:
        show("with inf", np.std(w * 1))
    for c in caught:
        print("  warning:", c.category.__name__, str(c.message))
    for n in (1 << 24, (1 << 24) + 1):
        big = rng.random(n, dtype=np.float32) + np.float32(100)
        show(f"count {n}", np.var(big * 1))
        print("  ", repr(np.std(big + 0)))


main()
