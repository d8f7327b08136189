"""GA fitness from the seeds: sin(x) + x^2 - 2cos(y) + y^2 + z^2 under five
constraints, over 900,000 candidate solutions."""
import math
import sys

import numpy as np

from benchlib import measure


def fitness(solutions):
    x = solutions[:, 0]
    y = solutions[:, 1]
    z = solutions[:, 2]
    f = np.sin(x) + x**2 - 2*np.cos(y) + y**2 + z**2
    valid = (x >= 0) & (y >= 0) & (y <= math.pi) & (z <= 5) & ((x + z) >= 1) & ((np.cos(y) + z) >= 0.5)
    return np.where(valid, -f, np.inf)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 900_000
    population = np.random.default_rng(2).uniform(-25, 25, size=(n, 3))
    essential = population.nbytes + n * 8
    result = measure("ga_trig", fitness, lambda: (population,), essential)
    finite = np.isfinite(result)
    print(result.dtype, int(finite.sum()), f"{float(result[finite].min()):.6f}")


if __name__ == "__main__":
    main()
