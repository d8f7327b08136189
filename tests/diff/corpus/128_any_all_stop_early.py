# np.any and np.all over whole arrays, which npython stops computing once
# the result is known (a True for any, a False for all) where the values
# they read are quiet to compute, and scans in place for bool and integer
# arrays as they are: the deciding element first, last, in the middle, or
# nowhere; empty arrays; integers whose nonzero values have zero bytes;
# bools stored as bytes other than 1; computed comparisons; and work that
# NumPy warns about or raises for past the deciding element (those must
# still warn and raise, so npython computes them whole). Also min and max
# of whole 8- and 16-bit integer arrays, which npython scans in place:
# extremes at either end, views, unaligned data. In a function: evaluated
# frames only.
import warnings

import numpy as np


def main():
    rng = np.random.default_rng(128)
    n = 3_000_000
    for where in (0, 1, n // 2, n - 1, None):
        mask = np.zeros(n, dtype=bool)
        if where is not None:
            mask[where] = True
        print("any", where, np.any(mask), mask.any(), np.all(~mask), (~mask).all())
        print("all", where, np.all(mask), np.any(~mask))
        x = np.zeros(n)
        if where is not None:
            x[where] = 5.0
        print("computed", where, np.any(x > 1), np.all(x < 1), np.any(np.isnan(x)), np.all(np.isfinite(x)))
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64):
        ints = np.full(n, 256 if np.dtype(dtype).itemsize > 1 else 1, dtype=dtype)
        print(np.dtype(dtype).name, "nonzero with zero bytes: all", np.all(ints), "any", np.any(ints))
        ints[n - 2] = 0
        print(np.dtype(dtype).name, "one zero: all", np.all(ints), ints.all(), "any", np.any(ints))
        print(np.dtype(dtype).name, "reversed", np.all(ints[::-1]), "every other", np.all(ints[1::2]), np.all(ints[::2]))
    empty = np.zeros(0, dtype=bool)
    print("empty", np.any(empty), np.all(empty), np.any(np.zeros(0, dtype=np.int32)), np.all(np.zeros(0)))
    raw = np.zeros(n, dtype=np.uint8)
    raw[n - 5] = 7
    print("bytes other than 1", np.any(raw.view(np.bool_)), np.all(raw.view(np.bool_)))
    raw[:] = 7
    print("all bytes 7", np.all(raw.view(np.bool_)))
    matrix = np.zeros((2000, 1500), dtype=np.int16)
    matrix[1999, 1499] = 3
    print("2-d", np.any(matrix), np.all(matrix == 0), np.any(matrix.T > 2), np.all(matrix[:, :1000] == 0))
    print("3-d", np.any(matrix.reshape(100, 20, 1500) != 0), np.all(matrix.reshape(100, 20, 1500) >= 0))

    for dtype in (np.int8, np.uint8, np.int16, np.uint16):
        info = np.iinfo(dtype)
        name = np.dtype(dtype).name
        x = rng.integers(info.min // 2, info.max // 2, size=(700, 900), dtype=dtype)
        print(name, "min max", x.min(), x.max(), np.min(x), np.amax(x))
        x[-1, -1] = info.max
        x[0, 0] = info.min
        print(name, "extremes at the ends", x.min(), x.max(), x.ravel()[1:].min(), x.ravel()[:-1].max())
        print(name, "views", x[::2].max(), x[:, ::-1].min(), x.T.max(), x[1:, 1:].min(), x.min(keepdims=True))
        raw = np.zeros(2 * x.size + 1, dtype=np.uint8)
        unaligned = np.frombuffer(raw.data, dtype=dtype, count=x.size // 2, offset=1)
        raw[1:1 + unaligned.nbytes] = np.frombuffer(x.tobytes()[:unaligned.nbytes], dtype=np.uint8)
        print(name, "unaligned", unaligned.min(), unaligned.max())

    # Past the deciding first element, a division by zero and a square root
    # of a negative number: NumPy computes them whole and warns.
    num = np.ones(n)
    den = np.ones(n)
    den[n - 3] = 0.0
    print("divide", np.any(num / den > 0.5))
    neg = np.full(n, 4.0)
    neg[n - 1] = -1.0
    print("sqrt", np.any(np.sqrt(neg) > 1.0), np.all(np.sqrt(neg) < 0))
    with np.errstate(divide="raise"):
        try:
            print("raise", np.any(num / den > 0.5))
        except FloatingPointError as error:
            print("FloatingPointError", error)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print("caught", np.all(np.log(neg) > 0), [str(w.message) for w in caught])


main()
