"""Values computed by helper functions and returned through several call
levels, with the caller continuing to compute with them: tuples of results,
keyword and default arguments, *args, recursion, methods and staticmethods,
closures, decorators, and a helper that returns its argument unchanged."""
import functools

import numpy as np

N = 50_000
x = np.linspace(-2, 2, N)
y = np.cos(np.linspace(0, 20, N))


def square_plus(a, c=1.0):
    return a * a + c


def level3(a):
    return np.sqrt(square_plus(a, c=0.5))


def level2(a, b):
    return level3(a) - level3(b)


def level1(a, b):
    r = level2(a, b)
    return r * 2, r.mean()


def identity(a):
    return a


def stats(a):
    return a.min(), a.max(), a.mean()


def split(a):
    pos = np.maximum(a, 0)
    neg = np.minimum(a, 0)
    return pos, neg


def combine(*parts, scale=1.0):
    acc = parts[0] * scale
    for p in parts[1:]:
        acc = acc + p * scale
    return acc


def depth(a, n):
    if n == 0:
        return a
    return depth(a * 0.5 + 1, n - 1)


def show(label, a):
    print(label, a.dtype, a.shape, repr(a.sum()), repr(a[:2]), repr(a[-1]))


def main():
    r, m = level1(x, y)
    show("level1", r)
    print("mean", type(m).__name__, repr(m))
    z = r - m
    show("r - mean", z)
    show("identity chain", identity(identity(x * 3)) + 1)
    lo, hi, mu = stats(x * y)
    print("stats", repr(lo), repr(hi), repr(mu))
    pos, neg = split(x + y)
    show("pos", pos)
    show("neg", neg)
    show("pos+neg", pos + neg)
    show("combine", combine(x, y, x * y, scale=0.25))
    show("depth", depth(x, 12))
    show("kw default", square_plus(y) - square_plus(y, c=2))
    f32 = identity(x.astype(np.float32))
    show("f32 through helper", level3(f32))


main()


class Model:
    scale = 3.0

    def __init__(self, w):
        self.w = w

    def predict(self, a):
        return self.transform(a) * self.w

    def transform(self, a):
        return np.tanh(a * self.scale)

    @staticmethod
    def loss(p, t):
        d = p - t
        return (d * d).mean()

    @classmethod
    def make(cls, w):
        return cls(w * 2)


def train():
    model = Model.make(0.5)
    p = model.predict(x)
    l1 = Model.loss(p, y)
    l2 = model.loss(p * 0.5, y)
    print("losses", repr(l1), repr(l2))
    show("prediction", p)
    return p


def make_scaler(k):
    def scaler(a):
        return a * k + offset

    offset = k / 2
    return scaler


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*a, **kw):
        out = fn(*a, **kw)
        print("called", fn.__name__, out.dtype, out.shape)
        return out

    return wrapper


@logged
def decorated(a, b):
    return a * b - b


def closures(p):
    s = make_scaler(3)
    show("closure", s(p))
    show("closure twice", s(s(p)) - p)
    d = decorated(p, y)
    show("decorated", d + 1)
    partial = functools.partial(square_plus, c=-1.0)
    show("partial", partial(p))


p = train()
closures(p)


def returns_many():
    a = x * 2
    b = a + 1
    c = b * b
    return a, b, c, [a, b], {"c": c}


a, b, c, lst, dct = returns_many()
show("a", a)
show("b", b)
show("c", c)
print("list items same", lst[0] is a, lst[1] is b, dct["c"] is c)


def small_helpers():
    s = square_plus(np.arange(5.0))
    print("small", repr(s))
    z = square_plus(np.array(3.0))
    print("0-d", type(z).__name__, repr(z))
    q = level3(np.float64(2.0))
    print("scalar", type(q).__name__, repr(q))


small_helpers()
