"""The seeds' k-means step in other forms: any number of coordinates and of
means, and the three ways programs spell the labels. The points number
about 2^24 / (means * coordinates), so that NumPy's temporaries stay near
128 MB whatever the shape.

usage: kmeans_labels.py coordinates means norm|sum|sqrt [float64|float32]
"""
import sys

import numpy as np

from benchlib import measure

SPELLINGS = {
    "norm": lambda X, m: np.argmin(np.linalg.norm(X - m[:, None], axis=2), axis=0),
    "sum": lambda X, m: np.argmin(((X[:, None] - m[None]) ** 2).sum(2), 1),
    "sqrt": lambda X, m: np.sqrt(((X - m[:, None]) ** 2).sum(2)).argmin(0),
}


def main():
    coordinates, means, spelling = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    dtype = sys.argv[4] if len(sys.argv) > 4 else "float64"
    points = max(4096, (1 << 24) // (means * coordinates))
    rng = np.random.default_rng(0)
    centres = rng.standard_normal((means, coordinates)).astype(dtype) * 4
    X = centres[rng.integers(0, means, points)] + rng.standard_normal((points, coordinates)).astype(dtype)
    m = centres + rng.standard_normal(centres.shape).astype(dtype) * 0.5
    essential = X.nbytes + m.nbytes + points * np.dtype(np.intp).itemsize
    labels = measure(f"kmeans_{spelling}_{coordinates}x{means}", SPELLINGS[spelling], lambda: (X, m), essential)
    print(f"{points} points, {coordinates} coordinates, {means} means ({spelling}): "
          f"cluster sizes {np.bincount(labels, minlength=means).tolist()}", flush=True)


if __name__ == "__main__":
    main()
