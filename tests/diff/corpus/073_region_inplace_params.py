"""In-place operators on real input arrays (parameters, globals, views of
them): the caller's array must change, and a pending value computed from the
array before the in-place write must still see the old contents
(y = x * 2; x += 1; y is the doubled old x)."""
import numpy as np

N = 50_000


def bump(x):
    y = x * 2
    x += 1
    print("y", repr(y[:3]), "x", repr(x[:3]))
    return y


def bump_twice(x):
    before = x.sum()
    s = x + 0.5
    x *= 3
    t = x + 0.5
    x -= 1
    print("before", repr(before), "s", repr(s[:3]), "t", repr(t[:3]), "x", repr(x[:3]))
    return s, t


def write_view(x):
    v = x[::2]
    old = x * 1
    v += 100
    r = x[1::2]
    r *= -1
    print("old", repr(old[:4]), "x", repr(x[:4]))


def write_through_slice(m):
    col_mean = m.mean(axis=0)
    m[:, 0] += 10
    m[0, :] = 0
    after = m.mean(axis=0)
    print("col mean before", repr(col_mean[:3]), "after", repr(after[:3]))


def out_param(x):
    prev = x - 1
    np.sqrt(x, out=x)
    np.add(x, prev, out=x)
    print("prev", repr(prev[:3]), "x", repr(x[:3]))


def mutate_other(a, b):
    c = a + b
    b += a
    a[...] = 0
    print("c", repr(c[:3]), "a", repr(a[:3]), "b", repr(b[:3]))
    return c


def self_alias(x):
    y = x[::-1]
    z = x + y
    x += y  # overlapping in place: NumPy buffers the reversed view
    print("z", repr(z[:3]), repr(z[-3:]), "x", repr(x[:3]), repr(x[-3:]))


def failing_inplace(x):
    y = x * 2
    try:
        x += 0.5
    except TypeError as e:
        print(type(e).__name__, e)
    print("y", repr(y[:3]), "x", repr(x[:3]))


a = np.arange(N, dtype=np.float64)
y = bump(a)
print("caller a", repr(a[:3]), repr(a.sum()), "y", repr(y.sum()))
y = bump(a)
print("caller a again", repr(a[:3]))

b = np.arange(N, dtype=np.float32) / 4
s, t = bump_twice(b)
print("caller b", b.dtype, repr(b[:3]), repr(s.sum()), repr(t.sum()))

c = np.arange(N) * 1
write_view(c)
print("caller c", repr(c[:4]), repr(c.sum()))

m = np.arange(300 * 200, dtype=np.float64).reshape(300, 200)
write_through_slice(m)
print("caller m", repr(m[:2, :2]), repr(m.sum()))

d = np.linspace(1, 4, N)
out_param(d)
print("caller d", repr(d[:3]))

p = np.arange(N, dtype=np.int64)
q = np.ones(N, dtype=np.int64)
r = mutate_other(p, q)
print("caller p q r", repr(p.sum()), repr(q.sum()), repr(r.sum()))

e = np.arange(N, dtype=np.float64)
self_alias(e)
print("caller e", repr(e.sum()))

g = np.arange(N, dtype=np.int16)
failing_inplace(g)
print("caller g", g.dtype, repr(g[:3]))

u8 = np.arange(N, dtype=np.uint8)
bump(u8)
print("caller u8", repr(u8[250:260]))

small = np.arange(4.0)
bump(small)
print("caller small", repr(small))



def bump_0d(x):
    y = x * 2
    x += 1
    print("0-d y", repr(y), type(y).__name__, "x", repr(x))


zero_d = np.array(5.0)
bump_0d(zero_d)
print("caller 0-d", repr(zero_d))

rows = np.arange(300 * 200, dtype=np.float64).reshape(300, 200)
bump(rows[10])
bump(rows[:, 3])
print("caller rows", repr(rows[10, :3]), repr(rows[:3, 3]), repr(rows.sum()))



def interleaved(x):
    y = x * 2
    x += 1
    z = y + x
    x *= 0
    w = z - y
    x += w
    v = x[::-1] * 1
    x[:10] = -1
    return w, v


h = np.arange(N, dtype=np.float64)
w, v = interleaved(h)
print("interleaved", repr(w[:3]), repr(v[-3:]), repr(h[:3]), repr(h[10:13]), repr(h.sum()))


def loop_updates(x):
    pending = []
    for k in range(4):
        pending.append(x * k)
        x += 10
    total = x + 0
    for k, p in enumerate(pending):
        print("pending", k, repr(p[:2]))
    return total


t = loop_updates(np.arange(N, dtype=np.int64))
print("loop", repr(t[:3]))

G = np.zeros(N)


def touch_global():
    before = G + 1
    G[:] += 7
    print("before", repr(before[:2]), "G", repr(G[:2]))


touch_global()
print("G", repr(G.sum()))
