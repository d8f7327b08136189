# Genetic algorithm: trigonometric fitness with constraints.
import math

import numpy as np


def fitness(solutions):
    x, y, z = solutions[:, 0], solutions[:, 1], solutions[:, 2]
    f = np.sin(x) + x**2 - 2 * np.cos(y) + y**2 + z**2
    valid = (
        (x >= 0) & (y >= 0) & (y <= math.pi) & (z <= 5)
        & ((x + z) >= 1) & ((np.cos(y) + z) >= 0.5)
    )
    return np.where(valid, -f, np.inf)


rng = np.random.default_rng(99)
solutions = rng.uniform(-10, 10, size=(60_000, 3))
fit = fitness(solutions)
print("fit", fit.shape, fit.dtype)
finite = np.isfinite(fit)
print("finite count:", int(finite.sum()))
print(f"min: {fit.min():.5f}")
print(f"max finite: {fit[finite].max():.5f}")
print("argmin:", int(np.argmin(fit)))

# a tiny hand-made batch with known validity
small = np.array([
    [1.0, 1.0, 1.0],
    [0.0, 0.0, 0.0],
    [2.0, math.pi, 4.0],
    [2.0, 3.2, 4.0],
    [0.5, 0.5, 6.0],
])
res = fitness(small)
print("small:", ["inf" if np.isinf(v) else f"{v:.6f}" for v in res])
print("float32 input dtype:", fitness(small.astype(np.float32)).dtype)
