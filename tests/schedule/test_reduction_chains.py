"""Reductions of reductions other than k-means' (sums, means, norms,
products, min and max and argmin/argmax over any axis, two and three
levels, element-wise work between them) run as one reduction chain's kernel
(jit.reduction_chain_runs), with python3's results, not merely give
python3's output through NumPy; the plan shows the chain's loop nest with
its loops in order, the vector dimension first. (Float min and max along
their operand's last axis are not levels: NumPy's own loop's lanes decide
which of equal values it gives.)"""
import json

import pytest

import harness

PROGRAM = """
import hashlib, sys
import numpy as np
form, dtype = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)
x = rng.standard_normal((5, 9, 3001)).astype(dtype)
y = rng.standard_normal((9, 3001)).astype(dtype)
X = rng.standard_normal((3001, 9)).astype(dtype)
M = rng.standard_normal((5, 9)).astype(dtype)
x4 = rng.standard_normal((3, 4, 5, 2100)).astype(dtype)
xj = rng.standard_normal((5, 3001, 9)).astype(dtype)
FORMS = {
    "sum_max": lambda: x.sum(1).max(0),
    "sum_argmin": lambda: x.sum(1).argmin(0),
    "mean_argmax": lambda: x.mean(0).argmax(0),
    "fold_argmax": lambda: (x * 2).sum(0).argmax(0),
    "norm_max": lambda: np.linalg.norm(x - y, axis=1).max(0),
    "prod_sum": lambda: (x * 0.25 + 1).prod(1).sum(0),
    "between": lambda: (np.abs(x).sum(1) * 3 - 1).mean(0),
    "max_min": lambda: (x - y).max(1).min(0),
    "pairwise_twice": lambda: ((X[:, None] - M[None]) ** 2).sum(2).sum(1),
    "root_argmax": lambda: np.sqrt(((X - M[:, None]) ** 2).sum(2)).argmax(0),
    "three_levels": lambda: (x4 * x4).sum(0).max(0).argmin(0),
    "gathered_twice": lambda: xj.sum(2).max(0),
}
def run():
    return FORMS[form]()
r = np.asarray(run())
print(r.dtype, r.shape, hashlib.sha1(r.tobytes()).hexdigest())
"""

FORMS = ["sum_max", "sum_argmin", "mean_argmax", "fold_argmax", "norm_max", "prod_sum", "between", "max_min",
         "pairwise_twice", "root_argmax", "three_levels"]


def run_form(tmp_path, form, dtype, env=None):
    script = tmp_path / "chain.py"
    script.write_text(PROGRAM)
    stats = tmp_path / "stats.json"
    args = [str(script), form, dtype]
    expected = harness.run(harness.PYTHON3, args)
    got = harness.run(harness.NPYTHON, args, env_extra={"NPY_JIT_STATS": str(stats), **(env or {})})
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout
    return json.loads(stats.read_text()), got


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_chain_runs_in_one_kernel(tmp_path, form, dtype):
    counters, _ = run_form(tmp_path, form, dtype)
    assert counters.get("jit.reduction_chain_runs") == 1
    assert counters.get("jit.ops_run_by_numpy", 0) == 0


# An input whose lanes lie apart and that two of the levels' loops move
# (xj[k, n, j], summed along j, then the max along k) would be gathered again
# at every index of the outer loop: its steps run apart.
def test_chain_that_would_gather_again_is_not_made(tmp_path):
    counters, _ = run_form(tmp_path, "gathered_twice", "float64")
    assert counters.get("jit.reduction_chain_runs", 0) == 0


def test_plan_shows_the_chain_nest(tmp_path):
    _, got = run_form(tmp_path, "three_levels", "float64", {"NPY_JIT_LOG": "output_code", "NPY_KERNEL_CACHE": "off"})
    assert "chain of 3 reductions over [3,4,5,2100]" in got.stderr
    # The kept dimension in lanes, then the outermost level's axis first.
    assert "for i3 < 2100 in lanes, i2 < 5, i1 < 4, i0 < 3:" in got.stderr
    assert "over i0, in order" in got.stderr and "over i1, in order" in got.stderr
    assert "argmin(" in got.stderr and "over i2, any order" in got.stderr
