"""PolyBench 2mm: D = alpha * A @ B @ C + beta * D, two matrix products and
a scaled sum, with PolyBench's LARGE sizes by default (A 800 x 1100,
B 1100 x 900, C 900 x 1200, D 800 x 1200, float64).

usage: python3 two_mm.py [ni]   (A's rows; the other sizes scale with it, 800 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402


def two_mm(alpha, beta, A, B, C, D):
    return alpha * A @ B @ C + beta * D


def main():
    ni = int(sys.argv[1]) if len(sys.argv) > 1 else 800
    nj, nk, nl = ni * 9 // 8, ni * 11 // 8, ni * 3 // 2
    rng = np.random.default_rng(202)
    A = rng.random((ni, nk))
    B = rng.random((nk, nj))
    C = rng.random((nj, nl))
    D = rng.random((ni, nl))
    alpha, beta = 1.5, 1.2
    # A, B, C and D read once; the new D written once.
    essential = A.nbytes + B.nbytes + C.nbytes + D.nbytes + D.nbytes
    result = measure("two_mm", two_mm, lambda: (alpha, beta, A, B, C, D), essential)
    print("D", result.dtype, result.shape, digest(result))


if __name__ == "__main__":
    main()
