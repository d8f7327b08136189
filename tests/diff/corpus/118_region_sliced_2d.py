# Regions over 2-D and 3-D slices of C-ordered arrays (column ranges, steps,
# negative steps), which kernels run when NumPy would lay the result out in
# C order; a transposed input (Fortran order out), a broadcast view and a
# mix of C and Fortran inputs, which keep NumPy's own layout; a 2-D stencil
# that updates its array in place through overlapping slices. Values by
# checksum of every byte, layouts by strides and flags. In a function:
# evaluated frames only.
import hashlib

import numpy as np


def show(name, r):
    r = np.asarray(r)
    digest = hashlib.sha1(np.ascontiguousarray(r).tobytes()).hexdigest()[:16]
    print(name, r.dtype, r.shape, r.strides, r.flags.c_contiguous, r.flags.f_contiguous, digest)


def stencil(u, steps):
    for _ in range(steps):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.2 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                                               - 4 * u[1:-1, 1:-1])
    return u


def main():
    rng = np.random.default_rng(118)
    a = rng.standard_normal((3000, 10))
    show("columns", (a[:, :6] * 2.0 + 1) * 3 - 0.5 * a[:, :6])
    show("columns of 8", a[:, 1:9] - a[:, 2:10])
    show("steps", a[::2, 1::3] * a[1::2, :9:3])
    show("negative steps", a[::-1, ::-2] + 1.5)
    show("negative rows", np.sqrt(np.abs(a[::-3, 2:7])))
    show("compare", (a[:, :5] > 0) & (a[:, 5:] < 0.5))
    show("where", np.where(a[:, :4] > 0, a[:, 4:8], -a[:, :4]))
    show("float32", a[:, 3:9].astype(np.float32) * np.float32(1.5))
    show("int64", (np.arange(40000).reshape(4000, 10)[:, 2:9] * 3) // 2)
    show("transposed", a.T[:, :2000] * 2.0)
    show("mixed orders", a[:10, :10] + a[:10, :10].T)
    show("broadcast view", np.broadcast_to(a[:, 0], (7, 3000)) * 2.0)
    b = rng.standard_normal((30, 40, 50))
    show("3-d", b[:, 1:, ::2] * 2.0 - b[:, :-1, 1::2])
    show("3-d sum", np.sum(b[:, 1:, 3:], axis=1))
    show("3-d max", b[::-1, :, 5:].max(axis=2))
    show("rows sum", a[:, 2:8].sum(axis=1))
    u = rng.standard_normal((300, 200))
    show("stencil", stencil(u, 10))
    v = np.zeros((64, 64))
    v[20:40, 20:40] = 1.0
    show("stencil zeros", stencil(v, 25))


main()
