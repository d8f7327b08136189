# Element-wise results larger than the caches (64 MiB and more), which
# kernels write with streaming stores where the vectors are aligned: a flat
# array, rows whose starts are not aligned, float32 and float64, and two
# outputs of one loop. Checksums of every byte. In a function: evaluated
# frames only.
import hashlib

import numpy as np


def digest(a):
    return a.dtype.name, a.shape, hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest()


def main():
    n = 8_400_000
    a = np.arange(n, dtype=np.float64)
    print("flat", digest(a * 0.5 + 1.0))
    f = np.linspace(-4, 4, 2 * n, dtype=np.float32)
    print("float32", digest(np.sqrt(np.abs(f)) * f))
    m = np.arange(2897 * 2897, dtype=np.float64).reshape(2897, 2897)
    print("odd rows", digest(m / 3.0 - 1.0))
    left = m[:, 1:] * 2.0
    print("unaligned view", digest(left))
    x = a - 3.0
    y = x * x
    print("two outputs", digest(x), digest(y))


main()
