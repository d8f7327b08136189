"""Contour integrals of f(z) = 1 / (z - a) + z**2 around circles of radius r
about several centres c, each sampled at 262,144 points of the circle
(z = c + r * exp(1j * t), dz = 1j * r * exp(1j * t) * dt, the integral the
sum of f(z) * dz), one centre after another in a Python loop (complex128).
About a centre whose circle encloses the pole a the integral is 2 pi i.

usage: python3 contour_integral.py [points]   (points on each circle; 262,144 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402

POLE = 0.3 - 0.2j
RADIUS = 1.0


def integrals(t, centres):
    dt = t[1] - t[0]
    results = np.empty(len(centres), dtype=np.complex128)
    for k, c in enumerate(centres):
        w = RADIUS * np.exp(1j * t)
        z = c + w
        dz = 1j * w * dt
        f = 1.0 / (z - POLE) + z**2
        results[k] = np.sum(f * dz)
    return results


def main():
    m = int(sys.argv[1]) if len(sys.argv) > 1 else 262_144
    rng = np.random.default_rng(606)
    t = np.linspace(0.0, 2 * np.pi, m, endpoint=False)
    centres = rng.uniform(-1.5, 1.5, 12) + 1j * rng.uniform(-1.5, 1.5, 12)
    # The angles and centres read once; one integral per centre written.
    essential = t.nbytes + centres.nbytes + centres.nbytes
    results = measure("contour_integral", integrals, lambda: (t, centres), essential)
    print("integrals", results.dtype, results.shape, digest(results))
    for value in results:
        print(repr(value))


if __name__ == "__main__":
    main()
