"""Float arithmetic on a reduction's pending result (x.mean() * 2,
x.std() + 1e-9, -x.max()) stays in the region: a standardization is one
region, in every spelling below, with python3's output. Integer scalar
math and ** on such a result stay NumPy's (its scalar math warns where
kernels would not, or has an algorithm of its own)."""
import json

import pytest

import harness

SPELLINGS = {
    "float64": "(x - x.mean() * 2) / (x.std() + 1e-9)",
    "float32": "(x32 - x32.mean() * 2) / (x32.max() + np.float32(1e-6))",
    "float32 std": "(x32 - x32.mean() * 2) / (x32.std() + np.float32(1e-6))",
    "python int first": "(x - 2 * x.mean()) / (1e-9 + x.std())",
    "signs": "x * -x.max() + np.abs(+x.min())",
    "two reductions": "x / (x.max() - x.min()) - x.mean() / x.size",
    "index": "x - (x.argmax() + 0.5)",
    "2-d rows": "(m - m.mean() * 0.5) / (m.std() + 1e-9)",
}
STAYS_EAGER = {
    "int sum": "x - ints.sum() * 3",
    "power": "x / x.std() ** 3",
}
PROGRAM = """
import hashlib
import numpy as np
def show(name, r):
    print(name, r.dtype, r.shape, hashlib.sha1(np.ascontiguousarray(r).tobytes()).hexdigest())
def f(x, x32, m, ints):
    return {expression}
rng = np.random.default_rng(3)
x = rng.standard_normal(60_000)
x32 = rng.standard_normal(60_000, dtype=np.float32)
show("result", f(x, x32, rng.standard_normal((200, 300)), rng.integers(-9, 9, 60_000)))
"""


def run_both(tmp_path, expression):
    script = tmp_path / "scalar_math.py"
    script.write_text(PROGRAM.format(expression=expression))
    stats = tmp_path / "stats.json"
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_JIT_STATS": str(stats)})
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    return json.loads(stats.read_text())


@pytest.mark.parametrize("expression", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_scalar_math_on_pending_results_is_one_region(tmp_path, expression):
    counters = run_both(tmp_path, expression)
    assert counters["jit.regions"] == 1
    assert counters.get("jit.eager_calls", 0) == 0
    assert counters["jit.kernel_runs"] + counters.get("jit.input_sum_runs", 0) >= 2


@pytest.mark.parametrize("expression", STAYS_EAGER.values(), ids=STAYS_EAGER.keys())
def test_scalar_math_numpy_does_its_own_way_stays_eager(tmp_path, expression):
    counters = run_both(tmp_path, expression)
    assert counters["jit.regions"] == 2


RESCALE = """
import numpy as np
def rescale(x):
    lo, hi = x.min(), x.max()
    z = (x - x.mean()) / (x.std() + 1e-9)
    return z * ((hi - lo) * 0.5) + (hi + lo) * 0.5
print(repr(float(rescale(np.random.default_rng(5).standard_normal(60_000))[::7].sum())))
"""


def test_scalar_work_between_passes_does_not_split_them(tmp_path):
    # The scalars (hi - lo) * 0.5 and (hi + lo) * 0.5 are recorded after the
    # division: a step of their own before the last loop keeps the division,
    # the multiplication and the addition in one pass. (The first pass also
    # takes std's own sum: three passes in all.)
    script = tmp_path / "rescale.py"
    script.write_text(RESCALE)
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_JIT_LOG": "output_code"})
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout)
    steps = [line.split(": ", 1)[1] for line in got.stderr.splitlines() if "  step " in line]
    passes = [s for s in steps if s.startswith("kernel over [60000]")]
    assert len(passes) == 3, steps
    assert passes[-1].endswith("divide %19 multiply %22 add"), steps
    assert any(s.startswith("kernel over []: %16 subtract") for s in steps), steps
