# Calls on small float64 arrays (below the size regions start at), which
# npython computes without NumPy's per-call machinery: the results, their
# types and flags, and every case it must leave to NumPy (warnings under
# each errstate mode, broadcasting, other dtypes, views, subclasses, 0-d
# arrays, keyword arguments, `out=`), bit for bit. In a function: evaluated
# frames only.
import warnings

import numpy as np

warnings.simplefilter("always")


def show(label, value):
    if isinstance(value, np.ndarray):
        print(label, type(value).__name__, value.dtype, value.shape, value.flags.c_contiguous,
              value.flags.owndata, value.tobytes().hex())
    else:
        print(label, type(value).__name__, repr(value), np.asarray(value).tobytes().hex())


class Tagged(np.ndarray):
    pass


def main():
    specials = [-0.0, 0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 1e308, 5e-324, -7.0]
    x = np.array(specials)
    y = np.array(specials[::-1])
    finite = np.array([0.5, -1.25, 3.0, 1e-300, -2e300, 7.0, -0.0, 0.0])
    pos = np.array([0.25, 4.0, 9.0, 2.0, 1e-310])
    zeros = np.array([-0.0, 0.0, -0.0, 0.0, 1.0])
    other = np.array([0.0, -0.0, -0.0, 0.0, np.inf])
    with np.errstate(all="ignore"):
        for label, value in [
            ("x + y", x + y), ("x - y", x - y), ("x * y", x * y), ("x / y", x / y),
            ("np.maximum", np.maximum(x, y)), ("np.minimum", np.minimum(x, y)),
            ("np.maximum scalar", np.maximum(x, 0.0)), ("np.minimum -0.0", np.minimum(-0.0, x)),
            ("np.sqrt", np.sqrt(x)), ("np.abs", np.abs(x)), ("np.negative", np.negative(x)), ("-x", -x),
            ("x.sum()", x.sum()), ("np.mean(x)", np.mean(x)),
        ]:
            show(label, value)
    for label, value in [
        ("maximum of zeros", np.maximum(zeros, other)), ("minimum of zeros", np.minimum(zeros, other)),
        ("maximum 0.0", np.maximum(zeros, 0.0)), ("minimum -0.0", np.minimum(-0.0, zeros)),
        ("maximum of NaNs", np.maximum(np.array([np.nan, 1.0, 2.0]), np.array([3.0, np.nan, 1.0]))),
        ("minimum of NaNs", np.minimum(np.array([np.nan, 1.0, 2.0]), np.array([3.0, np.nan, 1.0]))),
        ("sum of -0.0 x 9", np.full(9, -0.0).sum()), ("sum of -0.0 x 3", np.full(3, -0.0).sum()),
        ("means", [np.arange(1.0, k).mean() / 3 for k in range(2, 40)]),
        ("means of tenths", [np.mean(np.arange(k) / 10) for k in range(1, 40)]),
        ("f + 2", finite + 2), ("3 - f", 3 - finite), ("f * 0.1", finite * 0.1), ("1.0 / pos", 1.0 / pos),
        ("f / 2**53", finite / 2**53), ("f * (2**53 + 1)", finite * (2**53 + 1)), ("f + True", finite + True),
        ("np.add", np.add(finite, finite)), ("np.subtract", np.subtract(finite, 1)),
        ("np.multiply", np.multiply(2, finite)), ("np.divide", np.divide(finite, 4.0)),
        ("np.true_divide", np.true_divide(pos, pos)), ("np.sqrt(pos)", np.sqrt(pos)),
        ("np.absolute", np.absolute(finite)), ("-(-0.0)", -np.array([-0.0, 0.0])),
        ("sum", finite.sum()), ("mean", finite.mean()), ("np.sum", np.sum(pos)),
        ("sum of 1000", np.linspace(-1, 1, 1000).sum()), ("mean of 1999", np.mean(np.linspace(0, 3, 1999))),
        ("sum of 7", np.arange(7.0).sum()), ("sum of -0.0", np.array([-0.0]).sum()),
        ("sum of empty", np.zeros(0).sum()), ("2-d", np.ones((3, 4)) * finite[:4]),
        ("2-d sum", (np.arange(12.0).reshape(3, 4) / 7).sum()),
        ("f * np.float64(3)", finite * np.float64(3)), ("f + np.float32(1)", finite + np.float32(1)),
        ("float32 * 0.1", np.ones(4, np.float32) * 0.1), ("int / 2", np.arange(4) / 2),
        ("broadcast", finite[:4] + np.ones((2, 4))), ("every other", finite[::2] * 2.0),
        ("F order", np.asfortranarray(np.ones((2, 3))) * 2.0), ("0-d", np.array(2.5) * 2.0),
        ("0-d sum", np.array(2.5).sum()), ("subclass", (finite.view(Tagged) * 2.0)),
        ("out=", np.add(finite, 1.0, out=np.empty(8))), ("dtype=", np.add(finite, 1, dtype=np.float32)),
        ("sum(axis=0)", np.ones((2, 3)).sum(axis=0)), ("mean keepdims", pos.mean(keepdims=True)),
        ("f * 2**70", finite * 2**70), ("big int", finite + 10**400 // 10**390),
    ]:
        show(label, value)
    for mode in ("warn", "raise", "ignore"):
        with np.errstate(all=mode):
            for label, compute in [
                ("1 / 0", lambda: np.array([1.0, 0.0]) / np.array([0.0, 0.0])),
                ("sqrt(-1)", lambda: np.sqrt(np.array([-1.0, 4.0]))),
                ("overflow", lambda: np.array([1e308]) * 10.0),
                ("underflow", lambda: np.array([1e-308]) / 1e10),
                ("inf - inf", lambda: np.array([np.inf]) - np.inf),
                ("sum overflow", lambda: np.array([1e308, 1e308]).sum()),
                ("mean of empty", lambda: np.zeros(0).mean()),
                ("-nan", lambda: -np.array([np.nan])),
                ("nan + 1", lambda: np.array([np.nan]) + 1.0),
            ]:
                try:
                    show(f"{mode}: {label}", compute())
                except FloatingPointError as e:
                    print(f"{mode}: {label} raised {e}")
    try:
        np.ones(3) + np.ones(4)
    except ValueError as e:
        print("ValueError:", e)
    r = np.ones(5)
    r.flags.writeable = False
    show("read-only operand", r * 2.0)
    swapped = np.array([1.0, 2.0], dtype=">f8")
    show("big-endian", swapped * 2.0)


main()
