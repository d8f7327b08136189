"""Makes ever new kernels: each iteration's region is a chain of
element-wise ops of its own (the index's digits in base 6 pick them), and
prints how much the resident memory grew between the first quarter's
kernels and the last (kB)."""
import sys

import numpy as np

OPS = (np.add, np.multiply, np.subtract, np.maximum, np.minimum, np.hypot)


def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


def chain(x, i):
    y = x
    while i:
        i, d = divmod(i, len(OPS))
        y = OPS[d](y, x)
    return float(y[-1])


count = int(sys.argv[1])
x = np.linspace(0.5, 1.5, 4096)
total = 0.0
for i in range(count // 4):
    total += chain(x, i)
before = rss_kb()
for i in range(count // 4, count):
    total += chain(x, i)
print(rss_kb() - before, total)
