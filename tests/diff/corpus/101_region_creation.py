# np.zeros / ones / full and their *_like forms as region ops: filled values
# fused into what reads them, filled arrays that leave the region (made by
# NumPy's own call), every dtype family, in-place updates of a filled
# array, layouts of *_like, and the calls NumPy refuses or warns about.
import warnings

import numpy as np

warnings.simplefilter("always")
N = 4096


def show(label, v):
    print(label, v.dtype, v.shape, v.flags["C_CONTIGUOUS"], v.flags["F_CONTIGUOUS"], v.flags["WRITEABLE"],
          v.ravel()[:3].tolist(), v.ravel()[-1].item(), v.sum().item())


def fused(x):
    show("zeros + x", np.zeros(N) + x)
    show("ones * 2 - x", np.ones((N,)) * 2 - x)
    show("full float", np.full(N, 1.5) * x)
    show("full 2-d int into float32", np.full((2, N), 3, dtype=np.float32) + x.astype(np.float32))
    show("full keyword fill", np.full(N, fill_value=-2) - 1)
    show("zeros_like - 1", np.zeros_like(x) - 1)
    show("ones_like int32", np.ones_like(x, dtype=np.int32) * 7)
    show("ones_like int8 wraps", np.ones_like(x, dtype="i1") * np.int8(100) + np.int8(100))
    show("full_like", np.full_like(x, 2.5) + x)
    show("full_like of lazy", np.full_like(x * 2, 4) / 2)
    show("uint16 ones", np.ones(N, np.uint16) - 2)
    show("bool ones", np.logical_xor(np.ones((64, 64), dtype=bool), x.reshape(64, 64) > 2000))
    show("float32 scalar fill", np.full(N, np.float32(2)) * x)
    show("order C", np.zeros([8, 512], order="C") + 1)


def leaving(x):
    z = np.zeros(N)
    o = np.ones((64, 64), dtype=np.int16)
    f = np.full(N, 7.25)
    like = np.zeros_like(x)
    z += x
    z[3] = -1
    o[0, 0] = 9
    show("zeros updated", z)
    show("ones int16", o)
    show("full", f)
    show("zeros_like", like)
    big = np.zeros((300, 300))
    show("zeros alone", big)


def layouts(x):
    t = x.reshape(64, 64).T
    show("zeros_like of transpose", np.zeros_like(t))
    show("ones_like order F", np.ones_like(x.reshape(64, 64), order="F") + 0)
    show("empty_like then filled", np.multiply(np.empty_like(x), 0) + 1)


def refused():
    for make in (lambda: np.zeros(-1), lambda: np.ones((N, -2)), lambda: np.zeros(N, dtype="nonsense"),
                 lambda: np.full(N, 300, dtype=np.uint8), lambda: np.zeros(N, order="X")):
        try:
            make()
        except Exception as e:
            print(type(e).__name__, e)
    show("nan into int", np.full(N, np.nan, dtype=np.int64) * 0)
    show("huge into float32", np.full(N, 1e300, dtype=np.float32) + 1)


x = np.arange(N, dtype=np.float64)
fused(x)
leaving(x)
layouts(x)
refused()
