"""Cases where a re-implementation of NumPy easily differs from NumPy itself,
computed through recorded regions: np.clip on int8 (result dtype, bounds
outside the dtype), np.sign of NaN and of -0.0, np.square of int8 staying
int8 and wrapping, int8 sums accumulating in int64 by default but wrapping
with dtype=int8, uint16/uint32/uint64 wrap-around, np.trunc/ceil/rint of
negatives giving -0.0, signed zeros through sums and min/max, NaN
propagation in minimum/maximum/min/max/argmax vs fmin/fmax, floor division
and modulo of negatives, abs of the most negative int8, integer division by
zero, float16 arithmetic and mean."""
import numpy as np

N = 50_000


def r(a):
    """repr of a few elements and of a digest that shows signed zeros and NaN"""
    a = np.asarray(a)
    flat = a.ravel()
    if a.dtype.kind == "f":
        neg_zero = int(((flat == 0) & np.signbit(flat)).sum())
        nans = int(np.isnan(flat).sum())
        total = repr(np.nansum(flat, dtype=np.float64))
        return f"{a.dtype} {a.shape} sum={total} nan={nans} -0={neg_zero} {flat[:4]!r} {flat[-2:]!r}"
    return f"{a.dtype} {a.shape} sum={int(flat.astype(np.int64).sum())} {flat[:4]!r} {flat[-2:]!r}"


def clip_cases():
    i8 = (np.arange(N) % 256 - 128).astype(np.int8)
    print("clip int8 py", r(np.clip(i8 * 1, -5, 5)))
    print("clip int8 wide py", r(np.clip(i8 + 0, -1000, 1000)))
    print("clip int8 np.int16", r(np.clip(i8 + 0, np.int16(-5), np.int16(300))))
    print("clip int8 float", r(np.clip(i8 + 0, -2.5, 2.5)))
    print("clip int8 min>max", r(np.clip(i8 + 0, 10, -10)))
    print("clip int8 None", r(np.clip(i8 + 0, None, 3)))
    u8 = (np.arange(N) % 256).astype(np.uint8)
    print("clip uint8", r(np.clip(u8 + 1, 10, 200)))
    f = np.linspace(-3, 3, N)
    f[::1000] = np.nan
    print("clip float nan", r(np.clip(f * 2, -1, 1)))
    print("clip arrays", r(np.clip(f, f * 0 - 0.5, np.abs(f) * 0.1)))
    print("clip method", r((f + 1).clip(0)))


def sign_cases():
    f = np.linspace(-2, 2, N)
    f[::997] = np.nan
    f[1] = -0.0
    f[2] = 0.0
    s = np.sign(f * 1)
    print("sign nan", r(s), repr(s[0]), repr(s[1]), repr(s[2]))
    print("sign -0.0 scalar", repr(np.sign(np.float64(-0.0))), repr(np.sign(np.array([-0.0, 0.0, np.nan, -np.inf]))))
    i8 = (np.arange(N) % 256 - 128).astype(np.int8)
    print("sign int8", r(np.sign(i8 * 1)))
    u8 = (np.arange(N) % 256).astype(np.uint8)
    print("sign uint8", r(np.sign(u8 + 0)))
    b = np.arange(N) % 3 == 0
    print("sign f32", r(np.sign(f.astype(np.float32) - 0.5)))
    print("abs -0.0", repr(np.abs(np.array([-0.0]))), r(np.abs(f * -1)), b.dtype)


def square_cases():
    i8 = (np.arange(N) % 256 - 128).astype(np.int8)
    sq = np.square(i8 + 0)
    print("square int8", r(sq))
    print("square int8 * 2", r(sq * 2))
    print("power int8", r(np.power(i8 + 0, 3)), r((i8 + 0) ** 2))
    u16 = (np.arange(N) % 65536).astype(np.uint16)
    print("square uint16", r(np.square(u16 + 0)))
    print("square bool", r(np.square(i8 > 0)))
    try:
        print(np.power(i8 + 0, -1))
    except ValueError as e:
        print("power int neg", e)
    print("reciprocal int", r(np.reciprocal(i8[i8 != 0] + 0)))


