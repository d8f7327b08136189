# np.linalg.norm along the last axis of arrays of two or more dimensions,
# which npython computes outside the kernels as NumPy does (the square root
# of the pairwise sum of the squares): rows shorter and longer than NumPy's
# eight running sums and its 128-element leaves, keepdims, ord=2, float32,
# computed operands, slices and reversed rows; the layouts NumPy adds
# otherwise (transposes, Fortran order, other axes, vectors) stay NumPy's.
# Overflow and NaN with NumPy's warning. Values by checksum of every byte.
# In a function: evaluated frames only.
import warnings

import numpy as np

from corpus_digest import show


def main():
    rng = np.random.default_rng(122)
    for shape in [(100000, 3), (3000, 2), (2000, 7), (2000, 8), (1000, 9), (500, 129), (200, 1001), (7, 300, 5),
                  (3, 4, 2000)]:
        x = rng.standard_normal(shape)
        last = len(shape) - 1
        show(f"{shape}", np.linalg.norm(x, axis=-1))
        show(f"{shape} keepdims", np.linalg.norm(x, axis=last, keepdims=True))
        show(f"{shape} ord=2", np.linalg.norm(x, ord=2, axis=-1))
        show(f"{shape} float32", np.linalg.norm(x.astype(np.float32), axis=-1))
        show(f"{shape} of a difference", np.linalg.norm(x - x[0], axis=-1))
        show(f"{shape} sliced", np.linalg.norm(x[..., 1:], axis=-1))
        show(f"{shape} reversed", np.linalg.norm(x[..., ::-1], axis=-1))
        show(f"{shape} transposed", np.linalg.norm(np.swapaxes(x, 0, -1), axis=-1))
        show(f"{shape} Fortran order", np.linalg.norm(np.asfortranarray(x), axis=-1))
        show(f"{shape} axis 0", np.linalg.norm(x, axis=0))
        show(f"{shape} normalized", x / np.linalg.norm(x, axis=-1, keepdims=True))
    v = rng.standard_normal(5000)
    show("vector", np.linalg.norm(v))
    show("vector, axis 0", np.linalg.norm(v, axis=0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        big = np.full((5000, 3), 1e200)
        big[3, 1] = np.nan
        show("overflow", np.linalg.norm(big, axis=1))
    for w in caught:
        print("warning:", w.category.__name__, w.message)


main()
