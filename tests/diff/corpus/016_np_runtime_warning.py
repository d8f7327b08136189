# RuntimeWarnings from NumPy printed to stderr under default warning settings.
import sys

import numpy as np


def safe_log(values):
    arr = np.asarray(values, dtype=np.float64)
    return np.log(arr)


def ratio(num, den):
    return np.asarray(num, dtype=np.float64) / np.asarray(den, dtype=np.float64)


print("log:", safe_log([1.0, 0.0, np.e]).round(6).tolist())
sys.stdout.flush()
print("ratio:", ratio([1, 0, 2], [0, 0, 4]).tolist())
sys.stdout.flush()
# same location again: default filter shows it only once
for _ in range(3):
    safe_log([0.0])
print("sqrt:", np.sqrt(np.array([-4.0, 4.0])).tolist())
sys.stdout.flush()
with np.errstate(over="warn"):
    print("exp:", np.exp(np.array([1000.0, 0.0])).tolist())
sys.stdout.flush()
print("int8 scalar overflow:", np.int8(100) + np.int8(100))
sys.stdout.flush()
print("done")
