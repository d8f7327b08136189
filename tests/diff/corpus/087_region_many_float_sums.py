# More float sums than one fused loop keeps in NumPy's order (eleven rows
# sums over the same array, one region): each must still equal NumPy's.
import numpy as np

a = np.linspace(0, 1, 200000).reshape(100, 2000)


def many(a):
    return [a.sum(axis=1), (a + 1).sum(axis=1), (a + 2).sum(axis=1), (a + 3).sum(axis=1),
            (a + 4).sum(axis=1), (a + 5).mean(axis=1), (a + 6).sum(axis=1), (a + 7).sum(axis=1),
            (a + 8).sum(axis=1), (a + 9).mean(axis=1), (a * 10).sum(axis=1)]


for row in many(a):
    print(row[:3].tolist(), float(row.sum()))
