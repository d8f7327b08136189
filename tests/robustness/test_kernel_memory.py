"""A program that makes ever new kernels (a region of its own in every
iteration) does not grow without bound: the in-memory kernel cache starts
over at jit/kernel_cache.h's kMaxCachedKernels, so resident memory grows
by little more than under python3 once the first kernels are made (0.4
MB here; kept unbounded, the last 21,000 of 28,000 kernels grew it by 13
MB)."""
import json
from pathlib import Path

import harness

HERE = Path(__file__).resolve().parent
COUNT = 48_000  # iterations; about 28,000 distinct kernels, 7 times the bound
ALLOWED_GROWTH_KB = 8 * 1024


def test_memory_of_many_distinct_kernels_is_bounded(tmp_path):
    stats = tmp_path / "stats.json"
    # Off the disk cache, so that every kernel is compiled in this process.
    got = harness.run(harness.NPYTHON, ["many_kernels.py", str(COUNT)], cwd=HERE, timeout=300,
                      env_extra={"NPY_KERNEL_CACHE": "off", "NPY_JIT_STATS": str(stats)})
    expected = harness.run(harness.PYTHON3, ["many_kernels.py", str(COUNT)], cwd=HERE, timeout=300)
    assert got.returncode == 0, got.stderr
    growth, total = got.stdout.split()
    reference_growth, reference_total = expected.stdout.split()
    assert total == reference_total
    assert json.loads(stats.read_text())["jit.kernels_compiled"] > 20_000
    assert int(growth) < int(reference_growth) + ALLOWED_GROWTH_KB, \
        f"grew {growth} kB (python3: {reference_growth} kB)"
