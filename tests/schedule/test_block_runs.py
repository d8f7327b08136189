"""Steps that share their rows run block by block (jit/schedule.h) where
the cost model says so: each program below must match python3 to the bit
and, with caches too small for its arrays (NPY_CACHE_SIZES), run that way
(jit.block_runs, and the schedule in NPY_JIT_LOG=output_code); with caches
that hold them, or where a later step reads a whole column of an earlier
one, step by step, and where NumPy's layout of a result would differ from
the kernels' (a Fortran-ordered input), one by one as before."""
import pytest

import harness

PROGRAM = """
import hashlib, sys
import numpy as np
rows, columns, dtype, form = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = np.random.default_rng(rows + columns)
x = 4 * rng.standard_normal((rows, columns), dtype=dtype)
if form == "fortran":
    x = np.asfortranarray(x)
if form in ("specials", "infinities"):
    x[::7, 3] = np.inf
    x[1::5, 0] = -np.inf
if form == "specials":
    x[2::9, 1] = np.nan

def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)

def softmax_none(x):
    e = np.exp(x - np.max(x, 1)[:, None])
    return e / np.sum(e, axis=1)[:, None]

def log_softmax(x):
    shifted = x - x.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))

def centred_moments(x):
    d = x - x.mean(axis=1, keepdims=True)
    return (d * d).mean(axis=1), (d * d * d).sum(axis=1)

def standardise_3d(x):
    y = x.reshape(rows, columns // 4, 4)
    m = y.mean(axis=2, keepdims=True)
    return (y - m) / (np.abs(y - m).max(axis=2, keepdims=True) + 1)

def columns_centred(x):
    return x - x.mean(axis=0)

fn = {"softmax": softmax, "specials": softmax, "infinities": softmax, "none": softmax_none, "fortran": softmax_none, "log": log_softmax,
      "moments": centred_moments, "3d": standardise_3d, "columns": columns_centred}[form]
def main():
    out = fn(x)
    for a in out if isinstance(out, tuple) else (out,):
        print(a.dtype, a.shape, hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest())
main()
"""

SMALL_CACHES = "64K,1M"  # a last-level cache far smaller than these arrays
LARGE_CACHES = "512K,1G"


def run_both(tmp_path, args, caches, log=False):
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    env = {"NPY_CACHE_SIZES": caches}
    if log:
        env["NPY_JIT_LOG"] = "output_code"
    stats, expected, got = harness.run_with_stats(script, args, env)
    return stats, got.stderr, expected.stderr


@pytest.mark.parametrize("form", ["softmax", "none", "log", "moments", "3d"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("rows,columns", [(1000, 200), (333, 1000), (4001, 100)])
def test_rows_run_block_by_block(tmp_path, form, dtype, rows, columns):
    counters, _, _ = run_both(tmp_path, [str(rows), str(columns), dtype, form], SMALL_CACHES)
    assert counters.get("jit.block_runs") == 1
    assert counters.get("jit.ops_run_by_numpy", 0) == 0


def test_schedule_is_logged_with_its_tiles(tmp_path):
    _, stderr, _ = run_both(tmp_path, ["1000", "200", "float64", "softmax"], SMALL_CACHES, log=True)
    lines = [line for line in stderr.splitlines() if "run block by block" in line]
    assert len(lines) == 1, stderr[-3000:]
    # The three steps (max; exp and sum; divide), exp's values only in tiles.
    assert "steps 1-3 run block by block: 1000 rows" in lines[0]
    assert "in tiles, never in memory: %3" in lines[0]


def test_floating_point_reports_as_python3(tmp_path):
    counters, got, expected = run_both(tmp_path, ["1000", "200", "float64", "infinities"], SMALL_CACHES)
    assert counters.get("jit.block_runs") == 1
    assert counters.get("jit.reruns_for_fp_reports") == 1
    assert harness.normalise(got, harness.NPYTHON) == harness.normalise(expected, harness.PYTHON3)


def test_nan_row_maxima_go_to_numpy(tmp_path):
    # Rows whose max is a NaN: kernels that did not note ties leave them to
    # NumPy (the region runs through NumPy, reporting as it does).
    counters, got, expected = run_both(tmp_path, ["1000", "200", "float64", "specials"], SMALL_CACHES)
    assert counters.get("jit.block_runs") == 1
    assert counters.get("jit.reruns_for_numpy_order") == 1
    assert harness.normalise(got, harness.NPYTHON) == harness.normalise(expected, harness.PYTHON3)


def test_arrays_the_cache_holds_run_step_by_step(tmp_path):
    counters, stderr, _ = run_both(tmp_path, ["1000", "200", "float64", "softmax"], LARGE_CACHES, log=True)
    assert counters.get("jit.block_runs", 0) == 0
    assert "run step by step" in stderr and "stay in the last-level cache" in stderr


def test_a_whole_column_read_runs_step_by_step(tmp_path):
    counters, _, _ = run_both(tmp_path, ["1000", "200", "float64", "columns"], SMALL_CACHES)
    assert counters.get("jit.block_runs", 0) == 0


def test_inputs_in_another_layout_run_one_by_one(tmp_path):
    # The steps' views are made before the run finds that the third step's
    # input is in Fortran order: the steps then run one by one, from the
    # values they had.
    counters, _, _ = run_both(tmp_path, ["1000", "200", "float64", "fortran"], SMALL_CACHES)
    assert counters.get("jit.block_runs", 0) == 0
    assert counters.get("jit.kernel_runs", 0) >= 1
