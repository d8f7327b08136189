# Float sums and means over axes in the middle of an array as it is
# (x.sum(axis=1) of 3-D x), which npython adds outside the kernels in
# NumPy's order: for each outer index, each row of the kept inner axes added
# to the running sums in turn (with one element kept inside, NumPy's
# pairwise sum). Several middle axes, keepdims, float32, reversed and sliced
# middle axes, sliced inner axes (which stay NumPy's), signed zeros, NaN and
# overflow with NumPy's warnings. Values by checksum of every byte. In a
# function: evaluated frames only.
import warnings

import numpy as np

from corpus_digest import show


def main():
    rng = np.random.default_rng(125)
    for shape, axis in [((10, 1000, 3), 1), ((50, 300, 64), 1), ((4, 5000, 2), 1), ((3, 100, 100, 5), 1),
                        ((3, 100, 100, 5), 2), ((3, 100, 100, 5), (1, 2)), ((8, 2000, 1), 1), ((2, 3, 4000), 1),
                        ((1000, 3, 5), 1), ((7, 200, 30), (0, 1)), ((5, 1, 600, 9), (1, 2))]:
        for dtype in (np.float64, np.float32):
            x = (rng.standard_normal(shape) * 1e3).astype(dtype)
            name = f"{shape} axis={axis} {dtype.__name__}"
            show(f"{name} sum", x.sum(axis=axis))
            show(f"{name} mean", np.mean(x, axis=axis))
            show(f"{name} keepdims", x.sum(axis=axis, keepdims=True))
            show(f"{name} middle reversed", x[:, ::-1].sum(axis=axis))
            show(f"{name} middle stepped", x[:, ::2].mean(axis=axis))
            show(f"{name} inner sliced", x[..., 1:].sum(axis=axis))
            show(f"{name} outer stepped", x[::2].sum(axis=axis))
    show("signed zeros", np.full((4, 3000, 3), -0.0).sum(axis=1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        show("overflow", np.full((3, 1000, 4), 1e306).sum(axis=1))
        special = np.ones((5, 2000, 3))
        special[2, 5, 1] = np.nan
        special[3, 7, 2] = np.inf
        special[3, 8, 2] = -np.inf
        show("nan and inf", special.mean(axis=1))
    for w in caught:
        print("warning:", w.category.__name__, w.message)


main()
