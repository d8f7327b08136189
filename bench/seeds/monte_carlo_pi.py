"""Monte Carlo estimate of pi from 10 million seeded random points."""
import sys

import numpy as np

from benchlib import measure


def estimate_pi(x, y):
    return 4.0 * np.mean(x * x + y * y <= 1.0)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    rng = np.random.default_rng(42)
    x = rng.random(n)
    y = rng.random(n)
    essential = x.nbytes + y.nbytes
    pi = measure("monte_carlo_pi", estimate_pi, lambda: (x, y), essential)
    print(f"pi ~ {float(pi):.6f}")


if __name__ == "__main__":
    main()
