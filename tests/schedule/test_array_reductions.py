"""Reductions a plan leaves to NumPy that the backend computes from the
array as it lies (Backend::column_sums, Backend::row_norms): sums and
means down the columns of rows too narrow to fold, and norms along the
last axis, with python3's bits, counted by jit.column_sum_runs and
jit.row_norm_runs, not merely given by NumPy."""
import json

import pytest

import harness

PROGRAM = """
import hashlib, sys
import numpy as np
form, dtype = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(3)
x = (rng.standard_normal((40001, 7)) * 3).astype(dtype)
x[::5, 2] = -0.0
def run():
    if form == "sum":
        return x.sum(axis=0)
    if form == "mean":
        return x.mean(axis=0)
    return np.linalg.norm(x, axis=1)
r = np.asarray(run())
print(r.dtype, r.shape, hashlib.sha1(r.tobytes()).hexdigest())
"""


@pytest.mark.parametrize("form, counter", [("sum", "jit.column_sum_runs"), ("mean", "jit.column_sum_runs"),
                                           ("norm", "jit.row_norm_runs")])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_backend_reduces_the_array_as_it_lies(tmp_path, form, counter, dtype):
    script = tmp_path / "reduce.py"
    script.write_text(PROGRAM)
    stats = tmp_path / "stats.json"
    args = [str(script), form, dtype]
    expected = harness.run(harness.PYTHON3, args)
    got = harness.run(harness.NPYTHON, args, env_extra={"NPY_JIT_STATS": str(stats)})
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout
    assert json.loads(stats.read_text()).get(counter, 0) >= 1
