# k-means assignment step (torch.compile NumPy blog seed), float64.
import numpy as np


def get_labels(X, means):
    return np.argmin(np.linalg.norm(X - means[:, None], axis=2), axis=0)


def update_means(X, labels, k):
    return np.stack([X[labels == i].mean(axis=0) for i in range(k)])


rng = np.random.default_rng(0)
n = 10_000
blob_a = rng.normal(loc=5.0, scale=1.0, size=(n, 2))
blob_b = rng.normal(loc=10.0, scale=1.0, size=(n, 2))
X = np.concatenate([blob_a, blob_b])
print("X", X.shape, X.dtype)

means = np.array([[4.0, 6.0], [11.0, 9.0]])
for step in range(3):
    labels = get_labels(X, means)
    counts = np.bincount(labels, minlength=2)
    print(f"step {step}: labels {labels.shape} {labels.dtype} counts {counts.tolist()}")
    means = update_means(X, labels, 2)
    print("  means", [f"{v:.4f}" for v in means.ravel()])

# how many of each blob ended in "its" cluster
print("blob a -> cluster 0:", int((labels[:n] == 0).sum()))
print("blob b -> cluster 1:", int((labels[n:] == 1).sum()))
