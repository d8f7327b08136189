"""Recorded values escaping the function that computed them: passed to
generators, map(), sorted(key=...), min(key=...), lambdas, stored in lists,
tuples, dicts, sets of ids, object attributes, class attributes, globals and
module attributes, then read back and used again."""
import sys

import numpy as np

N = 40_000
base = np.arange(N, dtype=np.float64) / N


def gen_scaled(a, factors):
    for f in factors:
        yield a * f


def consume_gen():
    v = base * 2 + 1
    sums = [repr(s.sum()) for s in gen_scaled(v, [1, 2, 3])]
    print("gen sums", sums)
    g = (w - 1 for w in gen_scaled(v, [0.5, 4]))
    first = next(g)
    second = next(g)
    print("gen next", repr(first[:2]), repr(second[-2:]))
    total = sum(x.sum() for x in gen_scaled(v - 1, range(4)))
    print("sum of gen", repr(total))


def with_map_sorted():
    rows = [base * k - k for k in range(5)]
    means = list(map(np.mean, rows))
    print("map mean", [repr(m) for m in means])
    maxes = list(map(lambda r: (r * r).max(), rows))
    print("map lambda", [repr(m) for m in maxes])
    order = sorted(range(5), key=lambda i: rows[i].sum())
    print("sorted key", order)
    by_arr = sorted(rows, key=lambda r: float(r.min()))
    print("sorted arrays", [repr(r[0]) for r in by_arr])
    best = min(rows, key=lambda r: abs(r.mean()))
    print("min key", repr(best[:2]))
    filt = list(filter(lambda r: r.sum() > -40000, rows))
    print("filter", len(filt))
    zipped = [(a * b).sum() for a, b in zip(rows, rows[1:])]
    print("zip", [repr(z) for z in zipped])
    apply = lambda a, k=3: np.sqrt(np.abs(a)) * k
    print("lambda", repr(apply(rows[2]).sum()), repr(apply(rows[2], k=1)[:2]))


class Holder:
    kind = None

    def __init__(self):
        self.value = None
        self.items = []


STORE = {}
LAST = None


def into_containers():
    global LAST
    a = base * 3
    b = a - 1
    lst = [a, b, a + b]
    tup = (b * 2, lst)
    d = {"a": a, "sq": a * a}
    d["b"] = b
    d.setdefault("c", b + 100)
    h = Holder()
    h.value = a / 2
    h.items.append(b * b)
    Holder.kind = b.mean()
    STORE["x"] = a * 10
    LAST = b - a
    setattr(sys.modules[__name__], "MODATTR", a + 0.25)
    ids = {id(a), id(b), id(lst[0])}
    print("ids", len(ids), lst[0] is a, tup[1] is lst, d["a"] is a)
    return lst, tup, d, h


def read_back():
    lst, tup, d, h = into_containers()
    print("lst", [repr(x.sum()) for x in lst])
    print("tup", repr(tup[0][:2]), len(tup[1]))
    print("dict", sorted(d), repr(d["sq"].sum()), repr(d["c"][-1]))
    print("attr", repr(h.value.sum()), repr(h.items[0][:2]), type(Holder.kind).__name__, repr(Holder.kind))
    print("global", repr(STORE["x"].mean()), repr(LAST.sum()), repr(MODATTR[:2]))  # noqa: F821
    again = lst[2] - lst[0] - lst[1]
    print("again", repr(np.abs(again).max()))
    d["a"] += 1
    print("d[a] mutated lst[0] too", repr(lst[0][:2]))
    h.value *= 2
    print("attr after *=", repr(h.value[:2]))


def default_and_closure_cells():
    acc = []

    def add(k):
        acc.append(base * k)
        return acc[-1]

    last = add(2)
    add(3)
    print("closure list", len(acc), repr(last[1]), repr(acc[1][1]))
    cell = base + 5

    def inner():
        return cell * 2

    cell = cell - 5
    print("cell rebound", repr(inner()[:2]))


consume_gen()
with_map_sorted()
read_back()
default_and_closure_cells()


def small_escape():
    s = np.arange(6) * 2
    box = [s, s + 1]
    z = np.array(1.5) * 4
    store = {"z": z}
    print("small", repr(box), repr(store))


small_escape()
