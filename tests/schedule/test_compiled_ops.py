"""Region operations computed by kernels, not left to NumPy inside the
region: each expression below, computed in a function, must run in a kernel
(jit.kernel_runs) with no operation through NumPy (jit.ops_run_by_numpy),
counted over that call alone, and print python3's bits."""
import json

import pytest

import harness

PROGRAM = """
import hashlib, json, os
import numpy as np
try:
    import npython
except ImportError:
    npython = None
rng = np.random.default_rng(11)
n = 20_000
x = rng.standard_normal(n)
y = rng.standard_normal(n)
x[:4] = [np.nan, -0.0, np.inf, 0.0]
y[:4] = [1.0, 0.0, np.nan, -0.0]
i = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64, endpoint=True)
j = rng.integers(-1000, 1000, n)
u = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
v = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
u32 = rng.integers(0, 2**32 - 1, n, dtype=np.uint32, endpoint=True)
v32 = rng.integers(0, 2**32 - 1, n, dtype=np.uint32, endpoint=True)
b8 = rng.integers(-128, 127, n, dtype=np.int8, endpoint=True)
u8 = rng.integers(0, 255, n, dtype=np.uint8, endpoint=True)
i16 = rng.integers(-2**15, 2**15 - 1, n, dtype=np.int16, endpoint=True)
u16 = rng.integers(0, 2**16 - 1, n, dtype=np.uint16, endpoint=True)
i32 = rng.integers(-2**31, 2**31 - 1, n, dtype=np.int32, endpoint=True)
z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
w = rng.standard_normal(n) - 2j * rng.standard_normal(n)
z2, w2 = z.reshape(100, 200), w.reshape(200, 100)
def compute():
    return EXPRESSION
before = npython.stats() if npython else {}
r = np.asarray(compute())
if npython:
    after = npython.stats()
    with open(os.environ["COUNTS_FILE"], "w") as f:
        json.dump({k: after[k] - before.get(k, 0) for k in after}, f)
print(r.dtype, r.shape, hashlib.sha1(r.tobytes()).hexdigest())
"""

EXPRESSIONS = [
    "i.astype(np.float64) * 0.5",
    "u.astype(np.float64) + 1.0",
    "(j + i) * 0.25",
    "j / 7",
    "np.arange(n) * 0.1 + x",
    "np.where(u < v, x, y) * 2",
    "(u32 >= v32) & (x > 0)",
    "~j + 1",
    "~u | v",
    "np.fmin(x, y) * 3",
    "np.fmax(x * 2, y)",
    "np.sign(x) * y",
    "(j // 7) * 2",
    "(j % 13) + (j // -5)",
    "(u // v) + (u % 7)",
    "np.fmin(j, j[::-1]) * 3",
    "np.sign(j) + 1",
    "(x * 3).astype(np.float32)",
    "np.sqrt(np.abs(x) + 1).astype(np.float32) + np.float32(0.5)",
    "(i.astype(np.float64) * 0.5).astype(np.float32)",
    "(x[4:] * 1e3).astype(np.int64)",
    "((x[4:] + 5) / 0.25).astype(np.int64) + j[4:]",
    "(x[4:].astype(np.float32) * 100).astype(np.int32)",
    "(i * 3).astype(np.int32)",
    "(i + 1).astype(np.uint32)",
    "(u >> 3).astype(np.uint32)",
    "(u ^ v).astype(np.int32)",
    "np.conjugate(x) * 2 + np.conj(j)",
    "np.conj(x > 0) & (y < 0)",
]

# Integer absolute values (the most negative value stays itself) and clips
# against arrays: NumPy's general loop keeps a float bound equal to x
# (x[1] is -0.0 where y[1] is 0.0; NaNs in x, y and both), at every vector
# width.
WIDTH_EXPRESSIONS = [
    "np.abs(i) + 1",
    "np.abs(np.append(j, [-2**63, 2**63 - 1])) * 3",
    "np.abs((j * 3).astype(np.int32)) - 1",
    "np.abs(u32 - v32) * np.uint32(3)",
    "np.abs(u ^ v) + np.uint64(1)",
    "np.clip(x, y, np.abs(x) * 0.5 + 1) * 2",
    "np.clip(x * 2, -np.abs(y), np.abs(y)) - 1",
    "np.clip(x.reshape(100, 200), y.reshape(100, 200)[::-1], 1.0) + 0.5",
    "np.clip(j, j[::-1], 500) * 2",
    "np.clip(j.reshape(100, 200), j[:200], 300) + 1",
    "np.clip(u, v, u ^ v) + np.uint64(1)",
    "np.clip(u32, 5, v32) + np.uint32(1)",
]

