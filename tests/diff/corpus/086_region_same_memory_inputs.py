# Views of the same memory taken twice are one region input, and writes into
# that memory between the recorded ops still order as in NumPy. A function's
# lazy locals die with it when it returns its result to code npython does not
# run; values it handed out earlier still come out right.
import numpy as np

n = 40000
base = np.linspace(-3.0, 3.0, 3 * n).reshape(n, 3)


def columns(a):
    return a[:, 0], a[:, 1], a[:, 2]


def score(a):
    x, y, z = columns(a)
    x2, y2, z2 = columns(a)
    valid = (x >= -1) & (y2 < 2) & (z > x2)
    return np.where(valid, x * y2 + z2, -1.0)


r = score(base)
print(r.dtype, r.shape, float(r.sum()), int((r == -1.0).sum()))

a = np.arange(float(n))
v1 = a[:]
v2 = a[:]
before = v1 * 2 + v2
v1 += 1
after = v2 * 2 + a[:]
np.multiply(v2, 3, out=v2)
later = a[::2] + v1[::2]
print(before[:3], before[-1], after[:3], after[-1], later[:3], later.sum())

kept = []


def keep_one(a):
    t = a * 3
    u = t + 1
    kept.append(t)
    return u - a


out = [r[0] for r in map(keep_one, [np.full(n, 2.0)])]
print(out, kept[0][:2], type(kept[0]).__name__)

swapped = base.T[0]
again = base[:, 0]
print(float((swapped * 2 - again).sum()), np.shares_memory(swapped, again))
