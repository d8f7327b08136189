# Complex arrays made by np.zeros/ones/full/*_like and picked by np.where
# stay pending; in-place operators and masked stores write an array that
# one name holds by replacing that name's value in the region. Each case
# that must not be taken that way (another name, a view, an argument the
# caller still holds, a global read by a function, a read-only array, a
# 0-d array) is here too, and every result is compared bit for bit.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(170)
n = 50_000
x = rng.standard_normal(n)
y = rng.standard_normal(n)
x[:6] = [np.nan, -0.0, np.inf, -np.inf, 0.0, 1e308]
z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
z[:4] = [complex(np.nan, 1), complex(np.inf, -0.0), complex(-0.0, np.inf), 0j]

# Creation of complex arrays, then arithmetic on them.
show("zeros", np.zeros(n, dtype=complex) + z)
show("ones", np.ones(n, dtype=np.complex128) * z)
show("full", np.full(n, 1.5 - 2j) * z)
show("full_like", np.full_like(z, -0.0 + 3j) - z)
show("zeros_like", np.zeros_like(z) - 0.0)
show("ones_like of real", np.ones_like(x, dtype=complex) * 1j + x)
e = np.empty_like(z)
print("empty_like", e.dtype, e.shape)
show("full 2-d", np.full((200, 250), 2j) * z.reshape(200, 250))

# np.where with complex branches.
show("where scalar", np.where(x > 0, z, 0))
show("where both", np.where(np.abs(z) > 1, z * z, z - 1))
show("where float32", np.where(x > y, z, np.float32(2.5)) * z)
show("where complex scalar", np.where(y < 0, x, 1j))
show("where nan cond", np.where(x != x, 1 + 1j, z))


# Escape-time iteration spelled with np.where: the pending values stay in
# one region across iterations.
def escape(c, steps):
    zz = np.zeros_like(c)
    counts = np.zeros(c.shape, dtype=np.int64)
    m = np.ones(c.shape, dtype=bool)
    for i in range(steps):
        zz = np.where(m, zz * zz + c, zz)
        escaped = np.abs(zz) > 2
        counts[m & escaped] = i
        m &= ~escaped
    return zz, counts, m


re, im = np.meshgrid(np.linspace(-2, 0.6, 300), np.linspace(-1.2, 1.2, 200))
zz, counts, m = escape(re + 1j * im, 12)
show("escape z", zz)
show("escape counts", counts)
show("escape mask", m)


# In-place operators on an array one name holds.
def in_place_local(a):
    b = a * 2.0
    b += 1.0
    b *= a
    b -= 0.5
    return b


show("in place local", in_place_local(x))


def in_place_alias(a):
    b = a * 2.0
    c = b
    b += 1.0
    return b, c


b, c = in_place_alias(x)
show("alias b", b)
show("alias c", c)
show("alias same", np.array(b is c))


def in_place_view(a):
    b = a * 3.0
    v = b[::2]
    v += 1.0
    return b


show("in place view", in_place_view(x))


def in_place_argument(a):
    a += 1.0
    return a * 2


arg = x.copy()
show("in place arg", in_place_argument(arg))
show("arg after", arg)

g = x.copy()


def read_global():
    return g * 2


def bump_global():
    global g
    g += 1.0
    return read_global()


show("global bumped", bump_global())
show("global after", g)

ro = x.copy()
ro.flags.writeable = False
try:
    ro += 1
except ValueError as e:
    print("read-only:", e)
show("read-only kept", ro)


def in_place_zero_d():
    # Past x's special values: their sum is a NaN made from NaNs of both
    # signs, whose sign is a known difference (README).
    s = np.array(2.5)
    s += x[6:].sum()
    s *= 2
    return s


show("0-d in place", in_place_zero_d())


def bool_in_place(a):
    m = a > 0
    m &= a < 1
    m |= a != a
    return m


show("bool in place", bool_in_place(x))


# Masked scalar stores into an array only one local names.
def masked_local(a):
    r = a * 2
    r[a < 0] = 0.0
    r[np.isnan(a)] = -1.0
    return r


show("masked local", masked_local(x))


def masked_alias(a):
    r = a * 2
    s = r
    r[a < 0] = 0.0
    return r, s


r, s = masked_alias(x)
show("masked alias r", r)
show("masked alias s", s)
show("masked alias same", np.array(r is s))


def masked_argument(a, mask):
    a[mask] = 7.0
    return a + 1


arg = x.copy()
show("masked arg", masked_argument(arg, y > 0))
show("masked arg after", arg)


def masked_int(a):
    k = np.arange(a.size)
    k[a > 0] = -3
    k[k % 7 == 0] = 5
    return k


show("masked int", masked_int(x))


def masked_complex(a):
    w = a * (1 + 1j)
    w[a > 1] = 2j
    return w


show("masked complex", masked_complex(x))
