# Integer arrays to powers: constant exponents (Python ints of 0 or more,
# computed in kernels by squaring) that wrap as NumPy's do, at every width,
# signed and unsigned, beside other integer work, reduced, strided; and the
# forms NumPy keeps: an array of exponents, a negative exponent (NumPy's
# ValueError, at its line), a NumPy scalar exponent, and an exponent beyond
# the array's type (OverflowError).
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(161)


def powers(n):
    j = rng.integers(-1000, 1000, n)
    i = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64, endpoint=True)
    u = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    show(f"{n} squares", j ** 2)
    show(f"{n} cubes shifted", (j - 3) ** 3 + 1)
    show(f"{n} zeroth", j ** 0)
    show(f"{n} first", i ** 1)
    show(f"{n} wrapping int64", i ** 63)
    show(f"{n} wrapping uint64", u ** 12345)
    show(f"{n} uint64 by a big exponent", u ** (2**63 + 5))
    show(f"{n} int32", j.astype(np.int32) ** 5)
    show(f"{n} int16", j.astype(np.int16) ** 11)
    show(f"{n} int8", j.astype(np.int8) ** 3)
    show(f"{n} uint8", j.astype(np.uint8) ** 7)
    show(f"{n} uint32 then shifted", (j.astype(np.uint32) ** 9) >> 3)
    show(f"{n} bool base", (j > 0) ** 3)
    show(f"{n} sum of squares", ((j - j[::-1]) ** 2).sum())
    show(f"{n} beside floats", j ** 2 * 0.5 + np.sqrt(np.abs(j)))
    show(f"{n} stepped", j[::3] ** 4)
    show(f"{n} array of exponents", j ** (np.abs(j) % 5))
    show(f"{n} numpy scalar exponent", j ** np.int64(3))


def power_of(u, e):
    return u ** e


def main():
    for n in (1, 7, 33, 1000, 40_003):
        powers(n)
    # Exponents one apart that one double holds: each its own kernel.
    u = np.arange(3, 5003, dtype=np.uint64)
    for e in (2**60 + 1, 2**60, 2**60 + 1, 2**53 + 1, 2**53):
        show(f"uint64 to {e}", power_of(u, e))
    grid = np.arange(-50, 50).reshape(10, 10)
    show("grid rows", (grid ** 2).sum(axis=1))
    show("grid columns", (grid.T ** 3).sum(axis=0))
    j = np.arange(-5000, 5000)
    try:
        r = j ** -1
        print("no error", r[:3])
    except ValueError as e:
        print("ValueError", e)
    try:
        r = (j % 7 - 3) ** (j % 4 - 1)
        print("no error", r[:3])
    except ValueError as e:
        print("ValueError", e)
    try:
        r = j.astype(np.int8) ** 300
        print("no error", r[:3])
    except OverflowError as e:
        print("OverflowError", e)


main()
