"""Softmax cross-entropy of a classifier's logits: the row maximum, exp, the
row sums, log and the mean of the labels' log-probabilities, over 100,000
rows of 100 classes (float64 or float32)."""
import sys

import numpy as np

from benchlib import measure


def cross_entropy(logits, labels):
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return -log_probs[np.arange(len(labels)), labels].mean()


def main():
    dtype = np.dtype(sys.argv[1] if len(sys.argv) > 1 else "float64")
    rng = np.random.default_rng(5)
    logits = (4 * rng.standard_normal((100_000, 100))).astype(dtype)
    labels = rng.integers(0, 100, size=100_000)
    essential = logits.nbytes + labels.nbytes
    loss = measure(f"softmax_xent_{dtype.name}", cross_entropy, lambda: (logits, labels), essential)
    print(loss.dtype, f"{float(loss):.5f}")


if __name__ == "__main__":
    main()
