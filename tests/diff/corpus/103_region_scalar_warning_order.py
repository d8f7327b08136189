# A NumPy-scalar operator that warns (scalar math overflow, division by
# zero) while a region with a pending floating-point warning is open: NumPy
# warns in program order, so the region's warning must come first.
import warnings

import numpy as np

warnings.simplefilter("always")


def main(a, s):
    q = np.divide(np.int8(-3), a)          # divide by zero, pending in the region
    u = s - np.uint64(2**63)               # scalar math: overflow, now
    v = np.float64(1.0) / np.float64(0.0)  # scalar math: divide by zero
    w = -np.int8(-128)                     # scalar math: overflow
    print(q.dtype, int(np.isinf(q).sum()), u, v, w)


main((np.arange(8192) % 9 - 4).astype(np.int8)[::2], np.uint32(3))
