"""From the seeds: a data-dependent branch, `if x.sum() > 0: x = x + y`, on
10 million float64 values."""
import sys

import numpy as np

from benchlib import measure


def data_dependent_branch(x, y):
    if x.sum() > 0:
        x = x + y
    return x


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    x = np.ones(n)
    y = np.ones(n)
    essential = x.nbytes + y.nbytes + x.nbytes  # read x and y, write the sum
    result = measure("branch_sum", data_dependent_branch, lambda: (x, y), essential)
    print(result.dtype, result.shape, float(result.sum()))


if __name__ == "__main__":
    main()
