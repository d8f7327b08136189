# k-means assignment step, float32 variant.
import numpy as np


def get_labels(X, means):
    return np.argmin(np.linalg.norm(X - means[:, None], axis=2), axis=0)


rng = np.random.default_rng(1234)
n = 8_000
X = np.concatenate([
    rng.normal(loc=5.0, scale=1.0, size=(n, 2)),
    rng.normal(loc=10.0, scale=1.0, size=(n, 2)),
]).astype(np.float32)
means = np.array([[5.0, 5.0], [10.0, 10.0]], dtype=np.float32)
print("X", X.shape, X.dtype, "means", means.shape, means.dtype)

diff = X - means[:, None]
print("diff", diff.shape, diff.dtype)
dist = np.linalg.norm(diff, axis=2)
print("dist", dist.shape, dist.dtype)
labels = np.argmin(dist, axis=0)
print("labels", labels.shape, labels.dtype)
print("bincount", np.bincount(labels).tolist())
assert (labels == get_labels(X, means)).all()

# mixed precision: float32 data with float64 means promotes
labels64 = get_labels(X, means.astype(np.float64))
print("mixed dtype", (X - means.astype(np.float64)[:, None]).dtype)
print("bincount64", np.bincount(labels64).tolist())
print("mean dist (f32)", f"{float(dist.min(axis=0).mean()):.4f}")