def run_compiled(tmp_path, program, isa=None):
    """Runs `program` under python3 and npython (at `isa`'s width): the same
    output, its counted part computed in kernels with no operation through
    NumPy. Returns the counters."""
    script = tmp_path / "program.py"
    script.write_text(program)
    stats = tmp_path / "counts.json"
    env = {"COUNTS_FILE": str(stats)}
    if isa:
        env["NPY_VECTOR_ISA"] = isa
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra=env)
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout
    counters = json.loads(stats.read_text())
    assert counters.get("jit.kernel_runs", 0) >= 1
    assert counters.get("jit.ops_run_by_numpy", 0) == 0
    return counters


# float64 values cast to float32 in kernels of doubles, at every vector
# width: rounding (ties, values near float32's own), NaN payloads,
# infinities, subnormal results and, where a value overflows, NumPy's
# "overflow encountered in cast" (the region then recomputed through NumPy).
CAST_PROGRAM = """
import hashlib, json, os, warnings
import numpy as np
try:
    import npython
except ImportError:
    npython = None
rng = np.random.default_rng(3)
n = 100_003
x = rng.standard_normal(n) * 10.0 ** rng.integers(-50, 50, n)
x[1::7] = np.float64(np.float32(x[1::7])) * (1 + 2.0**-24)
quiet_nans = np.array([0x7FF8_0000_DEAD_BEEF, 0xFFF8_1234_5678_9ABC], dtype=np.uint64).view(np.float64)
x[:8] = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 3.4028235677973366e+38, 1e-46]
x[8:10] = quiet_nans
x = x[np.isnan(x) | (np.abs(x) < LIMIT)]
def f(x):
    return np.abs(x).astype(np.float32), (x * 0.5 + 1).astype(np.float32)
before = npython.stats() if npython else {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    a, b = f(x)
if npython:
    after = npython.stats()
    with open(os.environ["COUNTS_FILE"], "w") as counts:
        json.dump({k: after[k] - before.get(k, 0) for k in after}, counts)
print(hashlib.sha1(a.tobytes() + b.tobytes()).hexdigest(), [str(w.message) for w in caught])
"""


@pytest.mark.parametrize("isa", [None, "avx2", "sse2"])
@pytest.mark.parametrize("limit, reruns", [("3e38", 0), ("np.inf", 1)])
def test_float64_to_float32_casts_in_kernels(tmp_path, isa, limit, reruns):
    counters = run_compiled(tmp_path, CAST_PROGRAM.replace("LIMIT", limit), isa)
    assert counters.get("jit.reruns_for_fp_reports", 0) == reruns


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_operation_is_compiled(tmp_path, expression):
    run_compiled(tmp_path, PROGRAM.replace("EXPRESSION", expression))


# Element-wise results of inputs laid out otherwise than C order: the
# kernel's loop walks their dimensions in the order NumPy lays them out (the
# strides printed match): the inputs' order, C order where they disagree,
# or, where NumPy computes into a temporary operand (x.T * 2 of 320 KB is
# elided into), that operand's; astype's as NumPy makes an array like its
# operand (a broadcast dimension innermost).
LAYOUT_EXPRESSIONS = [
    "x.reshape(100, 200).T * 2 + 1",
    "x.reshape(100, 200).T * 2 + y.reshape(200, 100)",
    "np.tile(y, 2).reshape(200, 200) + np.tile(x, 2).reshape(200, 200).T * 2",
    "np.asfortranarray(x.reshape(100, 200)) * 3 - x.reshape(100, 200)",
    "np.where(x.reshape(100, 200).T > 0, y.reshape(200, 100), 1.0)",
    "np.clip(x.reshape(10, 20, 100).transpose(2, 0, 1), -1, 1) * 2",
    "x.reshape(200, 100)[::-1, ::2].T + 1",
    "np.tanh(np.broadcast_to(j[:200].reshape(1, 200), (100, 200))[1:].astype(np.uint64))",
]


@pytest.mark.parametrize("expression", LAYOUT_EXPRESSIONS)
def test_results_in_numpy_layout(tmp_path, expression):
    program = PROGRAM.replace("print(r.dtype,", "print(r.strides, r.dtype,")
    counters = run_compiled(tmp_path, program.replace("EXPRESSION", expression))
    assert counters.get("jit.results_laid_out_as_numpy", 0) >= 1


