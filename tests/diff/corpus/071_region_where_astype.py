"""Three-argument np.where and astype chains inside recorded regions: result
dtypes with Python and NumPy scalar branches, nested where, astype with
truncation / wrap-around / bool / float16 conversions, copy=False, and
astype feeding further arithmetic."""
import numpy as np

N = 48_000


def show(label, a):
    a = np.asarray(a)
    if a.dtype.kind == "f":
        total = repr(a.sum(dtype=np.float64))
    else:
        total = repr(int(a.astype(np.int64).sum()))
    print(label, a.dtype, a.shape, total, repr(a.ravel()[:4]))


def wheres():
    x = np.linspace(-5, 5, N)
    i = np.arange(N, dtype=np.int32) % 17 - 8
    i8 = i.astype(np.int8)
    f32 = x.astype(np.float32)
    show("where py scalars", np.where(x > 0, 1, 0))
    show("where py float", np.where(x > 0, x, 0.0))
    show("where arrays", np.where(x > 0, x * 2, -x))
    show("where int8 py int", np.where(i8 > 0, i8, 0))
    show("where int8 py float", np.where(i8 > 0, i8, 0.5))
    show("where int8 np.int16", np.where(i8 > 0, i8, np.int16(0)))
    show("where f32 py float", np.where(f32 > 0, f32, 1.5))
    show("where f32 np.float64", np.where(f32 > 0, f32, np.float64(1.5)))
    show("where f32 f64 arr", np.where(f32 > 0, f32, x))
    show("where bool cond array", np.where(i % 2 == 0, True, False))
    show("where nested", np.where(x < -2, -1.0, np.where(x > 2, 1.0, x / 2)))
    show("where chain", np.where(np.abs(x) > 1, np.sign(x), x) * 3 + 1)
    show("where int cond", np.where(i, i * 10, 99))
    show("where broadcast", np.where((x > 0).reshape(240, 200), np.arange(200.0), np.arange(240.0)[:, None]))
    show("where uint8", np.where(i8 > 0, i8.astype(np.uint8), np.uint8(200)))
    show("where nan", np.where(x > 4, np.nan, x))
    return x, i


def astypes(x, i):
    show("f64->int32", (x * 10).astype(np.int32))
    show("f64->int8 in range", (x * 20).astype(np.int8))
    show("f64->uint8 in range", (x * 20 + 100).astype(np.uint8))
    show("f64->f32->f64", (x / 3).astype(np.float32).astype(np.float64))
    show("f64->f16", (x * 1000).astype(np.float16))
    show("f64->bool", (x - x.round()).astype(bool))
    show("int32->int8 wrap", (i * 20).astype(np.int8))
    show("int32->uint16 wrap", (i * 1000).astype(np.uint16))
    show("int32->f32", (i * 3).astype(np.float32) / 7)
    show("bool->int", (x > 0).astype(np.int64) * 5 - 1)
    show("bool->f32", (i > 0).astype(np.float32) + 0.5)
    show("int8 -> float -> int", ((i.astype(np.int8) * 5).astype(np.float64) / 2).astype(np.int16))
    show("astype str dtype", (x * 2).astype("float32"))
    show("astype same copy False", (x * 2).astype(np.float64, copy=False))
    show("uint8 chain", (i + 8).astype(np.uint8) * 20)
    show("astype then where", np.where((x * 3).astype(np.int64) % 2 == 0, x.astype(np.float32), 0))
    show("trunc toward zero", (x * 1.5).astype(np.int64)[:12])
    y = (x * 100).astype(np.int16)
    z = y.astype(np.float32) * 0.01
    show("round trip", z - x.astype(np.float32))
    show("astype view dtype", (i * 2).astype(np.int32).view(np.uint32) >> 30)


def small_cases():
    s = np.array([-1.5, -0.5, 0.5, 1.5, 2.5])
    show("small where", np.where(s > 0, s, 0))
    show("small astype", (s * 2).astype(np.int8))
    z = np.array(3.7) * 2
    show("0-d where", np.where(z > 5, z, -z))
    show("0-d astype", z.astype(np.int32))
    e = np.zeros(0) + 1
    show("empty where", np.where(e > 0, e, 1))
    show("empty astype", e.astype(np.uint8))
    w = np.where(np.float64(2.0) > 1, 3, 4)
    print("scalar where", type(w).__name__, repr(w), w.shape)


x, i = wheres()
astypes(x, i)
small_cases()
