"""GA fitness from the seeds: the sum of each chromosome's genes, for a
population of 900,000 chromosomes of 1,000 int8 genes."""
import sys

import numpy as np

from benchlib import measure


def fitness_fn_numpy_better(population):
    return np.sum(population, axis=1)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 900_000
    population = np.random.default_rng(1).integers(1, 25, size=(n, 1000), dtype=np.int8)
    essential = population.nbytes + n * 8
    fitness = measure("ga_sum_int8", fitness_fn_numpy_better, lambda: (population,), essential)
    print(fitness.dtype, fitness.shape, int(fitness.sum()), int(fitness.min()), int(fitness.max()))


if __name__ == "__main__":
    main()
