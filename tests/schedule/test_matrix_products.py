"""Matrix products (`@`, np.matmul, np.dot, ndarray.dot) of float64 or
float32 arrays of 1 or 2 dimensions are region nodes that NumPy's own call
computes (its BLAS) when the region runs: the element-wise work either side
stays in kernels and the region does not end at the product. Each
expression matches python3 bit for bit; the counters show the products ran
in the region and nothing else through NumPy; the fallback log shows no
eager operation on the expression's line."""
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
rng = np.random.default_rng(12)
x = rng.standard_normal((300, 200))
W = rng.standard_normal((200, 120))
b = rng.standard_normal(120)
v = rng.standard_normal(200)
u = rng.standard_normal(50_000)
x32 = x.astype(np.float32)
W32 = W.astype(np.float32)
big = np.full((64, 64), 1e300)
def compute():
    return EXPRESSION
before = npython.stats() if npython else {}
r = compute()
if npython:
    after = npython.stats()
    with open(os.environ["COUNTS_FILE"], "w") as f:
        json.dump({k: after[k] - before.get(k, 0) for k in after}, f)
print(type(r).__name__, np.asarray(r).dtype, np.shape(r), hashlib.sha1(np.ascontiguousarray(r).tobytes()).hexdigest())
"""

EXPRESSIONS = [
    # (expression, matrix products it makes)
    ("np.maximum((x * 2) @ W + b, 0.0)", 1),
    ("np.exp((x - 1) @ W - 3).sum(axis=1)", 1),
    ("(x.T * 1.5) @ x", 1),
    ("(x * 0.5) @ (x.T + 1)", 1),
    ("np.matmul(x + 1, W) * 2", 1),
    ("np.dot(x - 1, W) / 3", 1),
    ("(x * 3).dot(v) + 1", 1),
    ("v @ (x.T * x.T) - 1", 1),
    ("(u + 1) @ u", 1),
    ("np.dot(u * 2, u)", 1),
    ("(u * 2) @ np.ones((50_000, 3))", 1),
    ("((x32 * 2) @ W32 + np.float32(1)) * 3", 1),
    ("(((x * 2) @ W) @ W.T) * 0.25", 2),
    ("(x[::2] * 2) @ W[:, 1::3]", 1),
    ("np.sqrt(np.abs((x + 0) @ W)) @ W.T", 2),
    ("(big * 2) @ big", 1),
]


@pytest.mark.parametrize("expression, products", EXPRESSIONS, ids=[e for e, _ in EXPRESSIONS])
def test_products_join_their_region(tmp_path, expression, products):
    program = PROGRAM.replace("EXPRESSION", expression)
    script = tmp_path / "program.py"
    script.write_text(program)
    stats = tmp_path / "counts.json"
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)],
                      env_extra={"COUNTS_FILE": str(stats), "NPY_JIT_LOG": "fallback"})
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout)
    # NumPy's warnings (the overflow of `big`'s product included), at the same line.
    warned = [line for line in got.stderr.splitlines() if "Warning" in line]
    assert warned == [line for line in expected.stderr.splitlines() if "Warning" in line]
    counters = json.loads(stats.read_text())
    assert counters.get("jit.matrix_products", 0) == products
    assert counters.get("jit.kernel_runs", 0) >= 1
    assert counters.get("jit.ops_run_by_numpy", 0) == 0
    line = program.splitlines().index("    return " + expression) + 1
    eager = [entry for entry in got.stderr.splitlines()
             if entry.startswith("[npython:fallback]") and f" at program.py:{line}:" in entry]
    assert not eager, eager


# Products npython leaves to NumPy at their line (and the error NumPy raises
# for shapes that do not match, from that line).
EAGER = [
    "(x * 2).astype(np.int64) @ W.astype(np.int64)",
    "(x * 2) @ W32",
    "(x * 2).reshape(3, 100, 200) @ W",
    "np.matmul(x * 2, W, out=np.empty((300, 120)))",
    "(x * 2) @ x",
]


@pytest.mark.parametrize("expression", EAGER)
def test_other_products_are_numpys(tmp_path, expression):
    program = PROGRAM.replace("EXPRESSION", expression)
    script = tmp_path / "program.py"
    script.write_text(program)
    env = {"COUNTS_FILE": str(tmp_path / "counts.json"), "NPY_JIT_LOG": "fallback"}
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra=env)
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout)
    if expected.returncode:
        assert got.stderr.splitlines()[-3:] == expected.stderr.splitlines()[-3:]
    else:
        assert "npython records matrix products of two float64" in got.stderr