# Integers narrower than the kernel's lanes (8, 16 and 32 bits), held
# sign- or zero-extended: arithmetic that wraps as NumPy's, shifts past the
# type's width, the most negative value's absolute value and negation,
# comparisons and min/max of wrapped values, casts between integer types,
# 32-bit values in kernels of 64-bit lanes (with uint64, int64 sums,
# float64), stores of 8- and 16-bit results.
NARROW_EXPRESSIONS = [
    "(b8 + b8) * np.int8(3)",
    "u8 * np.uint8(2) + np.uint8(7)",
    "(i16 - np.int16(30000)) * i16",
    "(u16 << np.uint16(9)) >> np.uint16(3)",
    "(b8 >> np.int8(9)) + (b8 << np.int8(5)) + (b8 << np.int8(-1))",
    "-u8 + np.abs(b8)",
    "~u16 | (u16 ^ np.uint16(0x5555))",
    "np.minimum(b8 + b8, np.int8(5)) * b8",
    "np.maximum(u8 + u8, np.uint8(100)) > u8",
    "(u8 > 100) & ((b8 + b8) < 0)",
    "np.where(b8 + b8 > 0, b8, -b8)",
    "np.clip(u8 + np.uint8(100), 50, 200)",
    "(b8 * b8).sum()",
    "((u8 + u8) * 3).astype(np.int8)",
    "(i32 * 3).astype(np.int16) + np.int16(1)",
    "(i * 7).astype(np.uint8) ^ u8",
    "((i32 * 5) + i).sum()",
    "(i32 + i32).astype(np.int64) * 3",
    "u32 * np.uint32(3) + u",
    "(u8 * np.uint8(3)).astype(np.float32) / np.float32(255)",
    "(b8 + b8) * 0.5 + x",
    "(i16 * i16).min() + (u16 + u16).max()",
]


# Integers to constant powers (Python ints of 0 or more), squared and
# multiplied in kernels at every width, wrapping as NumPy's: no `**` is left
# to NumPy (NPY_JIT_LOG=fallback names each operation NumPy runs).
POWER_EXPRESSIONS = [
    "j ** 2",
    "(j - 3) ** 3 + j ** 0",
    "i ** 63",
    "u ** 12345 + (u32 ** 9 >> 3)",
    "(j.astype(np.int32) ** 5) ^ i32",
    "b8 ** 3 + u8 ** 7",
    "(i16 ** 11) - (u16 ** 2)",
    "((j ** 2) % 1000 + (i ** 2)).sum()",
]

# Integer products (np.prod, ndarray.prod) along the last axis, in kernels:
# they wrap, so any order is NumPy's. Odd factors, so that no product
# wraps to 0.
PRODUCT_EXPRESSIONS = [
    "(j | 1).prod()",
    "((j | 1) * 3).prod() + (i | 1).prod()",
    "(u | 1).prod()",
    "np.prod(u32 | 1)",
    "(b8 | 1).prod()",
    "((i16 | 1) * 3).reshape(100, 200).prod(axis=1)",
    "(j | 1).reshape(200, 100).prod(axis=-1, keepdims=True)",
    "(x > 0).prod() + (x > -9).prod()",
    "np.prod((j | 1)[::3])",
]


# complex128 work as real and imaginary parts in kernels of doubles (AVX2
# and AVX-512: NumPy's products round as FMA does), stored as complex128
# where it leaves the region, or read as floats (np.abs).
COMPLEX_EXPRESSIONS = [
    "z * w + z",
    "z ** 2 - np.square(w) * 2.5",
    "-(z - w) * (3 - 1j)",
    "np.abs(z * w) > 1",
    "np.abs(z - x) * y",
    "x * 1j + j",
    "(z * i32) + (x > 0)",
    "z2.T * w2 + 1",
    "z[::3] * w[1::3]",
    "np.multiply(z, np.complex128(0.5 + 2j)) + np.add(z, w)",
    "z / w - 1",
    "1.0 / (z - (0.3 - 0.2j)) + z ** 2",
    "np.divide(z2.T, x[:100]) * 2j",
    "np.abs(z / (x + 1j)) > 1",
    "(z * 2 == w) | np.isnan(z * w) | (z != 1j)",
    "np.isfinite(1 / (z - x)) & ~np.isinf(w)",
    "z * np.conj(w) + np.conjugate(x)",
    "np.where(x > 0, z, w * 2)",
    "np.where(np.abs(z) > 1, 0, z) + np.where(y < 0, x, 1j)",
    "np.where(x > y, z, np.float32(2.5)) * w",
    "np.zeros_like(z) + z * np.ones(n, dtype=complex)",
    "np.full(n, 1.5 - 2j) * np.full_like(w, -0.0 + 3j) + np.ones_like(z) * 2j",
    "np.exp(z)",
    "np.exp(1j * x) * w",
    "np.exp(z2.T * 2 - w2) + 1",
    "np.abs(np.exp(z[::2] / w[1::2]))",
]


