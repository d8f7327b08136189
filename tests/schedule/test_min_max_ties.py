"""Float min and max reductions run in kernels in any order, and still give
NumPy's bits: where the extreme value comes in several bit patterns (zeros
of both signs, NaNs other than NumPy's own), the region is computed through
NumPy (jit.reruns_for_numpy_order). A zero or NaN result from kernels that
did not note such ties sends the region to NumPy once; the plan's kernels
note them from then on. Reductions over all of an array of short rows run
as one flat loop (jit.flat_reductions)."""
import json

import pytest

import harness

PROGRAM = """
import numpy as np
def f(x):
    return {expression}
rng = np.random.default_rng(5)
x = rng.standard_normal((30_000, 7), dtype=np.{dtype})
{prepare}
for _ in range(5):
    r = f(x)
    print(repr(r), np.signbit(r), np.asarray(r).tobytes().hex())
"""

CASES = {
    # (prepare, regions sent to NumPy in 5 calls)
    "no zero or NaN": ("", 0),
    "zeros of one sign": ("x = -np.abs(x); x[::97] = 0.0", 1),
    "zeros of both signs": ("x = -np.abs(x); x[::97] = 0.0; x[5::89] = -0.0", 5),
    "NumPy's NaN": ("x[123, 4] = np.nan", 1),
    "NaN of the other sign": ("x[123, 4] = np.nan; x[7, 1] = -np.nan", 5),
}


def run_both(tmp_path, expression, dtype, prepare, isa=None):
    script = tmp_path / "ties.py"
    script.write_text(PROGRAM.format(expression=expression, dtype=dtype, prepare=prepare))
    stats = tmp_path / "stats.json"
    expected = harness.run(harness.PYTHON3, [str(script)])
    env = {"NPY_JIT_STATS": str(stats)}
    if isa:
        env["NPY_VECTOR_ISA"] = isa
    got = harness.run(harness.NPYTHON, [str(script)], env_extra=env)
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    return json.loads(stats.read_text())


# Kernels of every width note ties (the machine's widest, and narrower ones).
@pytest.mark.parametrize("isa", [None, "avx2", "sse2"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", CASES.keys())
def test_ties_go_to_numpy_only_where_order_decides(tmp_path, case, dtype, isa):
    prepare, reruns = CASES[case]
    counters = run_both(tmp_path, "(x * 1).max()", dtype, prepare, isa)
    assert counters["jit.kernel_runs"] >= 5
    assert counters.get("jit.reruns_for_numpy_order", 0) == reruns


@pytest.mark.parametrize("expression", ["x.max()", "(x * 2).min()", "np.abs(x).max() + x.min()", "np.amax(x - 1)"])
def test_short_rows_reduce_as_one_flat_loop(tmp_path, expression):
    counters = run_both(tmp_path, expression, "float32", "")
    assert counters["jit.flat_reductions"] >= 5
    assert counters.get("jit.ops_run_by_numpy", 0) == 0
    assert counters.get("jit.reruns_for_numpy_order", 0) == 0
