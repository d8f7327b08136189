"""Nearest neighbours by brute force: the squared distances from 2,048 query
points to 2,048 reference points in 8 dimensions by broadcasting
(((Q[:, None, :] - R[None, :, :]) ** 2).sum(-1)), 128 queries at a time, and
each query's nearest reference (argmin over the references) and its squared
distance (float64).

usage: python3 knn_distances.py [queries]   (query points; 2,048 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402

REFERENCES = 2048
DIMENSIONS = 8
CHUNK = 128


def nearest(Q, R, chunk):
    index = np.empty(Q.shape[0], dtype=np.int64)
    distance = np.empty(Q.shape[0])
    for start in range(0, Q.shape[0], chunk):
        q = Q[start:start + chunk]
        d2 = ((q[:, None, :] - R[None, :, :]) ** 2).sum(-1)
        j = d2.argmin(axis=1)
        index[start:start + chunk] = j
        distance[start:start + chunk] = d2[np.arange(len(q)), j]
    return index, distance


def main():
    nq = int(sys.argv[1]) if len(sys.argv) > 1 else 2048
    rng = np.random.default_rng(1010)
    R = rng.uniform(0.0, 1.0, (REFERENCES, DIMENSIONS))
    Q = rng.uniform(0.0, 1.0, (nq, DIMENSIONS))
    # Q and R read once; the indices and distances written once.
    essential = Q.nbytes + R.nbytes + nq * (8 + 8)
    index, distance = measure("knn_distances", nearest, lambda: (Q, R, CHUNK), essential)
    print("index", index.dtype, index.shape, digest(index))
    print("distance", distance.dtype, distance.shape, digest(distance))


if __name__ == "__main__":
    main()
