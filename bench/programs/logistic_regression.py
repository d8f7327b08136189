"""Logistic regression by full-batch gradient descent: 10 steps over 100,000
samples of 64 features, each the probabilities sigmoid(X @ w) (1 / (1 +
exp(-z))), the log-loss (np.log of the probabilities clipped away from 0 and
1), the gradient X.T @ (p - y) / n and the update of w (float64).

usage: python3 logistic_regression.py [n]   (samples; 100,000 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402

FEATURES = 64
STEPS = 10
LEARNING_RATE = 0.5
EPS = 1e-12


def fit(X, y, w, steps, learning_rate):
    n = X.shape[0]
    losses = np.empty(steps)
    for step in range(steps):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        q = np.clip(p, EPS, 1.0 - EPS)
        losses[step] = -np.mean(y * np.log(q) + (1.0 - y) * np.log(1.0 - q))
        gradient = X.T @ (p - y) / n
        w = w - learning_rate * gradient
    return w, losses


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    rng = np.random.default_rng(1111)
    X = rng.standard_normal((n, FEATURES))
    true_w = rng.standard_normal(FEATURES) / np.sqrt(FEATURES)
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-4.0 * (X @ true_w)))).astype(np.float64)
    w0 = np.zeros(FEATURES)
    # Each step needs the last step's w, and X is larger than the caches:
    # X and y read once a step; w and the losses written once.
    essential = STEPS * (X.nbytes + y.nbytes) + w0.nbytes + STEPS * 8
    w, losses = measure("logistic_regression", fit, lambda: (X, y, w0, STEPS, LEARNING_RATE), essential)
    print("w", w.dtype, w.shape, digest(w))
    print("losses", losses.dtype, losses.shape, digest(losses))
    print("final loss", repr(losses[-1]))


if __name__ == "__main__":
    main()
