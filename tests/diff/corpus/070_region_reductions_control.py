"""Reductions of recorded values feeding further recorded operations
(x - x.mean(), normalisation by a norm, z-scores along an axis) and used as
conditions of `if` and `while`, in comparisons chained with `and`/`or`, and
converted with float()/int()/bool()."""
import numpy as np


def centred(x):
    y = x - x.mean()
    return y / y.std()


def zscore_rows(m):
    mu = m.mean(axis=1, keepdims=True)
    sd = m.std(axis=1, keepdims=True)
    return (m - mu) / sd


def normalise_cols(m):
    return m / np.linalg.norm(m, axis=0)


def softmax(m):
    e = np.exp(m - m.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def summary(label, a):
    print(label, a.dtype, a.shape, repr(a.sum()), repr(a.ravel()[:3]))


# The top level is recorded too.
x = (np.arange(50_000) % 331) * 0.0173 - 1.5
m = (np.arange(300 * 200) % 53 * 0.25).reshape(300, 200) - 5


def features():
    summary("centred", centred(x))
    summary("zscore", zscore_rows(m))
    summary("normalise", normalise_cols(m + 6))
    summary("softmax", softmax(m / 10))
    summary("mean of centred", np.abs(centred(x)).mean(keepdims=True))
    f32 = m.astype(np.float32)
    c = f32 - f32.mean(axis=0)
    print("f32 centred", c.dtype, repr(c.mean(axis=0)[:3]), type(c.mean()).__name__)
    d = f32 - f32.mean()
    print("f32 minus scalar mean", d.dtype, repr(d[0, :3]))


features()


def branches(v):
    w = v * 2 - 1
    if w.mean() > 0:
        print("mean positive", repr(w.mean()))
    else:
        print("mean not positive", repr(w.mean()))
    if w.max() > 6 and w.min() < -6:
        print("wide range", repr(w.max() - w.min()))
    elif w.max() > 6 or w.min() < -6:
        print("one-sided range")
    if (w > 100).any():
        print("some huge")
    if not (w > 100).any():
        print("none huge", repr((w > 100).sum()))
    if np.all(np.isfinite(w)):
        print("all finite")
    count = int((w > 0).sum())
    frac = float((w > 0).mean())
    flag = bool(w.argmax() > w.argmin())
    print("count", count, "frac", repr(frac), "flag", flag)
    return w.sum()


print("branches ->", repr(branches(x)))
print("branches ->", repr(branches(-x)))


def iterate(v):
    step = 0
    y = v.copy()
    while np.abs(y).max() > 1.0:
        y = y * 0.5
        step += 1
    print("halved", step, "times; max", repr(np.abs(y).max()))
    total = 0.0
    z = v
    while z.sum() > 1000:
        z = z - 0.25
        total += 0.25
    print("shifted by", total, repr(z.sum()))
    n = 0
    while (v * n).mean() < 10:
        n += 1
    print("n", n)
    return y


iterate(x)


def power_iteration(a, iters):
    v = np.ones(a.shape[1]) / np.sqrt(a.shape[1])
    lam = 0.0
    for i in range(iters):
        w = a.T @ (a @ v)
        lam_new = np.linalg.norm(w)
        v = w / lam_new
        if abs(lam_new - lam) < 1e-9 * lam_new:
            print("converged at", i)
            break
        lam = lam_new
    return lam_new, v


lam, v = power_iteration(m, 200)
print("power iteration", repr(lam), repr(v[:3]))


def running_stats():
    acc = np.zeros(200)
    best = None
    for i in range(6):
        row = m[i * 40] * (i + 1) - i
        acc = acc + row
        s = row.sum()
        if best is None or s > best:
            best = s
        print("row", i, repr(s), repr(acc.mean()), type(s).__name__)
    print("best", repr(best))
    scalar = np.float32(0.5) * m.astype(np.float32).sum()
    print("scalar", type(scalar).__name__, repr(scalar))
    small = np.array([3.0, -1.0, 2.0]) * 2
    if small.argmax() == 0:
        print("small argmax 0", repr(small - small.mean()))
    z = np.array(4.0) * 2
    if z > 7:
        print("0-d condition", repr(z), repr(z - z.mean()))


running_stats()
