# Arithmetic on large temporaries (at least 256 KiB), where NumPy computes
# into a temporary instead of allocating: dtypes, values, warnings and errors
# must be what plain NumPy gives.
# diff: not under sanitizers (NumPy's own elision reads the C call stack,
# which AddressSanitizer's build changes, so plain CPython in that build
# allocates more than python3 does)
import tracemalloc
import warnings

import numpy as np

N = 100_000  # 800 KB of float64, 100 KB of int8
rng = np.random.default_rng(7)
f = rng.standard_normal(N)
g = rng.standard_normal(N)
i32 = rng.integers(-1000, 1000, N, dtype=np.int32)
i8 = rng.integers(-100, 100, 4 * N, dtype=np.int8)
u8 = rng.integers(0, 255, 4 * N, dtype=np.uint8)
f32 = rng.standard_normal(N).astype(np.float32)
z = f + 1j * g  # 1.6 MB of complex128


def show(label, a):
    a = np.asarray(a)
    print(label, a.dtype, a.shape, repr(a.sum()) if a.dtype != bool else int(a.sum()), repr(a.ravel()[:3]))


show("f chain", (f + g) * 2 - g / 3 + 1.5)
show("swap scalar", 2 * (f * g) + 3 * (g - f))
show("int chain", (i32 + i32) * 3 - 7)
show("int + float", (i32 * 2) + 0.5)
show("int / int", (i32 + 1) / 2)
show("int8 wrap", (i8 + i8) * 3)
show("uint8 minus", (u8 + u8) - 1)
show("uint8 - int8", (u8 + u8) - i8)
show("float32 and float", (f32 * 2) + 1.25)
show("float32 and float64", (f32 * 2) + f)
show("bool ops", ((f > 0) & (g > 0)) | ((f < -1) ^ (g < -1)))
show("0-d other", (f + g) * np.float64(2.5))
show("0-d other int", (i32 + i32) + np.int64(3))
show("broadcast", (f.reshape(1000, 100) + 1) + g[:100])
show("complex chain", (z * z) + z - 1j)
show("complex on the right", z + (z * z))
show("complex product on the right", z * (z + 1))
show("complex negative", -(z * 2))
try:
    (i8 + i8) + 300
except OverflowError as e:
    print("OverflowError", e)
with np.errstate(divide="warn", invalid="warn"):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = (f * 0) / (g * 0)
        print("warnings", [str(w.message) for w in caught], int(np.isnan(r).sum()))
with np.errstate(divide="raise"):
    try:
        (f + 1) / (g * 0)
    except FloatingPointError as e:
        print("FloatingPointError", e)
show("negative", -(f * g) + 1)
show("negative int", -(i32 * 3))
show("negative uint8", -(u8 + u8))
show("invert", ~(i8 + i8))
show("invert bool", ~((f > 0) & (g > 0)))
with np.errstate(over="warn"):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        show("negative of min int", -(np.full(N, np.iinfo(np.int32).min, dtype=np.int32) + 0))
        print("warnings", [str(w.message) for w in caught])
kept = f + g
alias = kept
show("named stays", (kept + 1) - alias)
show("kept unchanged", kept)


def chain(a, b):
    return -(((a + b) * 2 - 1) / 3)


# NumPy reports its allocations to tracemalloc: with elision the chain needs
# one new array, without it a second one (fused into one kernel whose result
# nothing uses, it may need none).
tracemalloc.start()
chain(f, g)
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print("at most one array allocated at peak by the chain:", round(peak / f.nbytes) <= 1)


# Complex temporaries too (eager: regions hold no complex values).
def complex_chain(a):
    return ((a + 1) * 2 - 1j) / 3


tracemalloc.start()
complex_chain(z)
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print("at most one complex array allocated at peak:", round(peak / z.nbytes) <= 1)
