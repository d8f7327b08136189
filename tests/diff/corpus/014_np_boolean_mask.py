# Boolean mask indexing and assignment.
import numpy as np

rng = np.random.default_rng(21)
a = rng.integers(-50, 50, size=30)
print("a", a.tolist())
mask = a < 0
print("mask", mask.dtype, int(mask.sum()))
print("negatives", a[mask].tolist())
b = a.copy()
b[mask] = 0
print("clamped", b.tolist())
b[(b > 10) & (b % 2 == 0)] += 1000
print("even>10 bumped", b.tolist())
b[~(b > 0)] = -7
print("non-positive", b.tolist())

m = np.arange(20).reshape(4, 5)
print("m[m % 3 == 0]", m[m % 3 == 0].tolist())
rows = m.sum(axis=1) > 30
print("row mask", rows.tolist(), m[rows].shape)
m[m > 15] = np.array([-1, -2, -3, -4])
print("assign array", m.tolist())
cols = np.array([True, False, True, False, True])
print("col mask", m[:, cols].tolist())

f = rng.standard_normal(10_000)
f[np.abs(f) > 2] = np.nan
print("nan count", int(np.isnan(f).sum()))
print(f"nanmean {np.nanmean(f):.6f}")
f[np.isnan(f)] = 0.0
print("nonzero", int(np.count_nonzero(f)), "where idx", np.where(f == 0.0)[0][:5].tolist())
print("nonzero 2d", [t.tolist() for t in np.nonzero(np.eye(3, dtype=bool))])
print("putmask-like", np.where(np.arange(6) % 2 == 0, np.arange(6), -np.arange(6)).tolist())
