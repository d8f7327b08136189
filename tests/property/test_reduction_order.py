"""Reductions whose result depends on the order NumPy adds in, over random
shapes and layouts of arrays as they are (reduction_cases.py), must give
python3's bytes under npython: the random programs compare float reductions
within NumPy's error bound, this test bit for bit.

  NPYTHON_PROPERTY_SEED   the cases' seed (default 20261122)
  NPYTHON_REDUCTION_CASES how many (default 3000)
"""
import os
from pathlib import Path

import harness

SEED = int(os.environ.get("NPYTHON_PROPERTY_SEED", "20261122"))
CASES = int(os.environ.get("NPYTHON_REDUCTION_CASES", "3000"))
PROGRAM = str(Path(__file__).resolve().parent / "reduction_cases.py")


def test_reductions_match_python3_bit_for_bit():
    args = [PROGRAM, str(SEED), str(CASES)]
    want = harness.run(harness.PYTHON3, args, timeout=600)
    got = harness.run(harness.NPYTHON, args, timeout=600)
    assert want.returncode == 0, want.stderr
    assert got.returncode == 0, got.stderr
    want_lines, got_lines = want.stdout.splitlines(), got.stdout.splitlines()
    assert len(want_lines) == CASES
    differ = [f"python3: {w}\nnpython: {g}" for w, g in zip(want_lines, got_lines) if w != g]
    assert len(got_lines) == len(want_lines) and not differ, (
        f"{len(differ)} of {CASES} reductions differ (seed {SEED}):\n" + "\n".join(differ[:10]))
    harness.report(f"reductions bit for bit: {CASES} cases, 0 differ (seed {SEED})")
