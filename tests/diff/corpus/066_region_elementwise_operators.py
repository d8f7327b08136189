"""Element-wise operators (arithmetic, comparison, logical, bitwise, unary)
recorded inside functions, across dtypes, with Python and NumPy scalars on
either side: values, dtypes and shapes must be NumPy's."""
import numpy as np

N = 50_000


def show(label, a):
    a = np.asarray(a)
    if a.dtype == bool:
        total = int(a.sum())
    else:
        total = a.sum(dtype=np.float64) if a.dtype.kind == "f" else a.sum()
    print(label, a.dtype, a.shape, repr(total), repr(a.ravel()[:4]), repr(a.ravel()[-2:]))


def make(dtype):
    base = np.arange(N) % 97 - 40
    if np.dtype(dtype).kind == "u":
        base = np.arange(N) % 251
    if np.dtype(dtype).kind == "b":
        return base % 3 == 0
    return base.astype(dtype)


def arith(dtype):
    a = make(dtype)
    b = make(dtype)[::-1].copy()
    show(f"{dtype} a+b", a + b)
    show(f"{dtype} a-b", a - b)
    show(f"{dtype} a*b", a * b)
    show(f"{dtype} a*3+1", a * 3 + 1)
    show(f"{dtype} 2-a", 2 - a)
    show(f"{dtype} a/4", a / 4)
    show(f"{dtype} a*0.5", a * 0.5)
    show(f"{dtype} a+True", a + True)


def integer_only(dtype):
    a = make(dtype)
    b = (make(dtype) % 7) + 1
    show(f"{dtype} a//b", a // b)
    show(f"{dtype} a%b", a % b)
    show(f"{dtype} a&b", a & b)
    show(f"{dtype} a|b", a | b)
    show(f"{dtype} a^b", a ^ b)
    show(f"{dtype} ~a", ~a)
    show(f"{dtype} a<<2", a << 2)
    show(f"{dtype} a>>1", a >> 1)
    show(f"{dtype} a**2", a ** 2)
    show(f"{dtype} -a", -a)
    show(f"{dtype} +a", +a)
    show(f"{dtype} abs(a)", abs(a))


def compare(dtype):
    a = make(dtype)
    b = make(dtype)[::-1]
    show(f"{dtype} a<b", a < b)
    show(f"{dtype} a<=b", a <= b)
    show(f"{dtype} a==b", a == b)
    show(f"{dtype} a!=b", a != b)
    show(f"{dtype} a>3", a > 3)
    show(f"{dtype} 3>=a", 3 >= a)
    m = (a > 0) & (b < 10) | ~(a == b)
    show(f"{dtype} mask chain", m)
    show(f"{dtype} mask xor", (a > 5) ^ (b > 5))


def floats(dtype):
    a = make(dtype) / 7
    b = make(dtype)[::-1] / 3 + 0.25
    show(f"{dtype} a/b", a / b)
    show(f"{dtype} a//b", a // b)
    show(f"{dtype} a%b", a % b)
    show(f"{dtype} a**2", a ** 2)
    show(f"{dtype} a**0.5 of abs", abs(a) ** 0.5)
    show(f"{dtype} -a*b+a", -a * b + a)
    show(f"{dtype} poly", ((a * 2.5 - 1.25) * a + 0.75) * a - 3)


def bools():
    p = make(bool)
    q = np.arange(N) % 5 == 1
    show("bool p&q", p & q)
    show("bool p|q", p | q)
    show("bool p^q", p ^ q)
    show("bool ~p", ~p)
    show("bool p+q", p + q)
    show("bool p*q", p * q)
    show("bool p+1", p + 1)
    show("bool p*2.5", p * 2.5)
    show("bool p==q", p == q)
    show("bool p>q", p > q)


for dt in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]:
    arith(dt)
    compare(dt)
for dt in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]:
    integer_only(dt)
for dt in ["float32", "float64"]:
    floats(dt)
bools()


def scalars():
    f32 = make("float32")
    f64 = make("float64")
    i8 = make("int8")
    show("f32*np.float32(2)", f32 * np.float32(2))
    show("f32*np.float64(2)", f32 * np.float64(2))
    show("f32*2.0", f32 * 2.0)
    show("f32+np.int8(3)", f32 + np.int8(3))
    show("i8+np.int8(3)", i8 + np.int8(3))
    show("i8+np.int16(3)", i8 + np.int16(3))
    show("i8*np.float32(1.5)", i8 * np.float32(1.5))
    show("i8+1.5", i8 + 1.5)
    show("f64+np.float32(0.1)", f64 + np.float32(0.1))
    show("np.float32(0.1)*f32", np.float32(0.1) * f32)
    show("0-d array f32", f32 + np.array(2.0, dtype=np.float32))
    show("0-d array f64", f32 + np.array(2.0))
    show("i8 > np.int64(5)", i8 > np.int64(5))
    show("i8 == 300", i8 == 300)
    show("i8 < -1000", i8 < -1000)


scalars()


def small_and_0d():
    s = np.arange(10, dtype=np.int16) - 3
    z = np.array(7, dtype=np.uint8)
    show("small", s * 3 + 1)
    show("0-d", z + 1)
    show("0-d * 0-d", z * np.array(40, dtype=np.uint8))
    r = np.float64(2.5) * 3 + np.float32(1)
    print("scalar", type(r).__name__, repr(r))


small_and_0d()
