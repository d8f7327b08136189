"""Explicit diffusion on a 3-D grid: 10 in-place updates of the inside of a
96 x 96 x 96 float64 array with the 7-point Laplacian (the six neighbours
less six times the point), by slicing.

usage: python3 stencil_3d.py [n]   (grid points along each axis; 96 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402

STEPS = 10
DT = 0.1


def diffuse(u, steps, dt):
    for _ in range(steps):
        u[1:-1, 1:-1, 1:-1] = u[1:-1, 1:-1, 1:-1] + dt * (
            u[2:, 1:-1, 1:-1] + u[:-2, 1:-1, 1:-1]
            + u[1:-1, 2:, 1:-1] + u[1:-1, :-2, 1:-1]
            + u[1:-1, 1:-1, 2:] + u[1:-1, 1:-1, :-2]
            - 6 * u[1:-1, 1:-1, 1:-1])
    return u


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 96
    u0 = np.random.default_rng(808).standard_normal((n, n, n))
    # u read once and written once: the least any schedule moves (the steps
    # could be blocked in time, so they need not each pass over memory).
    essential = 2 * u0.nbytes
    u = measure("stencil_3d", diffuse, lambda: (u0.copy(), STEPS, DT), essential)
    print("u", u.dtype, u.shape, digest(u))


if __name__ == "__main__":
    main()
