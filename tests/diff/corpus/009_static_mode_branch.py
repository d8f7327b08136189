# if/else on a static mode string choosing a NumPy expression.
import numpy as np


def transform(x, mode="sin"):
    if mode == "sin":
        return np.sin(x) * 2.0
    else:
        return np.cos(x) + 1.0


def normalize(x, mode):
    if mode == "minmax":
        return (x - x.min()) / (x.max() - x.min())
    elif mode == "zscore":
        return (x - x.mean()) / x.std()
    raise ValueError(f"unknown mode {mode!r}")


x = np.linspace(0, np.pi, 7)
for mode in ("sin", "cos", "sin"):
    r = transform(x, mode)
    print(mode, r.dtype, r.shape, [f"{v:.4f}" for v in r])
print("default:", [f"{v:.4f}" for v in transform(x[:3])])
print("f32:", transform(x.astype(np.float32), "cos").dtype)

data = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
for mode in ("minmax", "zscore"):
    print(mode, [f"{v:.4f}" for v in normalize(data, mode)])
try:
    normalize(data, "bogus")
except ValueError as e:
    print("ValueError:", e)
