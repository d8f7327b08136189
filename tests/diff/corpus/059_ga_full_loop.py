# Small genetic algorithm loop: selection, crossover, mutation (seeded, integer genome).
import numpy as np


def fitness(population, target):
    return -np.abs(population - target).sum(axis=1)


def select(population, fit, k, rng):
    idx = rng.integers(0, len(population), size=(len(population), k))
    winners = idx[np.arange(len(idx)), np.argmax(fit[idx], axis=1)]
    return population[winners]


def crossover(parents, rng):
    n, g = parents.shape
    cut = rng.integers(1, g, size=n // 2)
    mask = np.arange(g)[None, :] < cut[:, None]
    a, b = parents[0::2], parents[1::2]
    return np.concatenate([np.where(mask, a, b), np.where(mask, b, a)])


def mutate(population, rate, rng):
    hit = rng.random(population.shape) < rate
    delta = rng.integers(-3, 4, size=population.shape, dtype=population.dtype)
    return np.where(hit, population + delta, population)


rng = np.random.default_rng(123)
genes = 40
target = rng.integers(0, 20, size=genes, dtype=np.int32)
population = rng.integers(0, 20, size=(200, genes), dtype=np.int32)
print("population", population.shape, population.dtype, "target sum", int(target.sum()))
for gen in range(30):
    fit = fitness(population, target)
    if gen % 5 == 0:
        print(f"gen {gen:2d}: best {int(fit.max()):5d} total {int(fit.sum()):7d} worst {int(fit.min())}")
    parents = select(population, fit, 3, rng)
    children = crossover(parents, rng)
    population = mutate(children, 0.02, rng)
fit = fitness(population, target)
best = population[np.argmax(fit)]
print("final best", int(fit.max()), "dtype", fit.dtype, population.dtype)
print("exact genes", int((best == target).sum()), "of", genes)
