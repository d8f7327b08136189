"""A signal rescaled by statistics of its own: arithmetic on the results of
reductions (the mean, the standard deviation, the range and midpoint, each
a NumPy scalar) between element-wise passes over the signal; float64,
N elements (first argument)."""
import sys

import numpy as np

from benchlib import measure


def rescale(x):
    lo, hi = x.min(), x.max()
    z = (x - x.mean()) / (x.std() + 1e-9)
    return z * ((hi - lo) * 0.5) + (hi + lo) * 0.5


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
    x = np.random.default_rng(5).standard_normal(n) * 3 + 1
    # Read once and written once: the least any schedule moves.
    result = measure(f"scalar_statistics_{n}", rescale, lambda: (x,), 2 * x.nbytes, calls=20)
    print(result.dtype, result.shape, float(result[::97].sum()).hex())


if __name__ == "__main__":
    main()
