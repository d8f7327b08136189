# Integer sums, float and integer min and max, any and all, argmin and argmax along rows
# longer than a vector (population.sum(axis=1), (x > t).sum(axis=1),
# np.any(x < 0, axis=1), logits.argmax(axis=1)),
# which npython runs many rows to a kernel call, each row's whole vectors in
# place and its last elements apart: every integer and bool dtype, row
# lengths around the vector widths and up to the longest that run so,
# sums that wrap around, computed and broadcast operands, keepdims, dtype=,
# views of rows, and bools stored as bytes other than 1. Values by
# checksum of every byte. In a function: evaluated frames only.
import numpy as np

from corpus_digest import show

INTEGERS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def random_ints(rng, dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


def main():
    rng = np.random.default_rng(127)
    for dtype in INTEGERS:
        name = np.dtype(dtype).name
        for row in (64, 65, 70, 96, 100, 127, 129, 1000, 4099):
            x = random_ints(rng, dtype, (max(2, 60000 // row), row))
            show(f"{name} {row} sum", x.sum(axis=1))
            show(f"{name} {row} min", x.min(axis=1))
            show(f"{name} {row} max", np.max(x, axis=1))
            show(f"{name} {row} any", np.any(x, axis=1))
            show(f"{name} {row} all", (x != 3).all(axis=1))
            show(f"{name} {row} count", (x > 0).sum(axis=1))
            show(f"{name} {row} argmax", x.argmax(axis=1))
            show(f"{name} {row} argmin", np.argmin(x, axis=1))
            small = x % 3 if dtype != np.int8 else x & 1  # many ties
            show(f"{name} {row} argmax of ties", small.argmax(axis=1))
        x = random_ints(rng, dtype, (40, 30, 101))
        show(f"{name} 3-d sum", x.sum(axis=-1))
        show(f"{name} 3-d max keepdims", x.max(axis=2, keepdims=True))
        show(f"{name} sum as int32", x.sum(axis=2, dtype=np.int32))
        show(f"{name} rows of a wider array", x[:, :, :90].sum(axis=2))
        show(f"{name} every other row", x[:, ::2].min(axis=2))
        show(f"{name} every other element", x[:, :, ::2].sum(axis=2))
        show(f"{name} reversed rows", x[:, :, ::-1].max(axis=2))
        show(f"{name} computed", ((x & 7) == 5).sum(axis=2))
    for dtype in (np.float32, np.float64):
        x = rng.standard_normal((700, 333)).astype(dtype)
        x[5, 300] = np.nan
        name = np.dtype(dtype).name
        show(f"{name} any negative", np.any(x < -3, axis=1))
        show(f"{name} all finite", np.isfinite(x).all(axis=1))
        show(f"{name} count over", (x > 1).sum(axis=1))
        t = rng.standard_normal(700).astype(dtype)
        show(f"{name} over each row's threshold", (x > t[:, None]).sum(axis=1))
        for row in (9, 10, 17, 20, 64, 100, 1000):
            y = rng.standard_normal((max(2, 40000 // row), row)).astype(dtype)
            y[1, row - 1] = np.nan
            y[2, 0] = np.nan
            y[3, row // 2:] = np.nan
            y[4] = 0.0
            y[5, ::2] = -0.0
            y[5, 1::2] = 0.0
            y[6] = np.inf
            y[7, -1] = -np.inf
            y[8] = np.round(y[8])
            show(f"{name} {row} argmax", y.argmax(axis=1))
            show(f"{name} {row} argmin", np.argmin(y, axis=1))
            show(f"{name} {row} argmax of computed", (y * y).argmax(axis=1))
            show(f"{name} {row} argmin of rounded", np.round(y).argmin(axis=1))
            # min and max: but for row 5, whose zeros of both signs are
            # extreme (which sign comes out is documented to differ).
            z = np.delete(y, 5, axis=0)
            z[9, ::3] = np.copysign(np.nan, -1)  # NaNs of both signs in one row
            z[9, 1::3] = np.nan
            bits = np.uint64 if dtype == np.float64 else np.uint32
            quiet_nan = bits(0x7FF8000000000000) if dtype == np.float64 else bits(0x7FC00000)
            z[10] = (np.arange(1, 1 + row).astype(bits) | quiet_nan).view(dtype)  # NaNs of many payloads (NumPy gives its own)
            show(f"{name} {row} max", z.max(axis=1))
            show(f"{name} {row} min", np.min(z, axis=1))
            show(f"{name} {row} max keepdims of computed", (z * 2).max(axis=1, keepdims=True))
            show(f"{name} {row} min of reversed rows", z[:, ::-1].min(axis=1))
    population = rng.integers(1, 25, size=(3000, 1000), dtype=np.int8)
    show("population", np.sum(population, axis=1))
    mask = rng.random((800, 250)) < 0.3
    show("mask rows", mask.sum(axis=1))
    show("mask any", mask.any(axis=1))
    show("mask all", (~mask).all(axis=1))
    bytes_ = np.zeros((500, 77), dtype=np.uint8)
    bytes_[:, ::3] = 7
    bytes_[::4] = 0
    as_bools = bytes_.view(np.bool_)
    show("bools of other bytes than 1: sum", as_bools.sum(axis=1))
    show("bools of other bytes than 1: any", as_bools.any(axis=1))
    show("bools of other bytes than 1: all", as_bools.all(axis=1))
    show("int64 wrapping", np.full((64, 200), np.iinfo(np.int64).max, dtype=np.int64).sum(axis=1))
    show("uint64 wrapping", np.full((64, 200), np.iinfo(np.uint64).max, dtype=np.uint64).sum(axis=1))
    for row in (65536, 65537):
        show(f"int16 longest rows {row}", np.full((3, row), 32767, dtype=np.int16).sum(axis=1))
        show(f"uint16 longest rows {row}", np.full((3, row), 65535, dtype=np.uint16).sum(axis=1))
        show(f"int16 lowest rows {row}", np.full((3, row), -32768, dtype=np.int16).sum(axis=1))


main()
