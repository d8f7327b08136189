"""A reduction of a value an earlier loop over the same shape had at hand
(an input of the region, or what that loop computes) is computed by that
loop, whatever line asked for it: its own pass disappears, and its result
is ready for the loops after it. Each program matches python3; the
schedule (NPY_JIT_LOG=output_code) shows the passes."""
import pytest

import harness

CASES = {
    # (expression of x, passes over x's shape, text the first pass ends with)
    "rescale": ("((x - x.mean()) / (x.std() + 1e-9)) * ((x.max() - x.min()) * 0.5) + (x.max() + x.min()) * 0.5",
                3, "%14 max %15 min %20 max %21 min"),
    "minmax": ("(x - x.min()) / (x.max() - x.min()) * 2 - 1", 2, "%1 min %3 max %4 min"),
    "rows": ("x / x.max(axis=1, keepdims=True) - x.min(axis=1, keepdims=True)", 2, "%1 max %3 min"),
    "float32 rows": ("x32 - x32.mean(axis=-1, keepdims=True) + x32.max(axis=-1, keepdims=True)", 2,
                     "%1 mean %3 max"),
    # exp's sum reads the second loop's own value: it stays there.
    "softmax": ("np.exp(x - x.max(1, keepdims=True)) / np.exp(x - x.max(1, keepdims=True)).sum(1, keepdims=True)",
                3, "%1 max %4 max"),
}
PROGRAM = """
import hashlib
import numpy as np
rng = np.random.default_rng(8)
x = rng.standard_normal((300, 400))
x32 = rng.standard_normal((300, 400), dtype=np.float32)
r = {expression}
print(r.dtype, r.shape, hashlib.sha1(np.ascontiguousarray(r).tobytes()).hexdigest())
"""


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_reductions_join_the_earliest_loop_that_may_compute_them(tmp_path, case):
    expression, passes, first = case
    script = tmp_path / "earlier.py"
    script.write_text(PROGRAM.format(expression=expression))
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_JIT_LOG": "output_code"})
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout)
    steps = [line.split(": ", 1)[1] for line in got.stderr.splitlines() if "  step " in line]
    over_x = [s for s in steps if s.startswith("kernel over [300,400]")]
    assert len(over_x) == passes, steps
    assert over_x[0].endswith(first), steps
