"""Broadcasting with None / np.newaxis (means[:, None], outer differences,
row/column scaling) and operations the recorder does not fuse (np.sort,
np.cumsum, np.argsort, fancy indexing x[idx], boolean masks x[x > 0],
x @ y, np.concatenate, np.unique, np.dot, np.einsum, np.take, np.put)
mixed with recorded element-wise work before and after them."""
import numpy as np

rng = np.random.default_rng(42)
X = rng.normal(size=(20_000, 3))
pts = rng.normal(size=(25_000, 2))
means = np.array([[0.0, 0.0], [1.0, -1.0], [-2.0, 0.5]])


def show(label, a):
    a = np.asarray(a)
    print(label, a.dtype, a.shape, repr(a.sum()), repr(a.ravel()[:3]))


def broadcasting():
    d = pts - means[:, None]
    show("pts - means[:, None]", d)
    dist = np.sqrt((d ** 2).sum(axis=2))
    show("dist", dist)
    labels = np.argmin(dist, axis=0)
    print("labels", labels.dtype, np.bincount(labels).tolist())
    show("newaxis outer", X[:, 0][:, np.newaxis] * X[0][np.newaxis, :])
    show("row scale", X / X.std(axis=0))
    show("col scale", X / np.abs(X).max(axis=1)[:, None])
    a = np.arange(300.0)[:, None]
    b = np.arange(200.0)[None, :]
    show("grid", np.sqrt(a * a + b * b) - (a + b) / 2)
    show("3-way", a[:, :, None] + b[:, :, None] * np.arange(3.0))


def fallbacks():
    v = X[:, 0] * 2 + 1
    s = np.sort(v)
    show("sort then op", s * 3 - v.mean())
    c = np.cumsum(v * 0.5)
    show("cumsum then op", c / (np.arange(c.size) + 1))
    o = np.argsort(-v)
    show("argsort index", v[o][:5] - 1)
    idx = np.arange(0, v.size, 7)
    show("fancy idx", v[idx] * v[idx[::-1]])
    mask = v > 1
    show("mask", v[mask] - 1)
    show("mask assign", np.where(mask, v, 0) + v[~mask].sum())
    w = v.copy()
    w[w < 0] = 0
    w[idx] += 1
    show("after mask/fancy writes", w * 2)
    m = X * 0.5
    show("matmul", m @ m.T[:, :5])
    show("matmul vec", (X @ np.array([1.0, -2.0, 0.5])) + 1)
    show("dot", np.dot(m.T, m))
    show("einsum", np.einsum("ij,ij->i", X, X) - (X ** 2).sum(axis=1))
    cat = np.concatenate([v * 2, v[:100] - 1])
    show("concatenate", cat + 1)
    st = np.stack([v, v * 2], axis=1)
    show("stack", st - st.mean(axis=0))
    u = np.unique(np.floor(v))
    show("unique", u * 10)
    t = np.take(v, [3, 1, 4, 1, 5]) * 2
    show("take", t)
    p = v * 1
    np.put(p, [0, 2], [-1.0, -2.0])
    show("put", p + 1)
    cl = np.clip(v, -1, 1) * 2
    show("clip", cl)
    diff = np.diff(v * 3)
    show("diff", diff + 0.5)
    show("searchsorted", np.searchsorted(s, v[:10] * 0.5))
    h, edges = np.histogram(v * 2, bins=5)
    print("histogram", h.tolist(), repr(edges))
    r = np.roll(v, 3) - v
    show("roll", r)
    show("tile", np.tile(v[:5] * 2, 3))
    show("repeat", np.repeat(v[:4] + 1, 2))
    show("nonzero", np.nonzero(v > 3)[0][:5] * 2)
    show("count_nonzero", np.count_nonzero(v > 0) + np.zeros(2))
    show("median", np.median(v * 2) + v[:2])
    show("percentile", np.percentile(v, [25, 75]) * 2)
    show("var/std", np.array([v.var(), v.std(), (v * 2).var(ddof=1)]))
    show("outer", np.outer(v[:300] * 2, v[:200]))
    show("cross", np.cross(X[:, :3] * 2, X[::-1, :3]))


def small_mixed():
    s = np.array([3.0, 1.0, 2.0]) * 2
    show("small sort", np.sort(s) + 1)
    show("small fancy", s[[2, 0]] * 3)
    show("small mask", s[s > 2] - 1)
    z = np.array(4.0) * 2
    show("0-d newaxis", z[None] + np.arange(3.0))
    show("0-d in concat", np.concatenate([np.atleast_1d(z), s]))


broadcasting()
fallbacks()
small_mixed()
