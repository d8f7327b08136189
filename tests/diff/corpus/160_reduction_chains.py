# Reductions of reductions, each over one axis of the one before, with
# element-wise work between them: sums, means, norms, products, min and max
# and argmin/argmax over leading, middle and last axes, two and three
# levels, float64 and float32, shapes whose vector dimension leaves a tail,
# NaNs, infinities and signed zeros, values read as they are or computed,
# inputs transposed or sliced, and the root of sums that may be negative
# (NaN where NumPy's is) with floating-point errors warned of, ignored
# and raised.
import warnings

import numpy as np

from corpus_digest import show

rng = np.random.default_rng(160)


def chains(x, y, t):
    return [
        ("sum last, max middle", lambda: x.sum(2).max(1)),
        ("sum last, min first", lambda: x.sum(2).min(0)),
        ("sum last, argmin first", lambda: x.sum(2).argmin(0)),
        ("mean middle, argmax last", lambda: x.mean(1).argmax(1)),
        ("sum first, argmax", lambda: (x * 2).sum(0).argmax(0)),
        ("squares summed twice", lambda: (x * x).sum(2).sum(0)),
        ("distances summed", lambda: ((x - y) ** 2).sum(2).sum(1)),
        ("norm last, max first", lambda: np.linalg.norm(x - y, axis=2).max(0)),
        ("norm first, argmin", lambda: np.linalg.norm(x + 1, axis=0).argmin(1)),
        ("product, sum", lambda: (x * t + 1).prod(1).sum(1)),
        ("between the levels", lambda: (np.abs(x).sum(2) * 3 - 1).mean(0)),
        ("max middle, min first", lambda: (x - y).max(1).min(0)),
        ("root of squares, argmax", lambda: np.sqrt(((x - y) ** 2).sum(2)).argmax(0)),
        ("transposed", lambda: (x.transpose(1, 0, 2) * 1).sum(2).argmin(1)),
        ("sliced", lambda: x[:, ::2, 1:].sum(2).max(0)),
    ]


def kept_last(x, y, t):
    return [
        ("sum middle, max first", lambda: x.sum(1).max(0)),
        ("sum middle, argmin first", lambda: x.sum(1).argmin(0)),
        ("mean first, argmax", lambda: x.mean(0).argmax(0)),
        ("norm middle, min first", lambda: np.linalg.norm(x - y, axis=1).min(0)),
        ("product, sum", lambda: (x * t + 1).prod(1).sum(0)),
        ("between the levels", lambda: (np.abs(x).sum(1) * 3 - 1).mean(0)),
        ("max middle, min first", lambda: (x - y).max(1).min(0)),
        ("sum first, sum first", lambda: (x * x).sum(0).sum(0)),
    ]


def main():
    for dtype in (np.float64, np.float32):
        t = dtype(0.25)
        for shape in [(3, 5000, 2), (7, 3001, 9), (4, 2500, 130), (2, 4100, 300), (5, 6, 4099), (4099, 3, 2),
                      (1, 2049, 3)]:
            x = rng.standard_normal(shape).astype(dtype)
            y = rng.standard_normal(shape[1:]).astype(dtype)
            for name, chain in chains(x, y, t):
                show(f"{dtype.__name__} {shape} {name}", chain())
            # The same with the kept dimension last in memory, where the
            # levels run as one chain.
            x = rng.standard_normal((shape[0], shape[2], shape[1])).astype(dtype)
            y = rng.standard_normal((shape[2], shape[1])).astype(dtype)
            for name, chain in kept_last(x, y, t):
                show(f"{dtype.__name__} {x.shape} {name}", chain())
        x4 = rng.standard_normal((3, 4, 2100, 5)).astype(dtype)
        show(f"{dtype.__name__} three levels", (x4 * x4).sum(3).max(1).argmin(0))
        show(f"{dtype.__name__} two of four dimensions", x4.sum(3).sum(0))
    X = rng.standard_normal((3001, 9))
    M = rng.standard_normal((5, 9))
    show("pairwise twice", ((X[:, None] - M[None]) ** 2).sum(2).sum(1))
    show("pairwise twice, mean", ((X[:, None] - M[None]) ** 2).mean(2).mean(1))
    show("root of squares, argmax", np.sqrt(((X - M[:, None]) ** 2).sum(2)).argmax(0))
    # X laid out in Fortran order (a table's columns, as pandas gives them):
    # NumPy's temporaries then put the points innermost, and its sums over
    # the coordinates add them one after another.
    for J in (3, 8, 9, 130):
        XF = np.asfortranarray(rng.standard_normal((3001, J)))
        MF = rng.standard_normal((5, J))
        show(f"Fortran X {J}, sums summed", ((XF[:, None] - MF[None]) ** 2).sum(2).sum(1))
        show(f"Fortran X {J}, max of sums", ((XF - MF[:, None]) ** 2).sum(2).max(0))
        show(f"Fortran X {J}, labels", np.linalg.norm(XF - MF[:, None], axis=2).argmin(0))
    Xl = rng.standard_normal((4097, 300))
    Ml = rng.standard_normal((3, 300))
    show("long sums, argmin", np.argmin(np.linalg.norm(Xl - Ml[:, None], axis=2), axis=0))
    show("long sums, max", ((Xl - Ml[:, None]) ** 2).sum(2).max(0))
    special = rng.standard_normal((3, 5000, 4))
    special[0, ::7, 1] = np.nan
    special[1, ::11, 0] = np.inf
    special[2, ::13, 2] = -0.0
    special[1, ::17, :] = -0.0
    special_last = np.ascontiguousarray(special.transpose(0, 2, 1))
    show("NaN kept last, sum max", (special_last * 1).sum(1).max(0))
    show("NaN kept last, argmin", special_last.sum(0).argmin(0))
    show("NaN first, argmin", special.sum(2).argmin(0))
    show("NaN, max", (special * 1).sum(2).max(0))
    show("NaN, norm argmax", np.linalg.norm(special * 1, axis=2).argmax(0))
    show("zeros, mean min", (special + 0).mean(2).min(0))
    show("zeros, sum of sums", (special * -1).sum(1).sum(1))
    # The root of a sum that may be negative is NaN (invalid): never the
    # smallest, whatever the sums compare as.
    X = rng.standard_normal((5000, 3))
    m = rng.standard_normal((4, 3))
    for action in ("warn", "ignore"):
        with warnings.catch_warnings(record=True) as caught, np.errstate(invalid=action):
            warnings.simplefilter("always")
            show(f"root of signed sums, invalid {action}", np.sqrt((X - m[:, None]).sum(2)).argmin(0))
        print([str(w.message) for w in caught])
    try:
        with np.errstate(invalid="raise"):
            np.sqrt((X - m[:, None]).sum(2)).argmin(0)
    except FloatingPointError as e:
        print("raised:", e)
    # Reductions over nothing are NumPy's: its identity, or its error.
    empty = np.ones((3, 4000, 0))
    show("sum over nothing, then max", (empty * 2).sum(2).max(0))
    try:
        (empty * 2).min(2).argmax(0)
    except ValueError as e:
        print("ValueError:", e)


main()
