"""An ndarray method taken as a value and called later (`f = x.sum;
f(0)`, `getattr(x, "cumsum")(1)`) is traced as the method call it is, with
python3's results: the call opens a region (jit.regions), where before it
ran through NumPy."""
import pytest

import harness

PROGRAM = """
import hashlib, sys
import numpy as np
case = sys.argv[1]
x = np.random.default_rng(3).standard_normal((300, 200))
calls = {
    "sum": lambda: (lambda f: f(0))(x.sum),
    "mean keyword": lambda: (lambda f: f(axis=1, keepdims=True))(x.mean),
    "cumsum by getattr": lambda: getattr(x, "cumsum")(1),
    "astype": lambda: getattr(x, "astype")(np.float32),
    "max of all": lambda: np.asarray((lambda f: f())(x.max)),
}
r = calls[case]()
print(r.dtype, r.shape, hashlib.sha1(r.tobytes()).hexdigest())
"""


@pytest.mark.parametrize("case", ["sum", "mean keyword", "cumsum by getattr", "astype", "max of all"])
def test_bound_methods_are_traced(tmp_path, case):
    script = tmp_path / "bound.py"
    script.write_text(PROGRAM)
    counters, _, _ = harness.run_with_stats(script, [case], {})
    assert counters.get("jit.regions", 0) >= 1
