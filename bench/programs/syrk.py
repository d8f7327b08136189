"""PolyBench syrk: the symmetric rank-k update C = alpha * A @ A.T + beta * C,
of which the lower triangle (np.tril) is the result, with PolyBench's LARGE
sizes by default (A 1200 x 1000, C 1200 x 1200, float64).

usage: python3 syrk.py [n]   (C's rows and columns; A has 5/6 as many columns; 1200 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402


def syrk(alpha, beta, A, C):
    return np.tril(alpha * A @ A.T + beta * C)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1200
    m = n * 5 // 6
    rng = np.random.default_rng(404)
    A = rng.random((n, m))
    C = rng.random((n, n))
    C = C + C.T  # a symmetric matrix, as syrk updates
    alpha, beta = 1.5, 1.2
    # A and C read once; the result written once.
    essential = A.nbytes + C.nbytes + C.nbytes
    result = measure("syrk", syrk, lambda: (alpha, beta, A, C), essential)
    print("C", result.dtype, result.shape, digest(result))


if __name__ == "__main__":
    main()
