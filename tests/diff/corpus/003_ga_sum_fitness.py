# Genetic algorithm: sum fitness on an int8 population.
import numpy as np


def fitness(population):
    return np.sum(population, axis=1)


rng = np.random.default_rng(7)
population = rng.integers(1, 25, size=(1000, 100), dtype=np.int8)
print("population", population.shape, population.dtype)
print("pop min/max", int(population.min()), int(population.max()))

fit = fitness(population)
print("fitness", fit.shape, fit.dtype)
print("sum", int(fit.sum()), "min", int(fit.min()), "max", int(fit.max()))
print("argmax", int(np.argmax(fit)), "argmin", int(np.argmin(fit)))

# selection of the best 10 (stable sort -> deterministic ties)
order = np.argsort(-fit, kind="stable")[:10]
print("best10", order.tolist())
print("best10 fit", fit[order].tolist())

# keepdims / int8-preserving sum
fit8 = np.sum(population, axis=1, dtype=np.int8)
print("int8-accum", fit8.dtype, fit8[:8].tolist())
print("column sums", np.sum(population, axis=0)[:5].tolist())