@pytest.mark.parametrize("isa", [None, "avx2"])
@pytest.mark.parametrize("expression", COMPLEX_EXPRESSIONS)
def test_complex_values_in_kernels(tmp_path, expression, isa):
    program = PROGRAM.replace("EXPRESSION", expression)
    run_compiled(tmp_path, program, isa)
    # No operation of the expression's line ran eagerly (outside any region).
    line = program.splitlines().index("    return " + expression) + 1
    env = {"COUNTS_FILE": str(tmp_path / "counts.json"), "NPY_JIT_LOG": "fallback"}
    if isa:
        env["NPY_VECTOR_ISA"] = isa
    logged = harness.run(harness.NPYTHON, [str(tmp_path / "program.py")], env_extra=env)
    assert logged.returncode == 0 and "[npython:fallback]" in logged.stderr, logged.stderr
    eager = [entry for entry in logged.stderr.splitlines()
             if entry.startswith("[npython:fallback]") and f" at program.py:{line}:" in entry]
    assert not eager, eager


# 2-norms along an axis other than the last, as NumPy's np.linalg.norm
# computes them there (the squares added row after row): folds in kernels.
NORM_EXPRESSIONS = [
    "np.linalg.norm(x.reshape(100, 200) * 2, axis=0)",
    "np.linalg.norm(x.reshape(10, 20, 100) - 1, axis=1, keepdims=True)",
    "x.reshape(100, 200) / np.linalg.norm(x.reshape(100, 200), axis=-2)",
    "np.linalg.norm((x * 3).astype(np.float32).reshape(200, 100), axis=0)",
]


@pytest.mark.parametrize("isa", [None, "avx2", "sse2"])
@pytest.mark.parametrize("expression", NORM_EXPRESSIONS)
def test_norms_across_rows_in_kernels(tmp_path, expression, isa):
    counters = run_compiled(tmp_path, PROGRAM.replace("EXPRESSION", expression), isa)
    assert counters.get("jit.folds", 0) >= 1


@pytest.mark.parametrize("isa", [None, "avx2", "sse2"])
@pytest.mark.parametrize("expression", POWER_EXPRESSIONS)
def test_integer_powers_in_kernels(tmp_path, expression, isa):
    program = PROGRAM.replace("r = np.asarray(compute())", "r = compute()")
    program = program.replace("EXPRESSION", expression)
    run_compiled(tmp_path, program, isa)
    logged = harness.run(harness.NPYTHON, [str(tmp_path / "program.py")],
                         env_extra={"COUNTS_FILE": str(tmp_path / "counts.json"), "NPY_JIT_LOG": "fallback"})
    assert logged.returncode == 0 and "[npython:fallback]" in logged.stderr, logged.stderr
    assert "`**`" not in logged.stderr


@pytest.mark.parametrize("isa", [None, "avx2", "sse2"])
@pytest.mark.parametrize("expression", NARROW_EXPRESSIONS)
def test_narrow_integers_in_kernels(tmp_path, expression, isa):
    run_compiled(tmp_path, PROGRAM.replace("EXPRESSION", expression), isa)


@pytest.mark.parametrize("isa", [None, "avx2", "sse2"])
@pytest.mark.parametrize("expression", WIDTH_EXPRESSIONS + PRODUCT_EXPRESSIONS)
def test_operation_is_compiled_at_each_width(tmp_path, expression, isa):
    run_compiled(tmp_path, PROGRAM.replace("EXPRESSION", expression), isa)


