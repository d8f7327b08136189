"""Reductions over dimensions other than the innermost fold in the loop that
computes their operand (jit/fold.h): x.sum(axis=0), np.max(a * b, 0), the
middle axis of a 3-d value, two axes at once, with keepdims, means,
products, any and all, of floats and integers, of computed values and of
arrays as they are. Each program must match python3 to the bit (NaNs,
signed zeros, infinities among the values; its warnings too) and must have
folded as many reductions as it says (jit.folds), so that a fold silently
left to NumPy fails here. Layouts NumPy walks in another order (a Fortran-
ordered or reversed array) and rows too short for vectors are left to
NumPy, and must still match."""
import json

import pytest

import harness

PROGRAM = """
import hashlib, sys
import numpy as np
form, dtype, rows, columns = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = np.random.default_rng(rows * 7 + columns)
a = (4 * rng.standard_normal((rows, columns))).astype(dtype)
b = (4 * rng.standard_normal((rows, columns))).astype(dtype)
c = (2 * rng.standard_normal((6, rows // 6 + 1, columns))).astype(dtype)
if np.dtype(dtype).kind == "f":
    a[::7, 3] = np.inf
    a[1::5, 0] = -np.inf
    a[2::9, 1] = np.nan
    a[:, 2] = -0.0
    b[:, 2] = 0.0
    a[-1, 4] = np.float64("nan")
    # NaNs of two signs in one column (the first one is NumPy's max and
    # min), and zeros of both signs in another (the last one is)
    a[rows // 3, 5] = -np.float64("nan")
    a[rows - 2, 5] = np.float64("nan")
    a[:, 6] = np.where(np.arange(rows) % 3 == 0, 0.0, -0.0)
    c[1, :, 5] = np.nan

forms = {
    "sum": lambda: [(a * b).sum(0), (a * b).sum(axis=0, keepdims=True)],
    "mean": lambda: [(a + b).mean(0), np.mean(a - b, axis=0)],
    "max_min": lambda: [(a * b).max(0), np.min(a * b, axis=0), np.maximum.reduce(a - b, axis=0)],
    "prod": lambda: [(a * 0.125 + 1).prod(0)],
    "of_arrays": lambda: [a.max(0), a.min(axis=0), a.sum(0)],
    "softmax_columns": lambda: [np.exp(b - b.max(0)) / np.exp(b - b.max(0)).sum(0)],
    "standardise_columns": lambda: [(b - b.mean(0)) / (np.abs(b - b.mean(0)).max(0) + 1)],
    "any_all": lambda: [(a > 1).any(0), (b > -7).all(axis=0)],
    "three_d": lambda: [(c * 2).sum(0), (c * 2).sum(1), (c - 1).max(axis=(0, 1), keepdims=True), (c * c).mean(1)],
    "reversed": lambda: [a[::-1].max(0), a[::-1].sum(0), (a[::-1] * b).sum(0)],
    "fortran": lambda: [np.asfortranarray(a).max(0), np.asfortranarray(b).sum(0)],
}
for out in forms[form]():
    print(out.dtype, out.shape, hashlib.sha1(np.ascontiguousarray(out).tobytes()).hexdigest())
"""

# Folds each form must make (per run; np.maximum.reduce is not recorded).
# The reversed form's folds share one loop with the folds of the reversed
# array, which NumPy walks in memory order: none of them folds.
FOLDS = {"sum": 2, "mean": 2, "max_min": 2, "prod": 1, "of_arrays": 3, "softmax_columns": 3,
         "standardise_columns": 3, "any_all": 2, "three_d": 4, "reversed": 0, "fortran": 0}


def run_both(tmp_path, args, threads=2, log=False):
    """npython's counters and stderr, its stdout equal to python3's (and its
    stderr, without the log). npython runs its kernels on `threads` threads
    (whether a fold pays depends on them: see test_narrow_rows_on_many_threads)."""
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    env = {"NPY_THREADS": str(threads)}
    if log:
        env["NPY_JIT_LOG"] = "output_code"
    stats, expected, got = harness.run_with_stats(script, args, env)
    if not log:
        assert got.stderr == expected.stderr
    return stats, got.stderr


@pytest.mark.parametrize("form", sorted(FOLDS))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("rows,columns", [(300, 77), (2001, 1000)])
def test_float_folds(tmp_path, form, dtype, rows, columns):
    stats, _ = run_both(tmp_path, [form, dtype, str(rows), str(columns)])
    assert stats.get("jit.folds", 0) == FOLDS[form], stats


