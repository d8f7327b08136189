"""The functions NumPy computes with algorithms of its own run in kernels
that call NumPy's inner loops (NumPy's bits): each function and dtype below
must be computed by a kernel (jit.kernel_runs) with no operation left to
NumPy (jit.ops_run_by_numpy), and print python3's bits. With NPY_MATH=fast
the functions with npython's own vector code still run in kernels."""
import json

import pytest

import harness

PROGRAM = """
import hashlib, sys
import numpy as np
name, dtype = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)
x = rng.random(20_000, dtype=dtype)
y = rng.random(20_000, dtype=dtype)
f = getattr(np, name)
def compute(x, y):
    a = x * 0.5 + 0.25
    return f(a, y * 2.5 + 0.5) * 2.0 if f.nin == 2 else f(a) * 2.0 + f(f(a) * 0.5)
r = compute(x, y)
print(r.dtype, hashlib.sha1(r.tobytes()).hexdigest())
"""

FUNCTIONS = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
             "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
             "sign", "power", "arctan2", "floor_divide", "remainder", "fmin", "fmax"]
OWN_VECTOR_CODE = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan"]


def run_both(tmp_path, name, dtype, env):
    script = tmp_path / "functions.py"
    script.write_text(PROGRAM)
    stats = tmp_path / "stats.json"
    args = [str(script), name, dtype]
    expected = harness.run(harness.PYTHON3, args)
    got = harness.run(harness.NPYTHON, args, env_extra={"NPY_JIT_STATS": str(stats), **env})
    assert got.returncode == expected.returncode == 0, got.stderr
    return expected, got, json.loads(stats.read_text())


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_function_runs_in_a_kernel_with_numpys_bits(tmp_path, name, dtype):
    expected, got, counters = run_both(tmp_path, name, dtype, {})
    assert got.stdout == expected.stdout
    assert counters.get("jit.kernel_runs", 0) >= 1
    assert counters.get("jit.ops_run_by_numpy", 0) == 0


@pytest.mark.parametrize("name", OWN_VECTOR_CODE)
def test_fast_math_runs_own_vector_code_in_a_kernel(tmp_path, name):
    _, got, counters = run_both(tmp_path, name, "float64", {"NPY_MATH": "fast"})
    assert counters.get("jit.kernel_runs", 0) >= 1
    assert counters.get("jit.ops_run_by_numpy", 0) == 0


def test_bad_math_value_is_refused(tmp_path):
    script = tmp_path / "nothing.py"
    script.write_text("print(1)\n")
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_MATH": "exact"})
    assert got.returncode != 0
    assert "NPY_MATH must be numpy|fast" in got.stderr


STEPPED = """
import hashlib, sys
import numpy as np
name, dtype = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(9)
p = rng.standard_normal((60_000, 3), dtype=dtype) * 4
f = getattr(np, name)
def fitness(p):
    x, y, z = p[:, 0], p[:, 1], p[:, 2]
    return f(x) + x ** 2 - 2 * f(y) + np.where(z > 0, f(z), z)
for _ in range(3):
    r = fitness(p)
print(r.dtype, hashlib.sha1(r.tobytes()).hexdigest())
"""


# A column of an array steps by a row: NumPy's loop takes it as it lies (with
# AVX-512, other code than for a contiguous copy), on the threads, and the
# rest of the work runs in a kernel.
@pytest.mark.parametrize("name", ["sin", "cos", "exp", "log1p", "tanh", "arctan"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_numpy_loops_on_columns_run_on_the_threads(tmp_path, name, dtype):
    script = tmp_path / "stepped.py"
    script.write_text(STEPPED)
    stats = tmp_path / "stats.json"
    args = [str(script), name, dtype]
    expected = harness.run(harness.PYTHON3, args)
    got = harness.run(harness.NPYTHON, args, env_extra={"NPY_JIT_STATS": str(stats)})
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    counters = json.loads(stats.read_text())
    assert counters["jit.stepped_numpy_loop_runs"] == 9
    assert counters.get("jit.ops_run_by_numpy", 0) == 0
    assert counters["jit.kernel_runs"] >= 3
