# min / max / amin / amax and np.minimum / np.maximum of every integer type
# in kernels (8- and 16-bit data in 32-bit lanes, uint64 past 2**63),
# over all axes, one axis, keepdims, of fused values, strided and split
# over threads.
import numpy as np


def show(label, v):
    v = np.asarray(v)
    print(label, v.dtype, v.shape, v.ravel()[:3].tolist(), v.ravel()[-1].item())


def main():
    rng = np.random.default_rng(106)
    for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, size=(400, 90), dtype=dtype, endpoint=True)
        b = rng.integers(info.min, info.max, size=(400, 90), dtype=dtype, endpoint=True)
        big = rng.integers(info.min, info.max, size=200_000, dtype=dtype, endpoint=True)
        name = np.dtype(dtype).name
        show(f"{name} max", a.max())
        show(f"{name} min axis 1", np.min(a, axis=1))
        show(f"{name} amax axis 0 keepdims", np.amax(a, axis=0, keepdims=True))
        show(f"{name} amin tuple", np.amin(a.reshape(40, 10, 90), axis=(1, 2)))
        show(f"{name} minimum", np.minimum(a, b))
        show(f"{name} maximum then max", np.maximum(a, b).max(axis=1))
        show(f"{name} max of fused", (a ^ b).max(axis=1))
        show(f"{name} strided", a[::3, ::2].min())
        show(f"{name} big threads", big.max())
        show(f"{name} big threads min", np.min(big))
    ones = np.full(5000, 7, dtype=np.int64)
    ones[4321] = -(2**63)
    show("int64 extreme", ones.min())
    u = np.full(5000, 2**63 + 5, dtype=np.uint64)
    u[17] = 2**64 - 1
    show("uint64 above 2**63", u.max())
    show("uint64 min", u.min())


main()
