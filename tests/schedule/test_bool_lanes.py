"""Bools take the lanes of the group they join: a mask computed from
float32 values and worked on further (inverted, combined with other masks)
is one kernel of 32-bit lanes, not a kernel of floats and another of
doubles' lanes for the bool ops; masks beside 8- and 16-bit integers run
in 32-bit lanes too; bool, int8 and uint8 arrays combined alone (no
casts, powers or reductions) run an element to a byte.
Each program prints python3's bits; NPY_JIT_LOG=output_code shows each
step's kernel and its lanes (AVX2 widths: 32 lanes of bytes, 8 of 32
bits, 4 of 64)."""
import re

import pytest

import harness

PROGRAM = """
import hashlib
import numpy as np
rng = np.random.default_rng(5)
n = 30_001
x32 = rng.standard_normal(n).astype(np.float32)
x = rng.standard_normal(n)
b = x > 0.3
c = x < 1.2
u8 = rng.integers(0, 255, n, dtype=np.uint8, endpoint=True)
i8 = rng.integers(-128, 127, n, dtype=np.int8, endpoint=True)
i16 = rng.integers(-2**15, 2**15 - 1, n, dtype=np.int16, endpoint=True)
def compute():
    return EXPRESSION
r = np.asarray(compute())
print(r.dtype, r.shape, hashlib.sha1(np.ascontiguousarray(r).tobytes()).hexdigest())
"""

# (expression, the lanes of its one kernel at AVX2's width)
CASES = [
    ("~(x32 > 0)", 8),
    ("(x32 > 0) & ~(x32 < 1) | (x32 == 0)", 8),
    ("np.logical_xor(x32 > 0.5, x32 < -0.5)", 8),
    ("np.where(~(x32 > 0), x32, x32 * 2)", 8),
    ("~b", 32),
    ("b & c", 32),
    ("b & ~c | (b ^ c)", 32),
    ("np.logical_and(b, np.logical_not(c))", 32),
    ("(u8 > 3) & (u8 < 100) & ~b", 32),
    ("np.where(u8 > u8[::-1], u8 - u8[::-1], u8[::-1] - u8)", 32),
    ("np.maximum(u8, 40) + np.uint8(7)", 32),
    ("np.minimum(i8, i8[::-1]) - 3", 32),
    ("np.where(i8 >= 0, i8, 0) ^ i8", 32),
    ("u8 * np.uint8(3) + u8 * u8[::-1]", 32),
    ("i8 * np.int8(-3) - np.square(i8)", 32),
    ("(u8 + u8).astype(np.int16)", 8),
    ("(i16 > 0) | (u8 == 7)", 8),
    ("~(x > 0) & b", 4),
    ("b[::-1] == c", 32),
    ("(b != c) | ~b[3:4]", 32),
]


@pytest.mark.parametrize("expression, lanes", CASES)
def test_bool_ops_take_the_lanes_of_their_group(tmp_path, expression, lanes):
    script = tmp_path / "program.py"
    script.write_text(PROGRAM.replace("EXPRESSION", expression))
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)],
                      env_extra={"NPY_JIT_LOG": "output_code", "NPY_VECTOR_ISA": "avx2"})
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout), got.stderr
    schedules = re.findall(r"\] schedule of (\d+) steps:", got.stderr)
    kernels = re.findall(r"\] kernel \(x86-64 AVX2, (\d+) lanes\)", got.stderr)
    # The call's region is the last one, before the digest's.
    assert schedules and schedules[-1] == "1", got.stderr
    assert kernels and int(kernels[-1]) == lanes, kernels
