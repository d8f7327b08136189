# np.mean and .mean of bool and 8- and 16-bit integer arrays in regions:
# NumPy adds them as float64, exactly, so the mean is the integer sum over
# the count; every axis form, keepdims, fused producers (the Monte Carlo
# seed's comparison), and what stays eager (wider integers).
import numpy as np


def show(label, v):
    v = np.asarray(v)
    print(label, v.dtype, v.shape, v.ravel()[:3].tolist(), repr(v.ravel()[-1]), repr(type(v.ravel()[-1])))


def main():
    rng = np.random.default_rng(104)
    x = rng.random(300_000)
    y = rng.random(300_000)
    show("pi", 4.0 * np.mean(x * x + y * y <= 1.0))
    for dtype in (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64):
        info = np.iinfo(dtype) if dtype is not np.bool_ else None
        lo, hi = (0, 2) if info is None else (int(info.min), int(info.max) + 1)
        a = rng.integers(lo, hi, size=(300, 70)).astype(dtype)
        name = np.dtype(dtype).name
        show(f"{name} all", np.mean(a))
        show(f"{name} axis 0", a.mean(axis=0))
        show(f"{name} axis 1", np.mean(a, axis=1))
        show(f"{name} keepdims", a.mean(axis=-1, keepdims=True))
        show(f"{name} tuple", np.mean(a.reshape(30, 10, 70), axis=(1, 2)))
        show(f"{name} of a fused value", (a > 3).mean(axis=1))
        show(f"{name} strided", a[::3, ::2].mean())
    big = np.full(3_000_000, 255, dtype=np.uint8)
    show("uint8 big", big.mean())


main()