# Integer folds per form and dtype. Integers wrap as NumPy's do; int32 and
# uint8 values are held in wider lanes, and their sums add up in int64 or
# uint64 lanes.
INTEGER_FOLDS = {
    ("int64", "sum"): 2, ("int64", "max_min"): 2, ("int64", "of_arrays"): 3, ("int64", "three_d"): 3,
    ("int32", "sum"): 2, ("int32", "max_min"): 2, ("int32", "of_arrays"): 3, ("int32", "three_d"): 3,
    ("uint8", "sum"): 2, ("uint8", "max_min"): 2, ("uint8", "of_arrays"): 3, ("uint8", "three_d"): 3,
}


@pytest.mark.parametrize("dtype,form", sorted(INTEGER_FOLDS))
def test_integer_folds(tmp_path, dtype, form):
    stats, _ = run_both(tmp_path, [form, dtype, "400", "96"])
    assert stats.get("jit.folds", 0) == INTEGER_FOLDS[dtype, form], stats


@pytest.mark.parametrize("columns", [7, 15])
def test_short_rows_are_left_to_numpy(tmp_path, columns):
    stats, _ = run_both(tmp_path, ["sum", "float64", "500", str(columns)])
    assert stats.get("jit.folds", 0) == 0, stats


def test_fold_is_logged(tmp_path):
    _, log = run_both(tmp_path, ["three_d", "float64", "60", "40"], log=True)
    assert "sum (folded down axes 0)" in log
    assert "sum (folded down axes 1)" in log
    assert "max (folded down axes 0 1)" in log


@pytest.mark.parametrize("form,dtype,rows,folds", [("max_min", "float64", 2001, 2), ("of_arrays", "float32", 2001, 2),
                                                   ("any_all", "float64", 2001, 2), ("max_min", "int64", 400, 2),
                                                   ("three_d", "int64", 4000, 3)])
def test_folds_cut_into_pieces(tmp_path, form, dtype, rows, folds):
    """On 16 threads, narrow rows (77 columns: one block), min, max, any,
    all and integer sums fold in pieces of rows side by side, then into one
    another: NumPy's bits still (the first NaN, the last of equal zeros).
    A float sum in the same loop may not (its rounding follows the order):
    it leaves the loop, and NumPy sums after it (of_arrays: a.sum(0))."""
    stats, _ = run_both(tmp_path, [form, dtype, str(rows), "77"], threads=16)
    assert stats.get("jit.folds", 0) == folds, stats


@pytest.mark.parametrize("columns,threads,folds", [(1000, 2, 2), (1000, 16, 0), (4100, 16, 2), (77, 16, 2)])
def test_narrow_rows_on_many_threads(tmp_path, columns, threads, folds):
    """A fold runs on one thread per 2 KiB of its rows: on 16 threads, rows
    of 1000 float32 (4000 bytes: 1 thread) are summed by NumPy after the
    loop, which then runs on every thread; rows of 4100 (8 threads) fold, and
    so does a loop too small for more than one thread (300 x 77)."""
    rows = 300 if columns == 77 else 2001
    stats, log = run_both(tmp_path, ["sum", "float32", str(rows), str(columns)], threads=threads, log=True)
    assert stats.get("jit.folds", 0) == folds, stats
    if folds == 0:
        assert f"sum left to NumPy: folded, it would run on 1 of {threads} threads" in log


def test_warnings_and_errors_as_numpy(tmp_path):
    """A fold that overflows warns from NumPy's line, and raises under np.errstate(over='raise')."""
    script = tmp_path / "overflow.py"
    script.write_text(
        "import numpy as np\n"
        "x = np.full((200, 64), 1e307)\n"
        "print(repr((x * 10).sum(0)[:2]))\n"
        "with np.errstate(over='raise'):\n"
        "    try:\n"
        "        print((x * 10).sum(axis=0)[:2])\n"
        "    except FloatingPointError as e:\n"
        "        print('raised', e)\n")
    stats = tmp_path / "stats.json"
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_JIT_STATS": str(stats)})
    assert got.stdout == expected.stdout and "raised" in got.stdout
    assert got.stderr == expected.stderr
    assert json.loads(stats.read_text()).get("jit.folds", 0) >= 1
