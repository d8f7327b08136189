"""Histograms of 4 million measurements: bin numbers from
((x - lo) / width).astype(np.int64), clipped to the bins, counted with
np.bincount; the same values through np.histogram; and a weighted bincount
(the sum of each value's weight per bin), 200 bins over [-5, 5) (float64).

usage: python3 histogram_binning.py [n]   (values; 4,000,000 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402

LO, HI, BINS = -5.0, 5.0, 200


def binning(x, weights):
    width = (HI - LO) / BINS
    bins = ((x - LO) / width).astype(np.int64)
    bins = np.clip(bins, 0, BINS - 1)
    counts = np.bincount(bins, minlength=BINS)
    hist, edges = np.histogram(x, bins=BINS, range=(LO, HI))
    weighted = np.bincount(bins, weights=weights, minlength=BINS)
    return counts, hist, edges, weighted


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
    rng = np.random.default_rng(505)
    x = np.concatenate([rng.normal(-1.0, 1.2, n - n // 4), rng.normal(2.0, 0.5, n // 4)])
    weights = rng.exponential(1.0, n)
    # The values and weights read once; the four small results written once.
    essential = x.nbytes + weights.nbytes + 3 * BINS * 8 + (BINS + 1) * 8
    counts, hist, edges, weighted = measure("histogram_binning", binning, lambda: (x, weights), essential)
    for name, a in (("counts", counts), ("histogram", hist), ("edges", edges), ("weighted", weighted)):
        print(name, a.dtype, a.shape, digest(a))


if __name__ == "__main__":
    main()
