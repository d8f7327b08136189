# A Python int meets float32 arrays (NEP 50: the result is float32). NumPy
# converts the int to a double, then the double to float32: an int that
# needs more than 53 bits is rounded twice (2**54 + 2**30 + 1 gives 2**54,
# not the nearer 2**54 + 2**31). Kernels convert it so too.
import numpy as np


def with_int(a, k):
    return a + k, a * k, np.maximum(a, k), a - k, k - a


def main():
    a = np.linspace(-2.0, 2.0, 4099).astype(np.float32)
    for k in (2**54 + 2**30 + 1, -(2**54 + 2**30 + 1), 2**62 + 2**38 + 1, 2**24 + 1, 2**25 + 3,
              2**40 + 2**16 + 1, 123456789, 7, -3, 0):
        results = with_int(a, k)
        print(k, [repr(r[0]) for r in results], [repr(r[-1]) for r in results],
              {r.dtype.name for r in results}, [float(r.astype(np.float64).sum()) for r in results])


main()
