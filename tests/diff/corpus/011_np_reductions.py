# Reductions with axis and keepdims.
import numpy as np

a = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
print("sum all", int(a.sum()))
for ax in (0, 1, 2, -1, (0, 2), None):
    s = a.sum(axis=ax)
    print(f"sum axis={ax}:", np.shape(s), np.asarray(s).ravel().tolist())
k = a.sum(axis=1, keepdims=True)
print("keepdims", k.shape, k.ravel().tolist())
print("a - mean keepdims", (a - a.mean(axis=2, keepdims=True))[0, 0].tolist())
print("prod", a[:, :, 1:3].prod(axis=2).tolist())
print("min/max", a.min(axis=0)[0].tolist(), a.max(axis=(1, 2)).tolist())
print("argmax flat", int(a.argmax()), "argmin axis 1", a.argmin(axis=1).tolist())
print("cumsum", np.cumsum(a[0, 0]).tolist(), "cumprod", np.cumprod(a[0, 1]).tolist())
print("any/all", bool((a > 22).any()), bool((a >= 0).all()), (a % 2 == 0).all(axis=0).sum())

rng = np.random.default_rng(11)
f = rng.standard_normal((200, 50))
m = f.mean(axis=0)
sd = f.std(axis=0, ddof=1)
print("mean", m.shape, m.dtype, f"{m.sum():.6f}")
print("std", sd.shape, f"{sd.min():.6f} {sd.max():.6f}")
print("var keepdims", f.var(axis=1, keepdims=True).shape)
print("median", f"{np.median(f):.6f}", "ptp", f"{np.ptp(f):.6f}")
print("nansum", f"{np.nansum(np.where(f > 1, np.nan, f)):.6f}")
print("count>1", int(np.count_nonzero(f > 1)), np.count_nonzero(f > 1, axis=0)[:6].tolist())

i8 = np.full(1000, 100, dtype=np.int8)
print("int8 sum dtype", i8.sum().dtype, int(i8.sum()))
print("uint8 mean dtype", np.ones(4, np.uint8).mean().dtype)
print("f32 sum dtype", np.ones(4, np.float32).sum().dtype)
print("bool sum", np.array([True, True, False]).sum(), np.array([True, False]).sum().dtype)
