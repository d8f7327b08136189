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
