"""np.bincount (without weights) and np.histogram (equal bins) computed by
the backend (Backend::count_bins, Backend::equal_bins) from the arrays as
they lie, counted by jit.bin_counts, with python3's bits: bincount of each
integer type it takes, of bool and of pending values; histograms with and
without weights, over a given range and the values' own, of 1-D, strided
and 2-D arrays. Calls the backend leaves to NumPy (weights of bincount,
edges given as an array, density, a floating-point flag where blocks'
sums meet) are not counted and give NumPy's results."""
import pytest

import harness

PROGRAM = """
import hashlib, sys
import numpy as np
case = sys.argv[1]
rng = np.random.default_rng(11)
x = rng.normal(0.5, 1.7, 300_000)
w = rng.exponential(1.0, x.size)
b = np.clip(((x + 5.0) / 0.05).astype(np.int64), 0, 199)
results = {
    "bincount": lambda: np.bincount(b),
    "bincount pending": lambda: np.bincount(np.clip(((x + 5.0) / 0.05).astype(np.int64), 0, 199)),
    "bincount minlength": lambda: np.bincount(b, minlength=1000),
    "bincount int8": lambda: np.bincount((b % 120).astype(np.int8)),
    "bincount uint32": lambda: np.bincount(b.astype(np.uint32)[::-2]),
    "bincount bool": lambda: np.bincount(x > 0),
    "histogram": lambda: np.histogram(x, bins=200, range=(-5, 5)),
    "histogram own range": lambda: np.histogram(x, bins=77),
    "histogram weights": lambda: np.histogram(x, bins=64, weights=w),
    "histogram 2-D": lambda: np.histogram(x.reshape(600, 500).T[::2], bins=40, range=(-3.0, 4.0)),
    "histogram pending": lambda: np.histogram(np.sqrt(np.abs(x)), bins=30),
    "left: bincount weights": lambda: np.bincount(b, weights=w),
    "left: histogram edges": lambda: np.histogram(x, bins=np.linspace(-2.0, 2.0, 9)),
    "left: histogram density": lambda: np.histogram(x, bins=20, density=True),
    "left: histogram blocks overflow": lambda: np.histogram(
        np.zeros(x.size), bins=4, range=(-1, 1), weights=np.where(np.arange(x.size) % 65536 == 0, 1.5e308, 1.0)),
}
r = results[case]()
for part in r if isinstance(r, tuple) else (r,):
    print(part.dtype, part.shape, hashlib.sha1(part.tobytes()).hexdigest())
"""

CASES = [
    "bincount", "bincount pending", "bincount minlength", "bincount int8", "bincount uint32", "bincount bool",
    "histogram", "histogram own range", "histogram weights", "histogram 2-D", "histogram pending",
    "left: bincount weights", "left: histogram edges", "left: histogram density",
    "left: histogram blocks overflow",
]


@pytest.mark.parametrize("case", CASES)
def test_bin_counts_run_in_the_backend(tmp_path, case):
    script = tmp_path / "bins.py"
    script.write_text(PROGRAM)
    counters, _, _ = harness.run_with_stats(script, [case], {})
    assert counters.get("jit.bin_counts", 0) == (0 if case.startswith("left:") else 1)
