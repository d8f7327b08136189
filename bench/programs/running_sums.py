"""Running sums and products of 4 million daily values: a moving average
of 50 values from the cumulative sum ((c[w:] - c[:-w]) / w), a random walk
(np.cumsum of +1/-1 steps, int64) and its distance from the start, and the
growth of one unit at the values' returns (np.cumprod(1 + r), float64).

usage: python3 running_sums.py [n]   (values; 4,000,000 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402

WINDOW = 50


def running(x, u):
    c = np.cumsum(x)
    moving = (c[WINDOW:] - c[:-WINDOW]) / WINDOW
    walk = np.cumsum(np.where(u > 0.5, 1, -1))
    distance = np.abs(walk)
    growth = np.cumprod(1.0 + x * 0.001)
    return moving, walk, distance, growth


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
    rng = np.random.default_rng(707)
    x = rng.standard_normal(n)
    u = rng.random(n)
    # The values and uniforms read once; the four results written once.
    essential = x.nbytes + u.nbytes + 4 * n * 8
    results = measure("running_sums", running, lambda: (x, u), essential)
    for name, a in zip(("moving", "walk", "distance", "growth"), results):
        print(name, a.dtype, a.shape, digest(a))


if __name__ == "__main__":
    main()
