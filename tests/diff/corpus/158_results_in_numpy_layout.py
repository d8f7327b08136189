# Element-wise results of arrays laid out otherwise than C order (x.T,
# Fortran-ordered arrays, reversed and stepped slices, transposed 3-D
# arrays, broadcast operands, mixed layouts where C order wins): NumPy lays
# a result out by its operands' strides, and so must the kernel that
# computes it (strides, contiguity flags and every byte printed). Random
# layouts over 1-4 dimensions, through chains of operations, bool and
# float32 results, and a result written to a target.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(158)


def laid_out(shape):
    """An array of `shape` whose memory order is a random permutation of its
    dimensions, some reversed or stepped, one sometimes broadcast."""
    nd = len(shape)
    order = rng.permutation(nd)
    base = rng.standard_normal([shape[d] * 2 for d in order])
    a = np.transpose(base, np.argsort(order))
    picks = []
    for d in range(nd):
        kind = rng.integers(3)
        picks.append(slice(None, shape[d] * 2, 2) if kind == 0 else
                     slice(shape[d] * 2 - 1, shape[d] - 1, -1) if kind == 1 else slice(shape[d]))
    a = a[tuple(picks)]
    if rng.random() < 0.25:
        d = int(rng.integers(nd))
        a = np.broadcast_to(a[tuple(slice(0, 1) if k == d else slice(None) for k in range(nd))], shape)
    return a


def describe(name, r):
    print(name, r.strides, r.flags.c_contiguous, r.flags.f_contiguous, r.flags.owndata)
    show(name, r)


def main():
    x = rng.standard_normal((300, 200))
    y = rng.standard_normal((200, 300))
    f = np.asfortranarray(x)
    describe("x.T * 2 + 1", x.T * 2 + 1)
    describe("x.T * 2 + y", x.T * 2 + y)
    describe("y + x.T", y + x.T)
    describe("f * 2 - x", f * 2 - x)
    describe("f * 3 + f", f * 3 + f)
    describe("sqrt|x.T| * y[:, :1]", np.sqrt(np.abs(x.T)) * y[:, :1])
    describe("x[::-1, ::2].T * 3", x[::-1, ::2].T * 3)
    describe("clip(x.T, y, 1)", np.clip(x.T, y, 1.0) + 0.5)
    describe("where(f > 0, f, 0)", np.where(f > 0, f, 0.0) * 2)
    describe("(f > 0) & (f < 1)", (f > 0) & (f < 1))
    describe("f.astype(float32) * 2", f.astype(np.float32) * np.float32(2))
    describe("(x.T * 2)[0] + 1", (x.T * 2)[0] + 1)
    describe("(f * 2)[:, :1] + 1", (f * 2)[:, :1] + 1)
    v = rng.integers(-5, 5, (1, 200)).astype(np.int32)
    describe("broadcast astype", np.tanh(np.broadcast_to(v, (300, 200))[1:].astype(np.uint64)))
    describe("stepped astype", x[::2, ::-3].astype(np.float32) * np.float32(2))
    describe("astype of f * 2", (f * 2).astype(np.int64) + 1)
    describe("zeros_like(f) + f", np.zeros_like(f) + f * 2)
    describe("full_like(f, 2) * f", np.full_like(f, 2.0) * f)
    a = np.asfortranarray(rng.standard_normal((30, 40, 50)))
    describe("a * 2 + 1", a * 2 + 1)
    describe("a.transpose(1, 0, 2) - 1", a.transpose(1, 0, 2) - 1)
    describe("(a * 2)[:, 0, :] + 1", (a * 2)[:, 0, :] + 1)
    describe("a.transpose(2, 0, 1) * a.transpose(2, 0, 1)", a.transpose(2, 0, 1) * a.transpose(2, 0, 1))
    target = np.zeros((200, 300))
    target[...] = x.T * 2 + 1
    describe("target", target)
    for trial in range(60):
        nd = int(rng.integers(1, 5))
        shape = tuple(int(s) for s in rng.integers(1, 9, nd))
        p, q, r = laid_out(shape), laid_out(shape), laid_out(shape)
        kind = trial % 4
        if kind == 0:
            out = p * 2.0 + q
        elif kind == 1:
            out = np.maximum(p, q) - r
        elif kind == 2:
            out = np.where(p > q, p, r) * 0.5
        else:
            out = (p + 1.0) * (q - r)
        describe(f"trial {trial} {shape}", out)


main()
