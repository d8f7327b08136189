"""Jacobi relaxation on a 2-D grid: 20 in-place five-point updates of the
inside of a 2,000 x 2,000 float64 grid (u[1:-1, 1:-1] from the rows above
and below and the elements either side)."""
import sys

import numpy as np

from benchlib import measure

STEPS = 20


def relax(u, steps):
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    u0 = np.random.default_rng(7).standard_normal((n, n))
    essential = STEPS * 2 * u0.nbytes  # each step reads u and writes its inside
    u = measure("jacobi_2d_20", relax, lambda: (u0.copy(), STEPS), essential)
    print(u.dtype, u.shape, f"{float(u.sum()):.6f}", f"{float(np.abs(u).max()):.6f}")


if __name__ == "__main__":
    main()
