"""k-means run to convergence: assignment and update steps over 2 million
2-D points in three blobs, until no label changes."""
import sys

import numpy as np

from benchlib import measure


def kmeans(X, means, max_iterations=100):
    labels = np.full(X.shape[0], -1)
    for iteration in range(1, max_iterations + 1):
        new_labels = np.argmin(np.linalg.norm(X - means[:, None], axis=2), axis=0)
        if np.array_equal(new_labels, labels):
            return labels, means, iteration
        labels = new_labels
        means = np.array([X[labels == k].mean(axis=0) for k in range(means.shape[0])])
    return labels, means, max_iterations


def main():
    npts = int(sys.argv[1]) if len(sys.argv) > 1 else 700_000
    rng = np.random.default_rng(6)
    centres = np.array([[0.0, 0.0], [6.0, 1.0], [2.0, 7.0]])
    X = np.concatenate([c + rng.standard_normal((npts, 2)) * 1.5 for c in centres])
    start = np.array([[1.0, 1.0], [4.0, 4.0], [3.0, 3.0]])
    # per iteration: read X for the distances and for the means, write labels
    per_iteration = 2 * X.nbytes + X.shape[0] * 8
    labels, means, iterations = measure("kmeans_loop", kmeans, lambda: (X, start),
                                        lambda result: result[2] * per_iteration, calls=2)
    print(iterations, np.bincount(labels).tolist(), np.round(means, 4).tolist())


if __name__ == "__main__":
    main()
