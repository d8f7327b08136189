"""A loop that would pass its kernel more arrays than a call takes
(jit/fusion.h, kMaxLoopSlots: a sum of 80 arrays, a loop of many distinct
inputs and results) is cut into loops that fit, each computed in a kernel,
rather than the whole region left to NumPy. Each program matches python3
bit for bit; the counters show kernels ran and nothing went through NumPy."""
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
rng = np.random.default_rng(21)
arrays = [rng.standard_normal(30_000) for _ in range(ARRAY_COUNT)]
arrays[3][:5] = [np.nan, np.inf, -np.inf, -0.0, 1e300]
def compute(arrays):
    BODY
before = npython.stats() if npython else {}
r = compute(arrays)
if npython:
    after = npython.stats()
    with open(os.environ["COUNTS_FILE"], "w") as f:
        json.dump({k: after[k] - before.get(k, 0) for k in after}, f)
for k in r if isinstance(r, tuple) else (r,):
    print(k.dtype, k.shape, hashlib.sha1(np.ascontiguousarray(k).tobytes()).hexdigest())
"""

CASES = {
    "sum of 80": (80, """r = arrays[0] * 1.0
    for a in arrays[1:]:
        r = r + a
    return r"""),
    "products of 70 pairs": (140, """r = arrays[0] * arrays[1]
    for k in range(2, 140, 2):
        r = r + arrays[k] * arrays[k + 1]
    return r"""),
    # Straight-line code: each result a name holds when the region ends.
    "40 results": (80, "\n    ".join([f"r{k} = arrays[{k}] * 2 - arrays[{k + 40}]" for k in range(40)]
                                      + ["return (" + ", ".join(f"r{k}" for k in range(40)) + ")"])),
    # (Past arrays[3]: a max over its NaN and -0.0 is run again by NumPy.)
    "66 maxima": (70, "\n    ".join([f"m{k} = (arrays[{k + 4}] * 2).max()" for k in range(66)]
                                     + ["return np.asarray(" + " + ".join(f"m{k}" for k in range(66)) + ")"])),
    "rows of 2-d": (96, """r = arrays[0].reshape(100, 300) * 0.5
    for a in arrays[1:]:
        r = np.maximum(r, a.reshape(100, 300) - 1)
    return r, r.sum(axis=1)"""),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_wide_loops_are_cut_to_fit_a_kernel(tmp_path, case):
    count, body = case
    script = tmp_path / "wide.py"
    script.write_text(PROGRAM.replace("ARRAY_COUNT", str(count)).replace("BODY", body))
    stats = tmp_path / "counts.json"
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"COUNTS_FILE": str(stats)})
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    counters = json.loads(stats.read_text())
    assert counters.get("jit.kernel_runs", 0) >= 2
    assert counters.get("jit.ops_run_by_numpy", 0) == 0
