"""Helper module imported by corpus programs (not a test program itself):
prints a result as its dtype, shape and a checksum of every byte, so that
programs compare whole arrays bit for bit in one line each."""
import hashlib

import numpy as np


def show(name, r):
    r = np.asarray(r)
    digest = hashlib.sha1(np.ascontiguousarray(r).tobytes()).hexdigest()[:16]
    print(name, r.dtype, r.shape, digest)
