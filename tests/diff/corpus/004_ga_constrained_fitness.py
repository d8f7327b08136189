# Genetic algorithm: constrained polynomial fitness with np.where.
import numpy as np


def function_to_optimize(x, y, z):
    return x**2 + 2 * y**2 + 3 * z**2 + 4 * x * y - 5 * y * z


def check_constraints(x, y, z):
    return (
        (x >= 1)
        & (3 < y) & (y <= 7)
        & (z < 0)
        & ((x + y + z) >= 3)
        & ((x**2 + z**2) <= 10)
    )


def fitness(solutions):
    x = solutions[:, 0]
    y = solutions[:, 1]
    z = solutions[:, 2]
    f = function_to_optimize(x, y, z)
    valid = check_constraints(x, y, z)
    return np.where(valid, -f, np.inf)


rng = np.random.default_rng(2024)
for lo, hi, n in [(-25, 25, 100_000), (-4, 8, 50_000)]:
    solutions = rng.uniform(lo, hi, size=(n, 3))
    fit = fitness(solutions)
    finite = np.isfinite(fit)
    print(f"range [{lo},{hi}) n={n}: fit {fit.shape} {fit.dtype}")
    print("  finite count:", int(finite.sum()))
    if finite.any():
        best = int(np.argmin(fit))
        print(f"  min: {fit.min():.4f} at {best}")
        print("  best solution:", [f"{v:.4f}" for v in solutions[best]])
    else:
        print("  no valid solutions")

edge = np.array([[1.0, 7.0, -1.0], [1.0, 3.0, -1.0], [3.0, 4.0, -1.0], [0.5, 5, -1]])
print("edge valid:", check_constraints(edge[:, 0], edge[:, 1], edge[:, 2]).tolist())
print("edge fitness:", [f"{v:.3f}" for v in fitness(edge)])
