# np.linalg.norm along an axis other than the last (column norms, the
# middle axis of 3-D data), which NumPy computes as sqrt(add.reduce(x * x,
# axis)): float64 and float32, keepdims, transposed and stepped operands,
# normalising by the norms, NaN and infinity, and squares that overflow
# (NumPy's warning; FloatingPointError under errstate(over='raise'),
# caught around the line).
import warnings

import numpy as np

from corpus_digest import show

rng = np.random.default_rng(163)


def norms(X, Z):
    show("columns", np.linalg.norm(X - 1, axis=0))
    show("columns float32", np.linalg.norm(X.astype(np.float32) * 2, axis=0))
    show("keepdims", np.linalg.norm(X * 2, axis=0, keepdims=True))
    show("3-D middle", np.linalg.norm(Z * 3, axis=1))
    show("3-D first", np.linalg.norm(Z * 3, axis=0))
    show("3-D middle keepdims", np.linalg.norm(Z * 3, axis=-2, keepdims=True))
    show("transposed", np.linalg.norm(X.T * 2, axis=0))
    show("stepped", np.linalg.norm(X[:, ::3] + 1, axis=0))
    show("normalised", (X - 1) / np.linalg.norm(X - 1, axis=0))


def main():
    X = rng.standard_normal((3000, 300))
    Z = rng.standard_normal((20, 30, 40))
    norms(X, Z)
    X[5, 7] = np.nan
    X[9, 8] = np.inf
    X[11, 9] = -np.inf
    norms(X, Z)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        show("overflowing squares", np.linalg.norm(X * 1e200, axis=0))
    print([str(w.message) for w in caught])
    try:
        with np.errstate(over="raise"):
            r = np.linalg.norm(X * 1e200, axis=0)
        print("no error", r[:2])
    except FloatingPointError as e:
        print("FloatingPointError", e)


main()
