"""Reductions down the columns of a table, with element-wise work on both
sides: z-scores of every column (the column means, the deviations, their
standard deviations, the division) and a softmax over each column (the
column maxima, exp of the shifted values, the column sums, the division),
over 100,000 rows of 200 columns (float64)."""
import sys

import numpy as np

from benchlib import measure


def standardise(table):
    return (table - table.mean(axis=0)) / table.std(axis=0)


def softmax_columns(scores):
    e = np.exp(scores - scores.max(axis=0))
    return e / e.sum(axis=0)


def main():
    form = sys.argv[1] if len(sys.argv) > 1 else "standardise"
    rng = np.random.default_rng(11)
    table = 4 * rng.standard_normal((100_000, 200))
    # Read once and written once: the least any schedule moves.
    essential = 2 * table.nbytes
    fn = {"standardise": standardise, "softmax": softmax_columns}[form]
    result = measure(f"columns_{form}", fn, lambda: (table,), essential)
    print(result.dtype, result.shape, float(result[::997, ::13].sum(dtype=np.float64)).hex())


if __name__ == "__main__":
    main()
