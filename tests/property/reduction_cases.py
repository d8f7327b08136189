"""Random reductions of arrays as they are, printed by checksum of every
byte: run by test_reduction_order.py under python3 and npython, which must
print the same. Shapes of one to four dimensions (dimensions of one, short
rows, long rows), every layout a program makes without copying (transposes,
Fortran order, reversed, sliced and stepped axes), float64 and float32, and
the reductions whose result depends on the order NumPy adds in: sum, mean,
std, var, prod and np.linalg.norm over all axes, one axis or several, of
the array and of values computed from it; max, min, argmax (without zeros
of both signs, where npython's choice is documented to differ); and integer
and bool sums. Usage: reduction_cases.py SEED COUNT."""
import hashlib
import sys
import warnings

import numpy as np

SIZES = [1, 2, 3, 7, 8, 9, 30, 64, 100, 129, 300, 1000, 3000]


def digest(result):
    result = np.asarray(result)
    return f"{result.dtype} {result.shape} " + hashlib.sha1(np.ascontiguousarray(result).tobytes()).hexdigest()[:12]


def array_of(rng, dims, dtype, near_one):
    if near_one:  # products that neither overflow nor vanish
        return (1.0 + rng.standard_normal(dims) * 1e-3).astype(dtype)
    x = (rng.standard_normal(dims) * 10.0 ** int(rng.integers(-3, 4))).astype(dtype)
    if rng.random() < 0.1:
        x.flat[int(rng.integers(0, x.size))] = [np.nan, np.inf][int(rng.integers(0, 2))]
    return x


def view_of(rng, b):
    views = [b, b.T, np.asfortranarray(b), b[..., ::-1], b[..., 1:], b[::2], b[::-1], np.swapaxes(b, 0, -1)[::2]]
    if b.ndim >= 2:
        views += [b[:, ::-1], b[:, 1:], b[::2, ..., ::3], np.moveaxis(b, 0, -1)]
    return views[int(rng.integers(0, len(views)))]


def axis_of(rng, ndim):
    choice = int(rng.integers(0, 3))
    if choice == 0:
        return None
    if choice == 1:
        return int(rng.integers(-ndim, ndim))
    k = int(rng.integers(1, ndim + 1))
    return tuple(sorted(rng.choice(ndim, size=k, replace=False).tolist()))


OPS = ["sum", "mean", "std", "var", "prod", "norm", "max", "min", "argmax", "sum of computed", "mean of computed"]


def reduce(rng, op, x):
    axis = axis_of(rng, x.ndim)
    keepdims = bool(rng.random() < 0.3)
    if op == "norm":
        if isinstance(axis, tuple) and len(axis) > 2:
            axis = None
        return op, axis, np.linalg.norm(x, axis=axis, keepdims=keepdims)
    if op == "argmax":
        axis = axis if not isinstance(axis, tuple) else None
        return op, axis, x.argmax(axis=axis)
    # Called by name, not through getattr: npython records calls it can see.
    if op == "sum":
        return op, axis, x.sum(axis=axis, keepdims=keepdims)
    if op == "sum of computed":  # NumPy adds its temporary, laid out as x is
        return op, axis, (x * 2.0 + 1.0).sum(axis=axis, keepdims=keepdims)
    if op == "mean of computed":
        return op, axis, np.mean(np.abs(x - 0.5), axis=axis, keepdims=keepdims)
    if op == "mean":
        return op, axis, np.mean(x, axis=axis, keepdims=keepdims)
    if op == "std":
        return op, axis, x.std(axis=axis, keepdims=keepdims)
    if op == "var":
        return op, axis, np.var(x, axis=axis, keepdims=keepdims)
    if op == "prod":
        return op, axis, x.prod(axis=axis, keepdims=keepdims)
    if op == "max":
        return op, axis, x.max(axis=axis, keepdims=keepdims)
    return op, axis, np.min(x, axis=axis, keepdims=keepdims)


def main(seed, count):
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(seed)
    for case in range(count):
        ndim = int(rng.integers(1, 5))
        dims = [int(rng.choice(SIZES)) for _ in range(ndim)]
        while np.prod(dims) > 1_000_000:
            dims[int(np.argmax(dims))] //= 3
        if rng.random() < 0.15:  # integer and bool sums: exact, but their own paths
            dtype = [np.bool_, np.int8, np.int32, np.int64, np.uint8, np.uint64][int(rng.integers(0, 6))]
            op = "sum"
            x = view_of(rng, rng.integers(0, 200, size=dims).astype(dtype))
        else:
            dtype = [np.float64, np.float32][int(rng.integers(0, 2))]
            op = OPS[int(rng.integers(0, len(OPS)))]
            x = view_of(rng, array_of(rng, dims, dtype, op == "prod"))
        try:
            op, axis, result = reduce(rng, op, x)
            out = digest(result)
        except ValueError as error:
            op, axis, out = "error", None, str(error)
        print(case, op, x.shape, x.strides, x.dtype, axis, out)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
