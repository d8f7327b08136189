"""Region operations computed by kernels, not left to NumPy inside the
region: each expression below, computed in a function, must run in a kernel
(jit.kernel_runs) with no operation through NumPy (jit.ops_run_by_numpy),
counted over that call alone, and print python3's bits."""
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
rng = np.random.default_rng(11)
n = 20_000
x = rng.standard_normal(n)
y = rng.standard_normal(n)
x[:4] = [np.nan, -0.0, np.inf, 0.0]
y[:4] = [1.0, 0.0, np.nan, -0.0]
i = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64, endpoint=True)
j = rng.integers(-1000, 1000, n)
u = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
v = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
u32 = rng.integers(0, 2**32 - 1, n, dtype=np.uint32, endpoint=True)
v32 = rng.integers(0, 2**32 - 1, n, dtype=np.uint32, endpoint=True)
def compute():
    return EXPRESSION
before = npython.stats() if npython else {}
r = np.asarray(compute())
if npython:
    after = npython.stats()
    with open(os.environ["COUNTS_FILE"], "w") as f:
        json.dump({k: after[k] - before.get(k, 0) for k in after}, f)
print(r.dtype, r.shape, hashlib.sha1(r.tobytes()).hexdigest())
"""

EXPRESSIONS = [
    "i.astype(np.float64) * 0.5",
    "u.astype(np.float64) + 1.0",
    "(j + i) * 0.25",
    "j / 7",
    "np.arange(n) * 0.1 + x",
    "np.where(u < v, x, y) * 2",
    "(u32 >= v32) & (x > 0)",
    "~j + 1",
    "~u | v",
    "np.fmin(x, y) * 3",
    "np.fmax(x * 2, y)",
    "np.sign(x) * y",
    "(j // 7) * 2",
    "(j % 13) + (j // -5)",
    "(u // v) + (u % 7)",
    "np.fmin(j, j[::-1]) * 3",
    "np.sign(j) + 1",
]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_operation_is_compiled(tmp_path, expression):
    script = tmp_path / "ops.py"
    script.write_text(PROGRAM.replace("EXPRESSION", expression))
    stats = tmp_path / "counts.json"
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"COUNTS_FILE": str(stats)})
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout
    counters = json.loads(stats.read_text())
    assert counters.get("jit.kernel_runs", 0) >= 1
    assert counters.get("jit.ops_run_by_numpy", 0) == 0
