# Data-dependent Python branch on a NumPy reduction.
import numpy as np


def f(x, y):
    if x.sum() > 0:
        x = x + y
    return x


def g(x, y):
    # branch count and loop driven by data
    steps = 0
    while x.max() > 1.0:
        x = x / 2 + y
        steps += 1
    return x, steps


y = np.arange(5, dtype=np.float64)
pos = np.linspace(0.5, 2.5, 5)
neg = -pos
print("pos ->", [f"{v:.3f}" for v in f(pos, y)])
print("neg ->", [f"{v:.3f}" for v in f(neg, y)])
print("zero ->", f(np.zeros(5), y).tolist())
print("int pos ->", f(np.array([1, 2, 3]), np.array([10, 20, 30])).tolist())
print("int neg ->", f(np.array([-1, -2, 1]), np.array([10, 20, 30])).tolist())

# result dtype depends on branch taken
print(f(np.array([1, 2], dtype=np.int32), np.array([0.5, 0.5])).dtype)
print(f(np.array([-1, -2], dtype=np.int32), np.array([0.5, 0.5])).dtype)

rng = np.random.default_rng(3)
for trial in range(4):
    x = rng.standard_normal(1000)
    r = f(x, np.ones(1000))
    print(f"trial {trial}: sum>0={bool(x.sum() > 0)} out_sum={r.sum():.4f}")

res, steps = g(np.array([64.0, 3.0]), np.array([0.1, 0.2]))
print("g steps", steps, [f"{v:.4f}" for v in res])
