"""In-place operators on values computed in the same function: y = x + 1;
y += 2; an alias z = y sees z *= 3; views of a computed value written in
place; in-place with dtype casting rules (int += float fails, float32 +=
float64 stays float32); augmented assignment on subscripts."""
import numpy as np

N = 50_000


def show(label, a):
    print(label, a.dtype, a.shape, repr(a.sum()), repr(a.ravel()[:3]))


def aliases():
    x = np.arange(N, dtype=np.float64) * 0.5
    y = x + 1
    y += 2
    z = y
    z *= 3
    show("y", y)
    show("z", z)
    print("z is y", z is y, "x untouched", repr(x[:3]))
    w = y
    y = y - 1  # rebinding: w keeps the in-place result, y is new
    w /= 2
    show("w", w)
    show("y rebound", y)
    print("w is z", w is z)


def chains():
    a = np.linspace(0, 1, N)
    b = a * 2
    b -= a
    b **= 2
    b += b  # self in place
    show("b", b)
    c = np.sqrt(b)
    c *= -1
    np.abs(c, out=c)
    show("c", c)
    d = a.copy()
    np.multiply(d, 3, out=d)
    np.add(d, a, out=d)
    show("d", d)
    e = a + 0
    e[::2] += 10
    e[1::2] -= 10
    show("e", e)
    f = a * 4
    f[f > 2] = 0
    f[:100] *= 2
    show("f", f)


def views():
    m = np.arange(300 * 200, dtype=np.float64).reshape(300, 200) / 7
    n = m * 2
    row = n[5]
    col = n[:, 7]
    row += 1000
    col *= 0
    show("n after view writes", n)
    print("row view", repr(row[:3]), "col view", repr(col[:3]))
    t = n.T
    t -= 1
    show("n after T write", n)
    r = n[::-1]
    r[0] = -5
    print("last row of n", repr(n[-1, :3]))


def dtypes():
    i = np.arange(N, dtype=np.int32) * 2
    i += 1
    i *= 3
    i //= 2
    i %= 1000
    i <<= 1
    i |= 1
    i ^= 6
    i &= 0xFFF
    i >>= 1
    show("int32 chain", i)
    try:
        i += 0.5
    except Exception as e:
        print(type(e).__name__, e)
    show("int32 after failed", i)
    f32 = np.ones(N, dtype=np.float32) * 1.5
    f32 += np.arange(N, dtype=np.float64)
    show("f32 += f64", f32)
    f32 *= 1e-3
    show("f32 *= py float", f32)
    i8 = np.full(N, 100, dtype=np.int8) + 0
    i8 += 100
    show("int8 += wraps", i8)
    u8 = np.zeros(N, dtype=np.uint8) + 1
    u8 -= 3
    show("uint8 -= 3", u8)
    b = np.arange(N) % 3 == 0
    b &= np.arange(N) % 2 == 0
    b |= np.arange(N) % 7 == 0
    show("bool &=, |=", b)
    try:
        b += 1
    except Exception as e:
        print(type(e).__name__, e)


def scalars_and_small():
    s = np.arange(5.0) * 2
    s += 1
    print("small", repr(s))
    z = np.array(2.5) * 2
    z += 1
    print("0-d", repr(z), type(z).__name__)
    k = np.float64(3.0)
    k2 = k
    k += 1  # NumPy scalars are immutable: rebinds
    print("np scalar", repr(k), repr(k2))
    lst = [np.arange(N) * 1.0]
    lst[0] += 1
    show("list element +=", lst[0])
    d = {"a": np.arange(N) * 2}
    d["a"] -= 5
    show("dict element -=", d["a"])


aliases()
chains()
views()
dtypes()
scalars_and_small()
