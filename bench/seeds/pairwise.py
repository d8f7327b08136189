"""From the seeds: the sum over all pairs of the products of two rows'
elements, for two 1024 x 64 float64 matrices."""
import numpy as np

from benchlib import measure


def numpy_fn(X, Y):
    return np.sum(X[:, :, None] * Y[:, None, :], axis=(-2, -1))


def main():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((1024, 64))
    Y = rng.standard_normal((1024, 64))
    essential = X.nbytes + Y.nbytes + X.shape[0] * 8
    result = measure("pairwise_1024x64", numpy_fn, lambda: (X, Y), essential, calls=5)
    print(result.dtype, result.shape, f"{float(result.sum()):.6f}")


if __name__ == "__main__":
    main()
