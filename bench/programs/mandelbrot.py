"""Escape-time Mandelbrot set on a 600 x 800 grid of the complex plane (each
point jittered within its pixel), 50 iterations of z = z**2 + c on the points
not yet escaped (a boolean mask), recording the iteration at which each
point's |z| passed 2 (complex128).

usage: python3 mandelbrot.py [rows]   (grid rows; 4/3 as many columns; 600 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402

ITERATIONS = 50


def mandelbrot(c, iterations):
    z = np.zeros_like(c)
    counts = np.full(c.shape, iterations, dtype=np.int32)
    m = np.ones(c.shape, dtype=bool)
    for i in range(iterations):
        z[m] = z[m] ** 2 + c[m]
        escaped = np.abs(z) > 2
        counts[m & escaped] = i
        m &= ~escaped
    return counts, z, m


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    cols = rows * 4 // 3
    rng = np.random.default_rng(707)
    real = np.linspace(-2.2, 0.8, cols)
    imag = np.linspace(-1.2, 1.2, rows)
    pixel = (real[1] - real[0], imag[1] - imag[0])
    c = (real[None, :] + pixel[0] * rng.uniform(-0.5, 0.5, (rows, cols))) \
        + 1j * (imag[:, None] + pixel[1] * rng.uniform(-0.5, 0.5, (rows, cols)))
    # c read once; the counts, the final z and the mask written once.
    essential = c.nbytes + c.size * (4 + 16 + 1)
    counts, z, m = measure("mandelbrot", mandelbrot, lambda: (c, ITERATIONS), essential)
    print("counts", counts.dtype, counts.shape, digest(counts))
    print("z", z.dtype, z.shape, digest(z))
    print("inside", m.dtype, m.shape, digest(m), repr(int(m.sum())))


if __name__ == "__main__":
    main()
