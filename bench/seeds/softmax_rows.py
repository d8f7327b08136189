"""Softmax over the rows of a matrix of scores: the row maximum, exp of the
shifted scores, the row sums and the division, over 20,000 rows of 1,000
columns (float64 or float32)."""
import sys

import numpy as np

from benchlib import measure


def softmax(scores):
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main():
    dtype = np.dtype(sys.argv[1] if len(sys.argv) > 1 else "float64")
    rng = np.random.default_rng(7)
    scores = (4 * rng.standard_normal((20_000, 1_000))).astype(dtype)
    # Read once and written once: the least any schedule moves.
    essential = 2 * scores.nbytes
    probabilities = measure(f"softmax_rows_{dtype.name}", softmax, lambda: (scores,), essential)
    print(probabilities.dtype, probabilities.shape, float(probabilities[::997, ::13].sum(dtype=np.float64)).hex())


if __name__ == "__main__":
    main()
