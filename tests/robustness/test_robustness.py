"""Long loops must not leak: resident memory stays flat, as under python3."""
from pathlib import Path

import pytest

import harness

HERE = Path(__file__).resolve().parent
ALLOWED_GROWTH_KB = 4 * 1024


@pytest.mark.parametrize("mode", ["jit", "interp_all"])
def test_memory_stays_flat(mode):
    got = harness.run(harness.NPYTHON, ["flat_memory.py"], cwd=HERE,
                      env_extra=harness.MODES[mode], timeout=300)
    assert got.returncode == 0, got.stderr
    growth = int(got.stdout)
    reference = int(harness.run(harness.PYTHON3, ["flat_memory.py"], cwd=HERE).stdout)
    assert growth < ALLOWED_GROWTH_KB, f"grew {growth} kB (python3: {reference} kB)"
