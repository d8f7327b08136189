"""What NumPy's result would say of itself (dtype, shape, ndim, size,
itemsize, nbytes) is known of a pending value without computing it: the
function below is one region, with no materialization for an attribute,
and prints what python3 prints."""
import json

import harness

PROGRAM = """
import numpy as np
def f(x):
    y = x * 2.0 + 1.0
    c = (x > 3).astype(np.int16) * 3
    s = y.sum()
    facts = (y.dtype, y.shape, y.ndim, y.size, y.itemsize, y.nbytes, str(c.dtype), c.nbytes, c.dtype.itemsize,
             s.dtype, s.shape, s.ndim, s.size, s.itemsize)
    return facts, (y * c).sum() + s
print(f(np.arange(100000.0)))
"""


def test_attributes_of_pending_values_need_no_computing(tmp_path):
    script = tmp_path / "facts.py"
    script.write_text(PROGRAM)
    stats = tmp_path / "stats.json"
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_JIT_STATS": str(stats)})
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    counters = json.loads(stats.read_text())
    assert counters["jit.regions"] == 1
    assert counters["jit.materializations.attribute"] == 0
