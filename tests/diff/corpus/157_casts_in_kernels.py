# Casts computed in kernels: float64 to float32 (rounded in a kernel of
# doubles, stored as floats), floats to the integers of their width
# (float64 to int64, float32 to int32, truncated), float32 data to int64,
# floats to int32 and to integers of 8 and 16 bits (through int32: its low
# bits) and 64-bit integers to 32-bit ones (their low halves). Rounding ties, NaN
# payloads, infinities, subnormal results, values near 2**53 and 2**63,
# -2**63 itself; NumPy's "overflow encountered in cast" and "invalid value
# encountered in cast" warnings, and the values where errstate ignores them.
# Shapes with tails, columns and strides; binning as programs write it.
import warnings

import numpy as np

from corpus_digest import show

warnings.simplefilter("always")
rng = np.random.default_rng(157)


def values(n):
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-45, 45, n)
    with np.errstate(over="ignore"):
        x[1::7] = np.float64(np.float32(x[1::7])) * (1 + 2.0**-24)
    x[::11] = np.round(x[::11])
    specials = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 2.0**63, -2.0**63, 2.0**63 - 1024,
                -2.0**63 - 2048, 2.0**53 + 2, -2.0**52 - 1, 3.4028235677973366e+38, 1e-46,
                np.array(0x7FF8_0000_DEAD_BEEF, dtype=np.uint64).view(np.float64)]
    x[:len(specials)] = specials
    return x


def casts(x):
    return [(x * 1.0).astype(np.float32), np.abs(x).astype(np.float32) + np.float32(1),
            (x * 0.5).astype(np.int64), (x[::3] + 2.0).astype(np.int64),
            (x.astype(np.float32) * 2).astype(np.int32), (x * 2.0).astype(np.int32),
            (x + 0.5).astype(np.uint8), (x * 1.0).astype(np.int16), (x[::2] - 1.0).astype(np.uint16),
            (x.astype(np.float32) * 3).astype(np.int8), np.array(x, dtype=np.float32).astype(np.int64)]


def main():
    for n in [2048, 2051, 40_000]:
        x = values(n)
        finite = x[np.abs(x) < 1e18]
        for label, data in (("finite", finite), ("all", x)):
            with warnings.catch_warnings(record=True) as caught:
                results = casts(data)
            for k, r in enumerate(results):
                show(f"{n} {label} {k}", r)
            print("  warnings:", [str(w.message) for w in caught])
        with np.errstate(over="ignore", invalid="ignore"):
            for k, r in enumerate(casts(x)):
                show(f"{n} ignored {k}", r)
    m = values(300 * 257).reshape(300, 257)
    with np.errstate(all="ignore"):
        show("columns", m[:, 3:200].astype(np.float32))
        show("column ints", (m[:, 10] * 2).astype(np.int64))
    i = rng.integers(-2**63, 2**63 - 1, 50_001, dtype=np.int64, endpoint=True)
    i[:6] = [2**31 - 1, 2**31, -2**31, -2**31 - 1, -1, 2**32]
    u = i.view(np.uint64)
    show("int32", (i * 3).astype(np.int32))
    show("uint32", (i + 1).astype(np.uint32))
    show("from uint64", [(u >> 3).astype(np.uint32), (u ^ 5).astype(np.int32), u[::3].astype(np.int32)])
    samples = rng.uniform(-1e3, 1e3, 100_000)
    bins = ((samples + 1e3) / 25.0).astype(np.int64)
    show("bins", bins)
    show("counts", np.bincount(bins))


main()