def sum_accumulation():
    i8 = np.full(N, 100, dtype=np.int8)
    x = i8 + 0
    print("int8 sum", type(x.sum()).__name__, repr(x.sum()))
    print("int8 sum dtype=int8", repr(x.sum(dtype=np.int8)))
    print("int8 add.reduce", repr(np.add.reduce(x)))
    print("int8 add.reduce dtype", repr(np.add.reduce(x, dtype=np.int8)))
    print("int8 cumsum", repr(np.cumsum(x)[-1]), np.cumsum(x).dtype)
    print("int8 prod", repr((x[:10] // 50).prod()), repr(np.prod(x[:5])))
    print("int8 mean", repr(x.mean()), repr(np.mean(x, dtype=np.int8)))
    u8 = np.full(N, 200, dtype=np.uint8) + 0
    print("uint8 sum", type(u8.sum()).__name__, repr(u8.sum()))
    u32 = np.full(N, 4_000_000_000, dtype=np.uint32) + 0
    print("uint32 sum", type(u32.sum()).__name__, repr(u32.sum()))
    i32 = np.full(N, 2_000_000_000, dtype=np.int32) + 0
    print("int32 sum", repr(i32.sum()), repr(i32.sum(dtype=np.int32)))
    b = np.ones(N, dtype=bool) & True
    print("bool sum", type(b.sum()).__name__, repr(b.sum()), repr(b.mean()))
    f16 = np.full(N, 0.1, dtype=np.float16) * 1
    print("float16 sum", repr(f16.sum()), repr(f16.mean()), repr(f16.sum(dtype=np.float32)))
    f32 = np.full(N, 0.1, dtype=np.float32) * 1
    print("float32 sum", repr(f32.sum()), repr(f32.mean()), repr(np.add.reduce(f32)))


def unsigned_cases():
    for dt in [np.uint16, np.uint32, np.uint64]:
        a = (np.arange(N) % 1000).astype(dt)
        b = a[::-1].copy()
        print(dt.__name__, "a-b", r(a - b))
        print(dt.__name__, "a*big", r(a * dt(np.iinfo(dt).max // 3)))
        print(dt.__name__, "-a", r(-a))
        print(dt.__name__, "a//b", r(a // (b + 1)), "a%b", r(a % (b + 1)))
        print(dt.__name__, "a-1 > a", r((a - 1) > a))
        print(dt.__name__, "mixed int8", r(a + np.arange(N, dtype=np.int8)))
        print(dt.__name__, "a << 60", r(a << dt(min(60, np.iinfo(dt).bits - 1))))


def rounding_cases():
    f = np.linspace(-2.5, 2.5, N)
    f[:6] = [-2.5, -1.5, -0.5, 0.5, 1.5, -0.2]
    print("trunc", r(np.trunc(f * 1)))
    print("ceil", r(np.ceil(f * 1)))
    print("floor", r(np.floor(f * 1)))
    print("rint", r(np.rint(f * 1)))
    print("round", r(np.round(f * 1)))
    print("round 1", r(np.round(f * 1, 1)))
    print("fix", r(np.fix(f * 1)))
    print("trunc f32", r(np.trunc(f.astype(np.float32) * 3)))
    print("trunc int", r(np.trunc(np.arange(N) - 5)))
    print("scalars", repr(np.trunc(np.float64(-0.7))), repr(np.ceil(np.float32(-0.3))), repr(np.rint(-0.5)))


def signed_zero_cases():
    z = np.zeros(N)
    nz = -z
    print("neg zeros", r(nz))
    print("sum of -0.0", repr((z * -1.0).sum()), repr(nz.sum()), repr(np.add.reduce(nz)))
    print("mean of -0.0", repr(nz.mean()))
    print("max/min of ±0", repr(np.maximum(nz, z)[:2]), repr(np.minimum(z, nz)[:2]), repr(nz.max()), repr((z + nz).min()))
    print("sqrt -0.0", repr(np.sqrt(nz)[:2]))
    print("-0.0 * 5", r(nz * 5), "0 * -5", r(z * -5))
    print("-0.0 + 0.0", r(nz + z), "-0.0 - 0.0", r(nz - z))
    m = nz.reshape(250, 200)
    print("axis sums of -0.0", repr(m.sum(axis=1)[:2]), repr(m.sum(axis=0)[:2]))
    print("1/-0.0", repr(np.divide(1.0, nz[:3])))


def nan_cases():
    f = np.linspace(-1, 1, N)
    f[123] = np.nan
    g = f[::-1] * 1
    print("maximum nan", r(np.maximum(f, g)))
    print("minimum nan", r(np.minimum(f, 0.5)))
    print("fmax nan", r(np.fmax(f, g)))
    print("fmin nan", r(np.fmin(f, g)))
    print("max nan", repr((f * 2).max()), repr(np.min(f + 1)))
    print("nanmax", repr(np.nanmax(f * 2)), repr(np.nanmin(f + 1)))
    print("argmax nan", repr((f * 2).argmax()), repr(np.argmin(f + 1)))
    print("nan compare", int((f > 0).sum()), int((f != f).sum()), int((f == f).sum()))
    print("nan sum/mean", repr((f * 1).sum()), repr(f.mean()))
    with np.errstate(invalid="ignore"):
        print("nan to int", r((f * 10).astype(np.int64)[:200]))


def integer_division_cases():
    a = np.arange(N) % 21 - 10
    b = (np.arange(N) % 7) - 3
    with np.errstate(divide="ignore"):
        print("floor_divide neg", r(a // b))
        print("mod neg", r(a % b))
    b = np.where(b == 0, 1, b)
    print("fmod", r(np.fmod(a, b)), "remainder", r(np.remainder(a, b)))
    print("divmod", r(np.divmod(a, b)[0]), r(np.divmod(a, b)[1]))
    fa = a * 1.5
    print("float floor_divide neg", r(fa // b), r(fa % b), r(fa % -2.5))
    i8 = np.full(N, -128, dtype=np.int8) + 0
    print("abs int8 min", r(np.abs(i8)), "neg", r(-i8))
    print("int8 min // -1", r(i8 // -1))
    i64 = np.full(N, 2 ** 62, dtype=np.int64) + 0
    print("int64 overflow", r(i64 * 4), r(i64 + i64))


def float16_cases():
    h = np.linspace(0, 100, N).astype(np.float16)
    print("f16 * f16", r(h * h))
    print("f16 + py", r(h + 0.1))
    print("f16 exp", r(np.exp(h / 10)))
    print("f16 mean", repr((h * 1).mean()), repr(h.std()))


clip_cases()
sign_cases()
square_cases()
sum_accumulation()
unsigned_cases()
rounding_cases()
signed_zero_cases()
nan_cases()
integer_division_cases()
float16_cases()
