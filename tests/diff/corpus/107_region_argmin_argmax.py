# argmin / argmax in kernels: float32/64 with NaN (the first NaN wins) and
# ties (the first wins), every integer type (uint64 past 2**63), all axes,
# one trailing axis, of fused values, strided, and split over threads.
import numpy as np


def show(label, v):
    v = np.asarray(v)
    print(label, v.dtype, v.shape, v.ravel()[:6].tolist(), v.ravel()[-1].item())


def main():
    rng = np.random.default_rng(107)
    for dtype in (np.float64, np.float32):
        name = np.dtype(dtype).name
        a = rng.integers(-5, 6, size=(300, 70)).astype(dtype)  # many ties
        a[7, 13] = np.nan
        a[7, 50] = np.nan
        a[100, :] = np.nan
        a[200, 3] = -np.inf
        big = rng.standard_normal(300_000).astype(dtype)
        show(f"{name} argmax", a.argmax())
        show(f"{name} argmin axis 1", np.argmin(a, axis=1))
        show(f"{name} argmax axis -1", np.argmax(a * 2, axis=-1))
        show(f"{name} argmin of fused", (np.abs(a - 1)).argmin(axis=1))
        show(f"{name} argmax strided", a[::2, ::3].argmax(axis=1))
        show(f"{name} big argmax", np.argmax(big))
        show(f"{name} big argmin", np.argmin(big + 1))
        flat = np.full(100_000, 3.0, dtype=dtype)
        show(f"{name} all equal", np.argmax(flat * 1))
        flat[77_777] = np.nan
        flat[99_999] = np.nan
        show(f"{name} a NaN", np.argmin(flat * 1))
    for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, size=(300, 70), dtype=dtype, endpoint=True)
        name = np.dtype(dtype).name
        show(f"{name} argmax", np.argmax(a))
        show(f"{name} argmin axis 1", a.argmin(axis=1))
        show(f"{name} argmax of fused", np.argmax(a ^ 3, axis=1))
        big = rng.integers(info.min, info.max, size=300_000, dtype=dtype, endpoint=True)
        show(f"{name} big", big.argmax())
    u = np.full(5000, 2**63 + 1, dtype=np.uint64)
    u[4000] = 2**64 - 1
    u[4001] = 2**64 - 1
    show("uint64 high", u.argmax())
    show("uint64 low", (u + np.uint64(0)).argmin())


main()
