"""NEP 50 promotion inside recorded regions: Python scalars are weak, NumPy
scalars and 0-d arrays are strong; int8 wraps around, unsigned arithmetic
wraps, uint8 - python int stays uint8, mixed signed/unsigned widens."""
import numpy as np

N = 40_000
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]


def arr(dtype):
    if dtype == "bool":
        return np.arange(N) % 2 == 0
    if dtype.startswith("u"):
        return (np.arange(N) % 200 + 50).astype(dtype)
    return (np.arange(N) % 200 - 100).astype(dtype)


def digest(a):
    a = np.asarray(a)
    if a.dtype.kind == "f":
        return repr(a.sum(dtype=np.float64))
    return repr(int(a.astype(np.int64).sum()))


def pair_table():
    for da in DTYPES:
        a = arr(da)
        row = []
        for db in DTYPES:
            b = arr(db)[::-1]
            r = a + b
            row.append(f"{r.dtype}:{digest(r)}")
        print(da, " ".join(row))


def python_scalars():
    for d in DTYPES:
        a = arr(d)
        r1 = a + 1
        r2 = a * 2.0
        r3 = a + True
        r4 = 3 * a
        r5 = a / 2
        print(d, "py", r1.dtype, r2.dtype, r3.dtype, r4.dtype, r5.dtype, digest(r1), digest(r2), digest(r4), digest(r5))


def numpy_scalars():
    for d in DTYPES:
        a = arr(d)
        r1 = a + np.int8(3)
        r2 = a * np.float32(2)
        r3 = a + np.uint8(1)
        r4 = a + np.int64(1)
        r5 = a * np.array(2, dtype=np.int16)
        print(d, "np", r1.dtype, r2.dtype, r3.dtype, r4.dtype, r5.dtype, digest(r1), digest(r2), digest(r3), digest(r5))


def wraparound():
    i8 = arr("int8")
    w = i8 * 3 + 100
    print("int8 wrap", w.dtype, repr(w[:6]), digest(w))
    w2 = (i8 + 127) + 127
    print("int8 double add", repr(w2[95:100]))
    u8 = arr("uint8")
    d = u8 - 100
    print("uint8 - py int", d.dtype, repr(d[:4]), repr(d[148:152]), digest(d))
    d2 = 5 - u8
    print("py int - uint8", d2.dtype, repr(d2[:4]))
    u16 = arr("uint16")
    m = u16 * u16 * u16
    print("uint16 cube", m.dtype, repr(m[:4]), digest(m))
    u32 = arr("uint32")
    s = u32 - 60
    print("uint32 - 60", s.dtype, repr(s[:3]), repr(s[10:13]))
    u64 = arr("uint64")
    s64 = u64 - 100
    print("uint64 - 100", s64.dtype, repr(s64[:3]), repr(s64[50:53]))
    mix = u64 + arr("int64")
    print("uint64 + int64", mix.dtype, repr(mix[:3]))
    neg = -u8
    print("-uint8", neg.dtype, repr(neg[:4]))
    i16 = arr("int16")
    sq = i16 * i16 * i16 * i16
    print("int16 ^4", sq.dtype, repr(sq[:4]), digest(sq))
    big = arr("int32") * 40_000_000
    print("int32 * 4e7", big.dtype, repr(big[:4]))


def float_precision():
    f32 = (np.arange(N) / 7).astype(np.float32)
    r = f32 * 0.1 + 1e-3
    print("f32 py float", r.dtype, repr(r[:3]), digest(r))
    r = f32 * np.float64(0.1)
    print("f32 np.float64", r.dtype, repr(r[:3]), digest(r))
    r = f32 + np.arange(N)
    print("f32 + int64", r.dtype, digest(r))
    r = f32 + np.arange(N, dtype=np.int16)
    print("f32 + int16", r.dtype, digest(r))
    r = f32 + np.arange(N, dtype=np.int8)
    print("f32 + int8", r.dtype, digest(r))
    h = f32.astype(np.float16) * 2
    print("f16 * 2", h.dtype, repr(h[:3]), digest(h))


def out_of_range_scalars():
    u8 = arr("uint8")
    for label, fn in [
        ("uint8 + 256", lambda: u8 + 256),
        ("uint8 + -1", lambda: u8 + -1),
        ("uint8 + 255", lambda: u8 + 255),
        ("int8 * 128", lambda: arr("int8") * 128),
        ("uint64 + -1", lambda: arr("uint64") + -1),
        ("uint8 == -1", lambda: u8 == -1),
        ("uint8 < 300", lambda: u8 < 300),
    ]:
        try:
            r = fn()
            print(label, "->", r.dtype, digest(r))
        except OverflowError as e:
            print(label, "OverflowError:", e)


pair_table()
python_scalars()
numpy_scalars()
wraparound()
float_precision()
out_of_range_scalars()
