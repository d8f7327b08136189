# Pairwise product sum via broadcasting (blog seed).
import numpy as np


def pairwise_sum(X, Y):
    return np.sum(X[:, :, None] * Y[:, None, :], axis=(-2, -1))


rng = np.random.default_rng(5)
X = rng.standard_normal((64, 16))
Y = rng.standard_normal((64, 16))
prod = X[:, :, None] * Y[:, None, :]
print("prod", prod.shape, prod.dtype)
out = pairwise_sum(X, Y)
print("out", out.shape, out.dtype)
print("first4", [f"{v:.5f}" for v in out[:4]])
print(f"total {out.sum():.5f}")
ref = X.sum(axis=1) * Y.sum(axis=1)
print("matches factorised:", bool(np.allclose(out, ref)))

# integer version is exact
Xi = rng.integers(-5, 6, size=(64, 16))
Yi = rng.integers(-5, 6, size=(64, 16))
oi = pairwise_sum(Xi, Yi)
print("int", oi.dtype, oi[:8].tolist(), int(oi.sum()))
print("int exact:", bool((oi == Xi.sum(1) * Yi.sum(1)).all()))

# float32 inputs keep float32
o32 = pairwise_sum(X.astype(np.float32), Y.astype(np.float32))
print("f32", o32.dtype, o32.shape, f"{float(o32[0]):.3f}")
