# Float sums in every layout the CPU driver walks differently, each printed
# exactly: short last axes (one leaf of NumPy's pairwise sum, many sums per
# kernel run), several whole rows per kernel call (the pairwise-product
# seed), leaf trees of two and four equal leaves, uneven trees, rows that
# are not whole vectors, and float32.
import numpy as np

rng = np.random.default_rng(100)


def exact(label, value):
    value = np.asarray(value)
    print(label, value.dtype, value.shape, value.ravel()[:4].tolist(), value.ravel()[-2:].tolist(),
          float(np.sum(value, dtype=np.float64)))


def pairwise_products(X, Y):
    return np.sum(X[:, :, None] * Y[:, None, :], axis=(-2, -1))


def main():
    for dtype in (np.float64, np.float32):
        name = np.dtype(dtype).name
        X = rng.standard_normal((96, 64)).astype(dtype)
        Y = rng.standard_normal((96, 64)).astype(dtype)
        exact(f"{name} pairwise products", pairwise_products(X, Y))
        exact(f"{name} pairwise products, 40 wide", pairwise_products(X[:, :40], Y[:, :40]))
        P = rng.standard_normal((5000, 3)).astype(dtype)
        exact(f"{name} rows of 3", np.sum(P * P, axis=1))
        exact(f"{name} rows of 3, mean", (P + 1).mean(axis=1))
        exact(f"{name} rows of 1", np.sum(P[:, :1] * 2, axis=1))
        Q = rng.standard_normal((700, 20)).astype(dtype)
        exact(f"{name} rows of 20", (Q * Q).sum(axis=-1))
        exact(f"{name} rows of 20, strided", (Q[::2, ::3] - 1).sum(axis=1))
        R = rng.standard_normal((6, 8, 1000)).astype(dtype)
        exact(f"{name} blocks of 8000", (R * 3).sum(axis=(1, 2)))
        exact(f"{name} blocks of 1000 rows, last axis", (R - 0.5).sum(axis=2))
        S = rng.standard_normal((3, 37, 41)).astype(dtype)
        exact(f"{name} uneven tree", (S * S).sum(axis=(1, 2)))
        T = rng.standard_normal((2, 512, 8)).astype(dtype)
        exact(f"{name} four leaves", (T + T).sum(axis=(1, 2)))
        exact(f"{name} whole array", np.sum(R * R))
        exact(f"{name} negative zeros", np.sum(np.full((4000, 2), -0.0, dtype=dtype) * 1, axis=1))


main()
