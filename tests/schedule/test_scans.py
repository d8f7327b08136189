"""np.cumsum and np.cumprod computed by the backend (Backend::scan) from
the array as it lies, inside the region (the work before and after it
fused around it): along each axis, along every element, of floats,
integers and bools, as functions and methods, counted by jit.scan_runs,
with python3's bits, not merely given by NumPy."""
import pytest

import harness

PROGRAM = """
import hashlib, sys
import numpy as np
name, dtype, axis, method = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "method"
axis = None if axis == "none" else int(axis)
rng = np.random.default_rng(5)
x = rng.standard_normal((300, 40, 50)) * 2
x = x > 0 if dtype == "bool" else x.astype(dtype)
y = x * 1 if dtype == "bool" else x + 1
if method:
    r = y.cumsum(axis) if name == "cumsum" else y.cumprod(axis)
else:
    r = np.cumsum(y, axis=axis) if name == "cumsum" else np.cumprod(y, axis=axis)
r = r * 2
print(r.dtype, r.shape, hashlib.sha1(r.tobytes()).hexdigest())
"""


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "uint8", "bool"])
@pytest.mark.parametrize("axis", ["none", "0", "1", "2", "-1"])
@pytest.mark.parametrize("method", ["function", "method"])
def test_scans_run_in_the_backend(tmp_path, name, dtype, axis, method):
    script = tmp_path / "scan.py"
    script.write_text(PROGRAM)
    counters, _, _ = harness.run_with_stats(script, [name, dtype, axis, method], {})
    assert counters.get("jit.scan_runs", 0) == 1
    assert counters.get("jit.ops_run_by_numpy", 0) == 0
