"""Python protocols applied to recorded values: print and f-strings (with
format specs), str/repr, len(), iteration (for v in arr), unpacking,
indexing and slicing, `in`, `is`/`is None`, hash of scalars, bool() of
one-element arrays and its ValueError for bigger ones, int()/float(),
comparison of NumPy scalars with Python numbers, isinstance/type()."""
import numpy as np

N = 30_000


def fmt():
    a = np.linspace(0, 1, N) * 3
    s = a.sum()
    m = a.mean()
    print(f"sum={s} mean={m!r} fixed={m:.3f} exp={s:e} width=[{m:>12.4f}]")
    print(f"first={a[0]} last={a[-1]!r} slice={a[1:3]}")
    print("%.5f %r %s" % (m, a.max(), a.min()))
    print("{:.2%} {}".format(m / 3, a.dtype))
    print(str(a[:4]), repr(a[-2:]))
    i = (a * 1000).astype(np.int64)
    print(f"{i.sum():,} {i[5]:08d} {i[7]:x}")
    b = a > 1.5
    print(f"{b.sum()} {b[0]} {b[-1]!r} {b.any()}")
    print(a[:3], a.shape, a.dtype, sep=" | ", end=" <end>\n")
    z = np.float32(1) / 3 * a[1000]
    print(f"{z} {z!r} {type(z).__name__}")


def lengths_and_iteration():
    m = np.arange(300 * 200, dtype=np.float64).reshape(300, 200) * 0.5
    print("len", len(m), len(m[0]), len(m.T), len(m[::7]))
    total = 0.0
    for row in m[:4] + 1:
        total += row.sum()
    print("row iteration", repr(total))
    vals = [v for v in (m[0, :6] - 1)]
    print("elements", vals, type(vals[0]).__name__)
    a, b, c = m[:3, 0] * 2
    print("unpack", repr(a), repr(b), repr(c))
    first, *rest = (m[0, :5] + 1).tolist()
    print("star unpack", first, rest)
    for i, v in enumerate(np.sqrt(m[1, :4])):
        print(" enum", i, repr(v))
    print("list()", list((m[2, :3] > 100)))
    print("zip", [(repr(p), repr(q)) for p, q in zip(m[0, :2] * 3, m[1, :2])])
    print("sum()", repr(sum(m[:, 0] / 10)), "max()", repr(max(m[0, :5] - 2)))
    print("sorted", sorted(-m[0, :4]))


def indexing():
    v = np.arange(N) * 3 - 7
    w = v * 2
    print("int idx", repr(w[5]), repr(w[-1]), repr(w[np.int64(9)]))
    print("slice", repr(w[10:14]), repr(w[::-5000]), repr(w[-3:]))
    m = w.reshape(150, 200)
    print("2d", repr(m[3, 4]), repr(m[-1, -1]), repr(m[2][:4]), repr(m[:2, :3]), repr(m[..., 1][:3]))
    print("newaxis", m[None].shape, m[:, None, :].shape, m[..., np.newaxis].shape)
    print("in", 4 in w, -14 in w, 2 in w, (w == 4).any())
    print("ellipsis", repr(m[..., -1][-2:]))
    idx = w.argmax()
    print("by argmax", repr(w[idx]), repr(v[w.argmin()]))


def identity_checks(flag):
    a = np.ones(N) * 2 if flag else None
    if a is None:
        print("is None")
    else:
        print("is not None", repr(a.sum()))
    b = a
    print("b is a", b is a, "b is not a", b is not a)
    c = a + 0 if a is not None else None
    print("c is a", c is a, c is None)
    return a


def truthiness():
    one = np.array([3.0]) * 2
    print("bool one", bool(one), bool(one - 6))
    big = np.arange(N) * 1.5
    try:
        if big:
            print("never")
    except ValueError as e:
        print("ValueError", e)
    try:
        print(big > 2 and big < 5)
    except ValueError as e:
        print("ValueError and", e)
    s = big.sum()
    print("int/float", int(s), float(s), int(big[7]), float(big[3]), round(big.mean(), 2))
    print("compare", big.max() > 40000, big.min() == 0, big[2] == 3.0, 3 == big[2], big[2] != 3)
    print("hash", hash(big[2]) == hash(3.0), hash(np.int64(5) * 1) == hash(5))
    print("types", type(big).__name__, isinstance(big, np.ndarray), type(big[0]).__name__, isinstance(s, float))
    print("abs/neg", abs(big[-1] * -1), -big[1], +big[2])
    print("divmod", divmod(big[11], 4), pow(big[3], 2), big[3] ** 0.5)
    zero_d = np.array(7) * 3
    print("0-d", repr(zero_d), int(zero_d), zero_d.shape, zero_d.ndim, len(zero_d.shape))
    try:
        len(np.array(4.0) + 1)
    except TypeError as e:
        print("TypeError", e)
    try:
        for _ in np.float64(2) * np.ones(())[()]:
            pass
    except TypeError as e:
        print("TypeError", e)


fmt()
lengths_and_iteration()
indexing()
identity_checks(True)
identity_checks(False)
truthiness()
