# Views of values a region computes: basic slicing (steps, negative steps,
# None, Ellipsis, ints), .T, transpose, reshape, ravel, squeeze, expand_dims,
# broadcast_to; in-place updates seen through views; the errors NumPy raises.
import numpy as np
n = 40000
a = np.linspace(-2.0, 2.0, n)
m = np.arange(6 * 8000, dtype=np.float64).reshape(6, 8000) / 7.0

def show(name, r):
    r2 = np.asarray(r)
    print(name, type(r).__name__, r2.dtype, r2.shape, r2.strides, np.round(r2.ravel()[:4], 12).tolist(), float(np.round(r2.sum(), 6)))

def main():
    y = a * 2 + 1
    show("slice", y[1:-1] * 3)
    show("step", y[1::3] + y[2::3])
    show("neg", y[::-1] - y)
    show("none", (y[:, None] * 1.0)[:5])
    show("elem", y[7] + 1)
    show("elem_neg", y[-1])
    z = m * 2
    show("T", (z.T + 1)[:3])
    show("Tonly", z.T)
    show("transpose", np.transpose(z)[::1000])
    show("transpose_axes", z.transpose(1, 0)[5])
    show("reshape", z.reshape(3, 16000) + 1)
    show("reshape_m1", z.reshape(-1) * 2)
    show("reshape_tuple", np.reshape(z, (48000,))[:10])
    show("ravel", np.ravel(z)[::7])
    show("ravel_m", z[:, ::2].ravel())
    show("squeeze", (z[:1] * 2).squeeze())
    show("squeeze_axis", np.squeeze(z[:, :1] + 0, axis=1))
    show("expand", np.expand_dims(y, 0) + np.expand_dims(y, 1)[:3])
    show("expand_tuple", np.expand_dims(y, (0, 2)).shape)
    show("bcast", np.broadcast_to(y, (3, n))[2])
    show("ellipsis", z[..., 3])
    show("ellipsis2", z[1, ...] + z[..., 2, :])
    show("colsum", (z[:, 1:] - z[:, :-1]).sum(axis=0))
    show("2d_slice", z[1:4, 100:200:3] * z[2:5, 0:100:3])
    w = y * 1
    v = w[:10]
    w += 1
    show("inplace_base", v)
    w2 = y * 1
    v2 = w2[5:]
    v2 += 100
    show("inplace_view", w2[:10])
    show("empty", y[5:5] + 1)
    show("zero_step_reshape", y.reshape(200, 200)[::-1, ::-2] + 1)
    try:
        print(y[n])
    except IndexError as e:
        print("IndexError", e)
    try:
        print(z.reshape(7, -1))
    except ValueError as e:
        print("ValueError", e)
    try:
        print((z * 1).squeeze(0))
    except ValueError as e:
        print("ValueError", e)
    try:
        y[::0]
    except ValueError as e:
        print("ValueError", e)
    q = y[3:9]
    print(q.base is None, q.flags.c_contiguous, np.shares_memory(q, y))
    s = (y * 0)[0]
    print(type(s).__name__, s)

main()
