# A reduction over one axis of a sum or norm over the last axis, with
# element-wise work between them: k-means' labels in its usual spellings,
# for any number of coordinates (NumPy adds 8 or more pairwise, more than
# 128 in a tree of blocks) and of means, float32 and float64, NaN and inf
# among the points, and magnitudes for which the order of the adds decides
# the labels.
import numpy as np

from corpus_digest import show


def spellings(X, m):
    return {
        "norm argmin axis 0": np.argmin(np.linalg.norm(X - m[:, None], axis=2), axis=0),
        "sum argmin axis 1": np.argmin(((X[:, None] - m[None]) ** 2).sum(2), 1),
        "sqrt argmax axis 0": np.sqrt(((X - m[:, None]) ** 2).sum(2)).argmax(0),
        "abs sum scaled argmin axis 1": (np.abs(X[:, None] - m[None]).sum(axis=2) / 3.0).argmin(axis=1),
        "signed sum negated argmax": np.argmax(-(((X - m[:, None]) * 0.5).sum(2) + 1.0), axis=0),
    }


rng = np.random.default_rng(144)
for dtype in (np.float64, np.float32):
    for coordinates in (1, 2, 3, 7, 8, 9, 16, 64, 128, 129, 300):
        for means in (1, 3, 8):
            points = 2053 if coordinates < 128 else 611
            X = (rng.choice([1e8, 1.0, 1e-8, 3.0], size=(points, coordinates))
                 * rng.standard_normal((points, coordinates))).astype(dtype)
            m = (rng.choice([1e8, 1.0, 1e-8], size=(means, coordinates))
                 * rng.standard_normal((means, coordinates))).astype(dtype)
            if coordinates > 3:
                X[5, 3] = np.nan
                X[7] = np.inf
            for name, labels in spellings(X, m).items():
                show(f"{dtype.__name__} {coordinates}x{means} {name}", labels)

# Points that are a column slice of a wider array, and ties everywhere.
X = np.round(rng.standard_normal((3001, 12)) * 2)[:, 1:11]
m = np.round(rng.standard_normal((5, 10)) * 2)
for name, labels in spellings(X, m).items():
    show("slice " + name, labels)
# A conversion in the loop, and a difference multiplied by itself.
Xf = rng.standard_normal((4099, 9)).astype(np.float32)
mf = rng.standard_normal((4, 9))
show("astype norm", np.argmin(np.linalg.norm(Xf.astype(np.float64) - mf[:, None], axis=2), axis=0))
d = Xf - mf[:, None]
show("d * d sum", np.argmin((d * d).sum(axis=2), axis=0))
# Fewer points than a kernel step, and none.
for points in (3, 0):
    for name, labels in spellings(X[:points], m).items():
        show(f"{points} points " + name, labels)
