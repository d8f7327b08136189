# A code object holding an instruction no CPython evaluator knows: the
# call must fail with CPython's SystemError, not crash.
import numpy as np  # so that npython's default policy evaluates this file


def victim():
    return 1


code = victim.__code__
raw = bytearray(code.co_code)
raw[2] = 230  # no instruction has this number, in 3.11 or 3.12
victim.__code__ = code.replace(co_code=bytes(raw))
try:
    victim()
except SystemError as e:
    print("SystemError:", e)
print("still running", np.int64(3) + 4)
