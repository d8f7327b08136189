# A region that fails (MemoryError: a broadcast of 10^12 elements) raises
# once, and the program's handler goes on: values of the failed region are
# not computed again by later work.
# diff: not under sanitizers (AddressSanitizer's allocator aborts on, or
# warns of, the 7 TiB request that NumPy's own allocator refuses quietly)
import numpy as np


def fallback_on_memory_error():
    a = np.ones(10**6)
    b = np.ones((10**6, 1))
    try:
        c = a * b
        print("no error", c.shape)
    except MemoryError:
        print("fallback")
    d = a * 2
    print("done", d.sum())


fallback_on_memory_error()
