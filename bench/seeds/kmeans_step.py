"""One k-means step from the seeds: the label of the nearest of two means for
every point of two Gaussian blobs.

usage: kmeans_step.py [points_per_blob] [float64|float32]
"""
import sys

import numpy as np

from benchlib import measure


def kmeans(X, means):
    return np.argmin(np.linalg.norm(X - means[:, None], axis=2), axis=0)


def make_inputs(npts, dtype):
    rng = np.random.default_rng(0)
    X = np.repeat(np.array([[5, 5], [10, 10]], dtype=dtype), [npts, npts], axis=0)
    X = X + rng.standard_normal(X.shape).astype(dtype)
    means = np.array([[5, 5], [10, 10]], dtype=dtype)
    return X, means


def main():
    npts = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    dtype = sys.argv[2] if len(sys.argv) > 2 else "float64"
    X, means = make_inputs(npts, dtype)
    essential = X.nbytes + X.shape[0] * np.dtype(np.intp).itemsize  # read X, write labels
    labels = measure(f"kmeans_{np.dtype(dtype).name}", kmeans, lambda: (X, means), essential)
    counts = np.bincount(labels, minlength=2)
    print(f"k-means step on {2 * npts} {dtype} points: cluster sizes {counts.tolist()}", flush=True)


if __name__ == "__main__":
    main()
