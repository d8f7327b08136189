"""Standardised columns of a data matrix and their correlation matrix: the
z-scores of 50,000 observations of 128 variables ((X - X.mean(0)) / X.std(0))
and Z.T @ Z / (n - 1) (float64).

usage: python3 standardize_cov.py [n]   (observations; 50,000 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402

VARIABLES = 128


def standardize_cov(X):
    n = X.shape[0]
    Z = (X - X.mean(0)) / X.std(0)
    corr = Z.T @ Z / (n - 1)
    return Z, corr


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    rng = np.random.default_rng(909)
    # Correlated variables: independent normals mixed by a random matrix,
    # on scales and offsets of their own.
    mixing = rng.standard_normal((VARIABLES, VARIABLES)) / np.sqrt(VARIABLES)
    X = rng.standard_normal((n, VARIABLES)) @ mixing * rng.uniform(0.1, 10.0, VARIABLES) \
        + rng.uniform(-50.0, 50.0, VARIABLES)
    # X read once; Z and the correlation matrix written once.
    essential = X.nbytes + X.nbytes + VARIABLES * VARIABLES * 8
    Z, corr = measure("standardize_cov", standardize_cov, lambda: (X,), essential)
    print("Z", Z.dtype, Z.shape, digest(Z))
    print("correlation", corr.dtype, corr.shape, digest(corr))


if __name__ == "__main__":
    main()
