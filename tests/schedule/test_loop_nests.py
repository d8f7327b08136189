"""Each fused step is lowered to a loop nest (jit/loop_nest.h), which the
backend compiles from: its buffers with their index maps over the domain,
its statements, each reduction's order and identity, and where each value
lives. NPY_JIT_LOG=output_code prints every nest after the schedule; these
tests read it, besides checking that each program prints what python3
prints."""
import re

import pytest

import harness

PROGRAM = """
import hashlib
import numpy as np
rng = np.random.default_rng(3)
x = rng.standard_normal((4000, 1000))
i = rng.integers(-50, 50, size=(4000, 1000))
r = {expression}
r = np.asarray(r)
print(r.dtype, r.shape, hashlib.sha1(np.ascontiguousarray(r).tobytes()).hexdigest())
"""


def nests_of(tmp_path, expression, env=None):
    script = tmp_path / "nest.py"
    script.write_text(PROGRAM.format(expression=expression))
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_JIT_LOG": "output_code", **(env or {})})
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout)
    nests, current = [], None
    for line in got.stderr.splitlines():
        text = line.split("] ", 1)[1] if line.startswith("[npython:output_code]") else None
        if text is None:
            continue
        if re.match(r"step \d+ as a loop nest: ", text):
            current = [text.split(": ", 1)[1]]
            nests.append(current)
        elif current is not None and text.startswith("  %"):
            current.append(" ".join(text.split()))
        else:
            current = None
    return nests


def test_softmax_rows_nests_with_a_tile_and_numpy_sum_order(tmp_path):
    # The arrays overflow the cache model's half of the last-level cache, so
    # the three steps run block by block and exp's values live in a tile.
    nests = nests_of(tmp_path, "(lambda e: e / e.sum(1, keepdims=True))(np.exp(x - x.max(1, keepdims=True)))",
                     env={"NPY_CACHE_SIZES": "1048576,65536"})
    assert len(nests) == 3, nests
    assert nests[0] == ["for i0 < 4000, i1 < 1000, reducing i1:",
                        "%0 = load [i0,i1] float64 memory",
                        "%1 = max(%0) over i1, any order from -inf float64 memory"]
    second = nests[1]
    assert "%1 = load [i0,0] float64 memory" in second, second
    assert any(re.fullmatch(r"%\d+ = exp\(%\d+\) float64 tile", s) for s in second), second
    assert any(re.fullmatch(r"%\d+ = sum\(%\d+\) over i1, NumPy's pairwise order from 0 float64 memory", s)
               for s in second), second


def test_folds_show_their_order_and_what_reads_them(tmp_path):
    # A float column sum folds in order; the subtraction after it reads
    # the result once per column.
    nests = nests_of(tmp_path, "x - x.mean(0)")
    assert nests[0][0] == "for i0 < 4000, i1 < 1000:", nests
    assert any(re.fullmatch(r"%1 = fold of %0 into %\d+ by add over i0, in order from 0 float64 memory", s)
               for s in nests[0]), nests
    assert any(re.fullmatch(r"%\d+ = load \[0,i1\] float64 memory", s) for s in nests[0]), nests
    assert "%1 = load [0,i1] float64 memory" in nests[1], nests


def test_integer_reductions_may_run_in_any_order(tmp_path):
    folds = [s for nest in nests_of(tmp_path, "(i * 3).sum(0)") for s in nest]
    assert any(re.fullmatch(r"%\d+ = fold of %\d+ into %\d+ by add over i0, any order from 0 int64 memory", s)
               for s in folds), folds
    assert "%1 = constant 3 int64 register" in folds, folds
    sums = [s for nest in nests_of(tmp_path, "(i > 7).sum()") for s in nest]
    assert any(re.fullmatch(r"%\d+ = sum\(%\d+\) over i0,i1, any order from 0 int64 memory", s) for s in sums), sums
    assert any(re.fullmatch(r"%\d+ = greater\(%\d+, %\d+\) bool register", s) for s in sums), sums
