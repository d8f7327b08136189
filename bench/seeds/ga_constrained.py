"""GA fitness from the seeds: a polynomial to minimise under five
constraints, over 900,000 candidate solutions (x, y, z)."""
import sys

import numpy as np

from benchlib import measure


def function_to_optimize(solutions):
    x = solutions[:, 0]
    y = solutions[:, 1]
    z = solutions[:, 2]
    return x**2 + 2*y**2 + 3*z**2 + 4*x*y - 5*y*z


def check_constraints(solutions):
    x = solutions[:, 0]
    y = solutions[:, 1]
    z = solutions[:, 2]
    return (x >= 1) & (y > 3) & (y <= 7) & (z < 0) & ((x + y + z) >= 3) & ((x**2 + z**2) <= 10)


def fitness_function_numpy(solutions):
    valid = check_constraints(solutions)
    return np.where(valid, -function_to_optimize(solutions), np.inf)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 900_000
    population = np.random.default_rng(2).uniform(-25, 25, size=(n, 3))
    essential = population.nbytes + n * 8
    fitness = measure("ga_constrained", fitness_function_numpy, lambda: (population,), essential)
    finite = np.isfinite(fitness)
    print(fitness.dtype, int(finite.sum()), f"{float(fitness[finite].min()):.6f}")


if __name__ == "__main__":
    main()
