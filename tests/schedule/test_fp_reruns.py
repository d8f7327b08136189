"""A floating-point flag the program's np.errstate reports, raised by one
step of a region, has that step computed again through NumPy (reporting as
eager NumPy does), not the whole region: the steps that raised nothing keep
their kernels' values. Each program prints what python3 prints, warnings
and exceptions included; jit.ops_rerun_for_fp_reports counts the
operations computed again."""
import json

import pytest

import harness

PROGRAM = """
import hashlib, json, os, warnings
import numpy as np
try:
    import npython
except ImportError:
    npython = None
rng = np.random.default_rng(31)
x = rng.standard_normal(30_000)      # sqrt of its negatives: invalid
y = rng.standard_normal(20_000) * Y_SCALE
z = rng.standard_normal(10_000) * Z_SCALE
def f(x, y, z):
    a = np.sqrt(x) * 2.0
    b = (y * 3.0 + 1.0).sum()
    c = np.exp(z) - z
    return a, b, c
before = npython.stats() if npython else {}
with np.errstate(ERRSTATE):
    try:
        a, b, c = f(x, y, z)
        print(hashlib.sha1(a.tobytes() + c.tobytes()).hexdigest(), repr(b))
    except FloatingPointError as e:
        print("raised", e)
if npython:
    after = npython.stats()
    with open(os.environ["COUNTS_FILE"], "w") as counts:
        json.dump({k: after[k] - before.get(k, 0) for k in after}, counts)
"""

CASES = {
    # (y's scale, z's scale, errstate, operations computed again)
    "first statement only": ("1.0", "1.0", "all='warn'", 2),
    "first and second": ("1e308", "1.0", "all='warn'", 5),  # y * 3.0 overflows
    "first and third": ("1.0", "1000.0", "all='warn'", 4),  # exp overflows
    "invalid ignored": ("1.0", "1000.0", "invalid='ignore'", 2),
    "raise at the first": ("1.0", "1.0", "all='raise'", 2),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_only_steps_that_raised_are_computed_again(tmp_path, case):
    y_scale, z_scale, errstate, again = case
    script = tmp_path / "reruns.py"
    script.write_text(PROGRAM.replace("Y_SCALE", y_scale).replace("Z_SCALE", z_scale)
                      .replace("ERRSTATE", errstate))
    stats = tmp_path / "counts.json"
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"COUNTS_FILE": str(stats)})
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    counters = json.loads(stats.read_text())
    assert counters.get("jit.kernel_runs", 0) >= 1, counters
    assert counters.get("jit.reruns_for_fp_reports", 0) == 1, counters
    assert counters.get("jit.ops_rerun_for_fp_reports", 0) == again, counters


# The last step stores into an array an earlier step read (x[:] = ...): a
# rerun of that earlier step must read x as it was, so the value goes to
# the target only after the steps are done (eager NumPy's copy).
STORE_PROGRAM = """
import numpy as np
def f(n):
    x = np.tile(np.array([-1.0, 4.0, 9.0, 16.0]), n)
    y = np.sqrt(x)
    s = y[1:4].sum()
    x[:] = y * 0.0 + 1.0
    return x, y, s
for n in (5000, 200000):
    x, y, s = f(n)
    print(repr(x[:4]), repr(y[:4]), repr(s))
"""


def test_a_rerun_reads_inputs_the_last_step_stores_into_as_they_were(tmp_path):
    script = tmp_path / "store.py"
    script.write_text(STORE_PROGRAM)
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)])
    assert expected.returncode == 0, expected.stderr
    assert "invalid value encountered in sqrt" in expected.stderr
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)


# The three lines over arrays of one shape fuse into one loop: its flag is
# not one line's, so its first rerun computes all eight operations again.
# The region then runs a loop per line (jit.plans_run_by_line), and each
# later call computes again the raising line's two operations only.
SAME_SHAPES = """
import json, os
import numpy as np
try:
    import npython
except ImportError:
    npython = None
rng = np.random.default_rng(32)
x, y, z = (rng.standard_normal(30_000) for _ in range(3))
def f(x, y, z):
    a = np.sqrt(x) * 2.0
    b = (y * 3.0 + 1.0).sum()
    c = np.exp(z) * z - z
    return a, b, c
before = npython.stats() if npython else {}
for i in range(4):
    a, b, c = f(x, y, z)
    print(float(a[1]), repr(b), float(c[-1]))
if npython:
    after = npython.stats()
    with open(os.environ["COUNTS_FILE"], "w") as counts:
        json.dump({k: after[k] - before.get(k, 0) for k in after}, counts)
"""


def test_a_flag_in_a_loop_over_several_lines_has_the_region_run_a_loop_per_line(tmp_path):
    script = tmp_path / "same.py"
    script.write_text(SAME_SHAPES)
    stats = tmp_path / "counts.json"
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"COUNTS_FILE": str(stats)})
    assert expected.returncode == 0, expected.stderr
    assert "invalid value encountered in sqrt" in expected.stderr
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    counters = json.loads(stats.read_text())
    assert counters.get("jit.plans_run_by_line", 0) == 1, counters
    assert counters.get("jit.reruns_for_fp_reports", 0) == 4, counters
    assert counters.get("jit.ops_rerun_for_fp_reports", 0) == 8 + 3 * 2, counters
