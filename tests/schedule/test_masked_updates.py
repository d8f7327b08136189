"""x[mask] = f(x[mask], y[mask]) over a boolean mask of x's shape is one
kernel over the whole shape (where(mask, f(x, y), x)), not NumPy's gather,
compute and scatter: the loop of masked updates must run in kernels with
no operation left to NumPy, a compressed value the program keeps must be
compressed after its kernel (jit.values_compressed_after_kernels), and a
flag only unmasked elements raise must send the region back to NumPy
(jit.reruns_for_compressed_values) so that no warning shows that python3
does not show."""
import json

import pytest

import harness

PROGRAM = """
import hashlib, json, os
import numpy as np
try:
    import npython
except ImportError:
    npython = None
rng = np.random.default_rng(5)
c = rng.uniform(-2, 1, SHAPE) + 1j * rng.uniform(-1.2, 1.2, SHAPE)
x = rng.standard_normal(SHAPE) * SCALE
def loop(c, x):
    z = np.zeros_like(c)
    m = np.ones(c.shape, dtype=bool)
    for i in range(40):
        z[m] = z[m] ** 2 + c[m]
        m &= ~(np.abs(z) > 2)
    x = x.copy()
    k = x < 3
    x[k] = np.exp(x[k]) - 1.0
    kept = x[k] * 2.0
    return z, m, x, kept
before = npython.stats() if npython else {}
with np.errstate(all="warn"):
    z, m, x, kept = loop(c, x)
print(hashlib.sha1(z.tobytes() + m.tobytes() + x.tobytes() + kept.tobytes()).hexdigest(), kept.shape)
if npython:
    after = npython.stats()
    with open(os.environ["COUNTS_FILE"], "w") as counts:
        json.dump({k: after[k] - before.get(k, 0) for k in after}, counts)
"""

CASES = {
    # shape, x's scale (1000: exp of unmasked elements overflows), reruns
    "2-d": ("(300, 400)", "1.0", 0),
    "1-d": ("(70001,)", "1.0", 0),
    "3-d hidden overflow": ("(20, 30, 40)", "1000.0", 1),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_masked_updates_run_in_kernels(tmp_path, case):
    shape, scale, reruns = case
    script = tmp_path / "masked.py"
    script.write_text(PROGRAM.replace("SHAPE", shape).replace("SCALE", scale))
    stats = tmp_path / "counts.json"
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"COUNTS_FILE": str(stats)})
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    counters = json.loads(stats.read_text())
    assert counters.get("jit.kernel_runs", 0) >= 1, counters
    assert counters.get("jit.reruns_for_compressed_values", 0) == reruns, counters
    if reruns == 0:  # a rerun's NumPy compresses the values itself
        assert counters.get("jit.values_compressed_after_kernels", 0) >= 1, counters
        assert counters.get("jit.ops_run_by_numpy", 0) == 0, counters
