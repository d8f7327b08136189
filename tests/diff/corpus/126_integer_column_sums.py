# Integer and bool sums over axes with kept axes inside them (mask.sum(axis=0),
# image.sum(axis=1)), which npython adds outside the kernels: every integer
# and bool dtype, sums that wrap around int64 and uint64 as NumPy's do,
# dtype= arguments, keepdims, middle axes, transposed and sliced layouts,
# bools stored as bytes other than 1, and means of integers (floats:
# NumPy's). Values by checksum of every byte. In a function: evaluated
# frames only.
import numpy as np

from corpus_digest import show


def main():
    rng = np.random.default_rng(126)
    for dtype in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        if dtype == np.bool_:
            x = rng.random((20000, 5)) < 0.5
        else:
            info = np.iinfo(dtype)
            x = rng.integers(info.min, info.max, size=(20000, 5), dtype=dtype, endpoint=True)
        name = np.dtype(dtype).name
        show(f"{name} sum axis 0", x.sum(axis=0))
        show(f"{name} np.sum axis 0 keepdims", np.sum(x, axis=0, keepdims=True))
        show(f"{name} sum axis 0 as uint64", x.sum(axis=0, dtype=np.uint64))
        show(f"{name} sum axis 0 as int32", x.sum(axis=0, dtype=np.int32))
        show(f"{name} transposed sum axis 1", x.T.sum(axis=1))
        show(f"{name} sliced rows", x[1:, 1:].sum(axis=0))
        show(f"{name} mean axis 0", x.mean(axis=0))
        cube = x[:19998].reshape(99, 202, 5)
        show(f"{name} middle axis", cube.sum(axis=1))
        show(f"{name} two leading axes", cube.sum(axis=(0, 1)))
        show(f"{name} last axis", cube.sum(axis=2))
    image = rng.integers(0, 256, size=(300, 400, 3), dtype=np.uint8)
    show("image rows", image.sum(axis=0))
    show("image columns", image.sum(axis=1))
    big = np.full((5000, 3), np.iinfo(np.int64).max, dtype=np.int64)
    show("int64 wrapping", big.sum(axis=0))
    huge = np.full((5000, 3), np.iinfo(np.uint64).max, dtype=np.uint64)
    show("uint64 wrapping", huge.sum(axis=0))
    bytes_ = np.zeros((5000, 4), dtype=np.uint8)
    bytes_[::3] = 7
    show("bools of other bytes than 1", bytes_.view(np.bool_).sum(axis=0))


main()
