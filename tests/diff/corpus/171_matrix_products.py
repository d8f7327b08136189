# Matrix products inside regions: `@`, np.matmul, np.dot and ndarray.dot of
# pending float64 and float32 values, of views (transposed, strided,
# reversed, Fortran-ordered), of 1-D and 2-D operands and empty ones, with
# element-wise work either side, in loops, with NaNs and overflow (NumPy's
# warnings and errstate), and products npython leaves to NumPy (integers,
# mixed dtypes, 3-D, out=) and mismatched shapes (NumPy's error).
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(171)
x = rng.standard_normal((400, 300))
W = rng.standard_normal((300, 150))
b = rng.standard_normal(150)
u = rng.standard_normal(60_000)
x[0, :3] = [np.nan, np.inf, -0.0]


def layer(a, w, bias):
    return np.maximum(a @ w + bias, 0.0)


h = layer(x * 0.5, W, b)
show("layer", h)
show("two layers", layer(h * 1.0, W[:150, :], b) @ W[:150, :].T)
show("gram", (x.T * 2) @ x)
show("gram same", (x * 2) @ (x * 2).T)
show("fortran", np.asfortranarray(x * 3) @ W)
show("reversed", (x[::-1] * 1.5) @ W[::-1])
show("strided", (x[::3, ::2] + 1) @ W[::2, ::5])
show("matrix vector", (x - 1) @ W[:, 0])
show("vector matrix", (W[:, 0] * 2) @ (x.T - 1))
show("dot vectors", np.dot(u + 1, u))
show("matmul vectors", np.matmul(u * 0.5, u - 2))
show("method", (x * 2).dot(W) + 1)
show("method vector", (x * 2).dot(W[:, 3]))
show("float32", (x.astype(np.float32) * 2) @ W.astype(np.float32) - np.float32(0.5))
show("empty rows", (x[:0] * 2) @ W)
show("empty inner", (x[:, :0] + 1) @ W[:0])
print(type((u * 2) @ u).__name__, type(np.dot(u * 2, u)).__name__)


def power_iteration(a, steps):
    v = np.ones(a.shape[1])
    for _ in range(steps):
        w = a @ v
        v = w / np.sqrt(w @ w)
    return v, v @ (a @ v)


vec, value = power_iteration((x[1:, :] + x[1:, :]) @ x[1:, :].T * 1e-3, 20)
show("power vector", vec)
print("power value", repr(value))

big = np.full((50, 50), 1e300)
show("overflow", (big * 2) @ big)
with np.errstate(over="raise"):
    try:
        show("raise", (big * 2) @ big)
    except FloatingPointError as e:
        print("raised:", e)
with np.errstate(all="ignore"):
    show("ignored", (big * 3) @ big)

# Left to NumPy.
show("ints", (x * 2).astype(np.int64) @ W.astype(np.int64))
show("mixed", (x * 2) @ W.astype(np.float32))
show("3-d", (x * 2).reshape(4, 100, 300) @ W)
out = np.empty((400, 150))
show("out", np.matmul(x * 2, W, out=out) is out)
try:
    (x * 2) @ x
except ValueError as e:
    print("ValueError:", e)
try:
    np.dot(x * 2, W.T)
except ValueError as e:
    print("ValueError:", e)
