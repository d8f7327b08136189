# The process's first complex division has a pending dividend: the tracer
# asks NumPy's own divide once, there, whether it divides as the kernels
# do, and nothing it runs for that may end the region being recorded (with
# NPY_INTERP=all a Python-level np.errstate did, and the quotient was made
# from another region's nodes). Then pending divisors, both pending, and
# quotients at module level and in functions.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(168)
z = rng.standard_normal(100_000) + 1j * rng.standard_normal(100_000)
w = rng.standard_normal(100_000) - 2j * rng.standard_normal(100_000)


def chain(a):
    return ((a + 1) * 2 - 1j) / 3


show("first quotient", (z + 1) / 3)
show("chain", chain(z))
show("pending divisor", z / (w * 2 + 1j))
show("both pending", (z - 1) / (w + z))
q = (z * w) / (w - 0.5)
show("named", q + 1)
