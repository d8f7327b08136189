"""From the seeds: the element-wise product of two 10,000 x 10,000 float32
matrices."""
import sys

import numpy as np

from benchlib import measure


def element_wise_mult(A, B):
    return A * B


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rng = np.random.default_rng(4)
    A = rng.standard_normal((n, n), dtype=np.float32)
    B = rng.standard_normal((n, n), dtype=np.float32)
    essential = 3 * A.nbytes
    result = measure("ewmul_10k_f32", element_wise_mult, lambda: (A, B), essential)
    print(result.dtype, result.shape, f"{float(result[::97, ::89].sum()):.4f}")


if __name__ == "__main__":
    main()
