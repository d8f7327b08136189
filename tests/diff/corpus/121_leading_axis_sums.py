# Float sums and means over the leading axes of arrays as they are
# (x.mean(axis=0)), which npython adds outside the kernels in NumPy's order:
# each row added to the running sums in turn (with one element kept, NumPy's
# pairwise sum of the whole array). C-contiguous arrays, row slices and
# steps, several leading axes, keepdims, float32, signed zeros, infinities
# and NaNs with NumPy's warnings; and the layouts NumPy adds otherwise
# (reversed rows, Fortran order, transposes), which stay NumPy's. Values by
# checksum of every byte. In a function: evaluated frames only.
import warnings

import numpy as np

from corpus_digest import show


def main():
    rng = np.random.default_rng(121)
    # With one element kept, NumPy adds the whole array pairwise: (100000, 1).
    for shape in [(1000, 1000), (200000, 3), (37, 5), (9000, 2), (3, 4, 5), (50, 60, 7), (2, 3000, 4), (1, 600),
                  (100000, 1), (30000, 1, 1), (3000, 1, 4)]:
        m = rng.standard_normal(shape)
        show(f"{shape} sum", m.sum(axis=0))
        show(f"{shape} mean", m.mean(axis=0))
        show(f"{shape} keepdims", np.sum(m, axis=0, keepdims=True))
        if len(shape) == 3:
            show(f"{shape} two axes", m.sum(axis=(0, 1)))
            show(f"{shape} two axes, mean", np.mean(m, axis=(0, 1)))
        f = m.astype(np.float32)
        show(f"{shape} float32", f.sum(axis=0))
        show(f"{shape} float32 mean", f.mean(axis=0))
        show(f"{shape} rows sliced", m[1:, :].sum(axis=0))
        show(f"{shape} rows stepped", m[::3].mean(axis=0))
        show(f"{shape} reversed rows", m[::-1].sum(axis=0))
        show(f"{shape} Fortran order", np.asfortranarray(m).sum(axis=0))
        show(f"{shape} transposed", m.T.sum(axis=0))
    show("signed zeros", np.full((5000, 3), -0.0).sum(axis=0))
    show("signed zeros, one row", np.full((1, 5000), -0.0).sum(axis=0))
    x = rng.standard_normal((200000, 3))
    show("standardized", (x - x.mean(axis=0)) / x.std(axis=0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        show("overflow", np.full((1000, 4), 1e306).sum(axis=0))
        special = np.ones((10000, 3))
        special[5, 1] = np.nan
        special[7, 2] = np.inf
        special[8, 2] = -np.inf
        show("nan and inf", special.sum(axis=0))
        show("nan and inf, mean", special.mean(axis=0))
    for w in caught:
        print("warning:", w.category.__name__, w.message)


main()
