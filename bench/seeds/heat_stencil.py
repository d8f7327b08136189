"""An explicit 1-D heat equation: 50 in-place stencil updates of 4 million
float64 values."""
import sys

import numpy as np

from benchlib import measure

STEPS = 50


def heat(u, steps):
    for _ in range(steps):
        u[1:-1] = u[1:-1] + 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
    u0 = np.random.default_rng(5).standard_normal(n)
    essential = STEPS * 2 * u0.nbytes  # each step reads u and writes its interior
    u = measure("heat_stencil_50", heat, lambda: (u0.copy(), STEPS), essential)
    print(u.dtype, u.shape, f"{float(u.sum()):.6f}", f"{float(np.abs(u).max()):.6f}")


if __name__ == "__main__":
    main()