# float64 to int64 and float32 to int32 in kernels, at every vector width
# (AVX2 and SSE2 build the int64 from the double's fields): truncation,
# values near 2**52, 2**53 and 2**63, -2**63 itself; NaNs, infinities and
# values out of range give the minimum and NumPy's "invalid value
# encountered in cast" (the region recomputed through NumPy), or, where the
# program ignores it, the kernels' own values.
TRUNCATE_PROGRAM = """
import hashlib, json, os, warnings
import numpy as np
try:
    import npython
except ImportError:
    npython = None
rng = np.random.default_rng(4)
n = 100_003
x = rng.standard_normal(n) * 10.0 ** rng.integers(-5, 25, n)
x[::11] = np.round(x[::11])
specials = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 2.0**63, -2.0**63, 2.0**63 - 1024, -2.0**63 - 2048,
            2.0**53 + 2, -2.0**52 - 1, 0.999999, -0.99999, 1e19, -1e19, 4503599627370497.0]
x[:len(specials)] = specials
x = x[KEEP]
y = (x * 1e-10).astype(np.float32)
def f(x, y):
    return (x * 1.0).astype(np.int64), (x + 0.5).astype(np.int64), (y * 2).astype(np.int32)
before = npython.stats() if npython else {}
with warnings.catch_warnings(record=True) as caught, np.errstate(invalid=INVALID):
    warnings.simplefilter("always")
    a, b, c = f(x, y)
if npython:
    after = npython.stats()
    with open(os.environ["COUNTS_FILE"], "w") as counts:
        json.dump({k: after[k] - before.get(k, 0) for k in after}, counts)
print(hashlib.sha1(a.tobytes() + b.tobytes() + c.tobytes()).hexdigest(), a[:8].tolist(), [str(w.message) for w in caught])
"""


@pytest.mark.parametrize("isa", [None, "avx2", "sse2"])
@pytest.mark.parametrize("keep, invalid, reruns", [("np.abs(x) < 9e18", "'warn'", 0),
                                                   ("slice(None)", "'warn'", 1),
                                                   ("slice(None)", "'ignore'", 0)])
def test_float_to_int_casts_in_kernels(tmp_path, isa, keep, invalid, reruns):
    counters = run_compiled(tmp_path, TRUNCATE_PROGRAM.replace("KEEP", keep).replace("INVALID", invalid), isa)
    assert counters.get("jit.reruns_for_fp_reports", 0) == reruns


# Floats cast to integers of 8, 16 and 32 bits (float64 to int32, float32
# too for 8 and 16 bits): through int32 as C casts them, then the low bits
# (300.7 to uint8 is 44, out of int32's range 0); and float32 data to int64
# (loaded as doubles into 64-bit lanes); at every vector width;
# NumPy's "invalid value encountered in cast" where a value is out of
# int32's range (the region recomputed through NumPy), or the kernels' own
# values where the program ignores it.
NARROW_CAST_PROGRAM = """
import hashlib, json, os, warnings
import numpy as np
try:
    import npython
except ImportError:
    npython = None
rng = np.random.default_rng(5)
x = rng.standard_normal(100_003) * 10.0 ** rng.integers(-3, 12, 100_003)
specials = [300.7, -1.5, -0.5, 255.9, 1e10, -1e10, np.nan, np.inf, -np.inf, 3e9, -3e9, 2**31, 65536.5, 1e19,
            -0.0, 2**31 - 0.5, -2**31 - 0.5]
x[:len(specials)] = specials
x = x[KEEP]
loaded32 = np.array(x, dtype=np.float32)
def f(x):
    out = [(x * 1.0).astype(t) for t in (np.uint8, np.int8, np.int16, np.uint16, np.int32)]
    x32 = (x * 1.0).astype(np.float32)
    out += [(x32 * np.float32(1)).astype(t) for t in (np.uint8, np.int8, np.int16, np.uint16)]
    return out + [loaded32.astype(np.int64)]
before = npython.stats() if npython else {}
with warnings.catch_warnings(record=True) as caught, np.errstate(invalid=INVALID):
    warnings.simplefilter("always")
    results = f(x)
if npython:
    after = npython.stats()
    with open(os.environ["COUNTS_FILE"], "w") as counts:
        json.dump({k: after[k] - before.get(k, 0) for k in after}, counts)
print([hashlib.sha1(r.tobytes()).hexdigest() for r in results], [str(w.message) for w in caught])
"""


@pytest.mark.parametrize("isa", [None, "avx2", "sse2"])
@pytest.mark.parametrize("keep, invalid, reruns", [("np.abs(x) < 2e9", "'warn'", 0),
                                                   ("slice(None)", "'warn'", 10),  # a region per cast
                                                   ("slice(None)", "'ignore'", 0)])
def test_float_to_narrow_int_casts_in_kernels(tmp_path, isa, keep, invalid, reruns):
    program = NARROW_CAST_PROGRAM.replace("KEEP", keep).replace("INVALID", invalid)
    counters = run_compiled(tmp_path, program, isa)
    assert counters.get("jit.reruns_for_fp_reports", 0) == reruns
