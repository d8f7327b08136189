"""PolyBench 3mm: E = A @ B, F = C @ D, G = E @ F, here with each product
scaled element-wise before the next (E by alpha, F by a weight per column),
with PolyBench's LARGE sizes by default (A 800 x 1000, B 1000 x 900,
C 900 x 1200, D 1200 x 1100, float64).

usage: python3 three_mm.py [ni]   (A's rows; the other sizes scale with it, 800 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402


def three_mm(alpha, column_weights, A, B, C, D):
    E = alpha * (A @ B)
    F = (C @ D) * column_weights
    G = E @ F
    return G


def main():
    ni = int(sys.argv[1]) if len(sys.argv) > 1 else 800
    nj, nk, nl, nm = ni * 9 // 8, ni * 5 // 4, ni * 11 // 8, ni * 3 // 2
    rng = np.random.default_rng(303)
    A = rng.random((ni, nk))
    B = rng.random((nk, nj))
    C = rng.random((nj, nm))
    D = rng.random((nm, nl))
    column_weights = rng.uniform(0.5, 1.5, size=nl)
    alpha = 0.25
    # A, B, C, D and the weights read once; G written once.
    essential = A.nbytes + B.nbytes + C.nbytes + D.nbytes + column_weights.nbytes + ni * nl * 8
    G = measure("three_mm", three_mm, lambda: (alpha, column_weights, A, B, C, D), essential)
    print("G", G.dtype, G.shape, digest(G))


if __name__ == "__main__":
    main()
