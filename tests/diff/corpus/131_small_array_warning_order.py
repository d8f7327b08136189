# Operations on small arrays, which npython leaves to NumPy, that warn while
# a region with pending floating-point warnings is open: NumPy warns in
# program order, so the region's warnings must come first (random-programs
# seed 102 found the cast's warning shown before the division's).
import warnings

import numpy as np


def main(big, small, small32):
    t0 = big / big                  # invalid value (0 / 0), pending in the region
    t1 = small32 >= 1e300           # overflow in the cast of 1e300 to float32, now
    t2 = np.log(big - 1.0)          # invalid value and divide by zero, pending
    t3 = small / 0.0                # divide by zero and invalid value, now
    t4 = np.sqrt(small - 10.0)      # invalid value, now
    print(int(np.isnan(t0).sum()), int(t1.sum()), int(np.isnan(t2).sum()), int(np.isinf(t3).sum()),
          int(np.isnan(t4).sum()))


big = (np.arange(8192) % 3).astype(np.uint32)
small = np.arange(10, dtype=np.float64)
small32 = np.ones(100, dtype=np.float32)
main(big, small, small32)
main(big.astype(np.float64), small, small32)  # the same lines: shown once each
warnings.simplefilter("always")
main(big, small, small32)
