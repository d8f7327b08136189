"""Reductions on recorded values, as functions and as methods: sum prod min
max amin amax mean argmin argmax any all, with axis None / int / negative /
tuple and keepdims; the result types (np.float64 vs np.float32 scalars,
int64 from int8 sums, bool) and shapes must be NumPy's."""
import numpy as np


def show(label, r):
    if isinstance(r, np.ndarray):
        flat = r.ravel()
        print(label, "ndarray", r.dtype, r.shape, repr(flat[:3]), repr(flat[-1]) if flat.size else "-")
    else:
        print(label, type(r).__name__, repr(r))


def base(dtype, shape):
    n = int(np.prod(shape))
    v = (np.arange(n) * 37 % 101 - 50).reshape(shape)
    if dtype == "bool":
        return v > 0
    if np.dtype(dtype).kind == "u":
        return (v + 50).astype(dtype)
    return v.astype(dtype)


def all_reductions(dtype):
    a = base(dtype, (300, 200))
    x = a * 1 if dtype != "bool" else a & True  # a recorded value
    show(f"{dtype} sum", x.sum())
    show(f"{dtype} np.sum", np.sum(x))
    show(f"{dtype} sum axis0", x.sum(axis=0))
    show(f"{dtype} sum axis-1", np.sum(x, axis=-1))
    show(f"{dtype} sum axis(0,1)", x.sum(axis=(0, 1)))
    show(f"{dtype} sum keepdims", x.sum(axis=1, keepdims=True))
    show(f"{dtype} sum None keepdims", np.sum(x, axis=None, keepdims=True))
    show(f"{dtype} min", x.min())
    show(f"{dtype} max axis0", x.max(axis=0))
    show(f"{dtype} np.amin", np.amin(x, axis=1))
    show(f"{dtype} np.amax", np.amax(x))
    show(f"{dtype} np.min -2", np.min(x, axis=-2))
    show(f"{dtype} np.max keepdims", np.max(x, axis=0, keepdims=True))
    show(f"{dtype} mean", x.mean())
    show(f"{dtype} np.mean axis1", np.mean(x, axis=1))
    show(f"{dtype} mean tuple keepdims", x.mean(axis=(0, 1), keepdims=True))
    show(f"{dtype} argmin", x.argmin())
    show(f"{dtype} argmax axis0", np.argmax(x, axis=0))
    show(f"{dtype} argmax axis-1", x.argmax(axis=-1))
    show(f"{dtype} any", x.any())
    show(f"{dtype} np.any axis0", np.any(x, axis=0))
    show(f"{dtype} all", np.all(x))
    show(f"{dtype} all axis1", x.all(axis=1))
    show(f"{dtype} prod", x[:3, :5].prod() if dtype != "bool" else np.prod(x))
    show(f"{dtype} prod axis", np.prod(x[:, :3] % 3 + 1, axis=1) if dtype != "bool" else x.prod(axis=0))
    show(f"{dtype} sum dtype f64", x.sum(dtype=np.float64))
    show(f"{dtype} mean dtype f32", x.mean(dtype=np.float32))


for dt in ["bool", "int8", "int16", "int32", "int64", "uint8", "uint32", "uint64", "float32", "float64"]:
    all_reductions(dt)


def three_d():
    a = (np.arange(60 * 50 * 8, dtype=np.float64) % 13 - 6).reshape(60, 50, 8) * 0.5
    b = a * a - a
    show("3d sum (0,2)", b.sum(axis=(0, 2)))
    show("3d sum (-1,-3)", b.sum(axis=(-1, -3)))
    show("3d mean (1,)", b.mean(axis=(1,)))
    show("3d max (0,1) keepdims", b.max(axis=(0, 1), keepdims=True))
    show("3d min (2,0)", np.min(b, axis=(2, 0)))
    show("3d any (0,1,2)", (b > 40).any(axis=(0, 1, 2)))
    show("3d all keepdims", np.all(b > -1, axis=1, keepdims=True))


three_d()


def norms():
    m = (np.arange(300 * 200) % 29 - 14).reshape(300, 200) / 3.0
    v = m * 2 - 1
    show("norm", np.linalg.norm(v))
    show("norm axis0", np.linalg.norm(v, axis=0))
    show("norm axis1", np.linalg.norm(v, axis=1))
    show("norm axis-1 keepdims", np.linalg.norm(v, axis=-1, keepdims=True))
    show("norm ord1 axis0", np.linalg.norm(v, ord=1, axis=0))
    show("norm inf axis1", np.linalg.norm(v, ord=np.inf, axis=1))
    f32 = v.astype(np.float32)
    show("norm f32", np.linalg.norm(f32))
    show("norm f32 axis", np.linalg.norm(f32 + 1, axis=1))
    show("norm 1d", np.linalg.norm(v.ravel() * 0.5))


norms()


def small_and_0d():
    s = np.arange(12, dtype=np.int8).reshape(3, 4) * 3
    show("small sum", s.sum())
    show("small sum axis", s.sum(axis=1))
    show("small mean", s.mean())
    z = np.array(5.5, dtype=np.float32) * 2
    show("0-d sum", z.sum())
    show("0-d max", np.max(z))
    show("0-d mean", z.mean())
    show("0-d argmax", z.argmax())
    show("0-d sum axis None keepdims", np.sum(z, keepdims=True))
    show("empty sum", np.zeros((0, 4)).sum(axis=0))
    show("empty sum all", (np.zeros(0, dtype=np.int8) + 1).sum())
    show("empty prod", np.ones((3, 0)).prod(axis=1))
    show("empty any", (np.zeros(0) > 0).any())
    show("empty all", (np.zeros(0) > 0).all())


small_and_0d()
