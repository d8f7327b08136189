"""The forward pass of a small multi-layer perceptron and its loss: a batch
of 784-feature inputs through three dense layers (784 -> 512 -> 256 -> 10,
ReLU after the first two), a softmax over each row (exp of the scores less
the row maximum, over the row sum), and the mean cross-entropy of the
softmax against integer class labels (float64).

usage: python3 mlp_forward.py [batch]   (rows in the batch; 4096 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402

LAYERS = (784, 512, 256, 10)


def forward(x, W1, b1, W2, b2, W3, b3, labels):
    h1 = np.maximum(x @ W1 + b1, 0.0)
    h2 = np.maximum(h1 @ W2 + b2, 0.0)
    scores = h2 @ W3 + b3
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    n = x.shape[0]
    loss = -np.mean(np.log(p[np.arange(n), labels]))
    return p, loss


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    rng = np.random.default_rng(101)
    x = rng.standard_normal((n, LAYERS[0]))
    params = []
    for fan_in, fan_out in zip(LAYERS, LAYERS[1:]):
        params.append(rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in))  # He initialisation
        params.append(0.01 * rng.standard_normal(fan_out))
    labels = rng.integers(0, LAYERS[-1], size=n)
    # The inputs, weights, biases and labels read once; the probabilities
    # written once (the loss is one number).
    essential = x.nbytes + sum(a.nbytes for a in params) + labels.nbytes + n * LAYERS[-1] * 8
    p, loss = measure("mlp_forward", forward, lambda: (x, *params, labels), essential)
    print("probabilities", p.dtype, p.shape, digest(p))
    print("loss", repr(loss))


if __name__ == "__main__":
    main()
