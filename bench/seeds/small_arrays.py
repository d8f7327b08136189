"""Per-operation overhead, where lazy tracers have failed before: 10^5
iterations of about ten ufunc and reduction calls on small arrays.

usage: small_arrays.py [elements] [iterations]
"""
import sys

import numpy as np

from benchlib import measure


def step_many(x, y, iterations):
    total = 0.0
    for _ in range(iterations):
        z = np.sqrt(x * x + y * y)
        w = np.maximum(z - 0.5, 0.0) * 2.0
        s = w.sum() + np.abs(x - y).max()
        total += float(s) / (1.0 + float(np.mean(z)))
    return total


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    rng = np.random.default_rng(3)
    x = rng.standard_normal(n)
    y = rng.standard_normal(n)
    # Ten calls per iteration, each reading or writing n doubles.
    essential = iterations * 10 * 2 * x.nbytes
    total = measure(f"small_arrays_{n}", step_many, lambda: (x, y, iterations), essential, calls=2)
    print(f"small arrays of {n}: {total:.6f}")


if __name__ == "__main__":
    main()
