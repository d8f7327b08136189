# np.linalg.norm with ord=None/2/1/inf/-inf (and ords that stay eager: 3, 0,
# matrix norms) of vectors and along an axis, float64 and float32, in regions;
# empty inputs: ord=1 sums nothing, ord=inf raises NumPy's ValueError.
import numpy as np
def show(l, v): print(l, type(v).__name__, np.asarray(v).dtype, np.asarray(v).shape, repr(np.asarray(v).ravel()[:3].tolist()))
def main():
    rng = np.random.default_rng(5)
    for dt in (np.float64, np.float32):
        x = rng.standard_normal(5000).astype(dt); m = rng.standard_normal((300, 40)).astype(dt)
        for o in (None, 2, 1, np.inf, -np.inf, 1.0, float('inf'), 3, 0):
            show(f"{dt.__name__} vec {o}", np.linalg.norm(x * 2, ord=o))
            show(f"{dt.__name__} axis1 {o}", np.linalg.norm(m - 1, ord=o, axis=1))
            show(f"{dt.__name__} axis0 keep {o}", np.linalg.norm(m, ord=o, axis=0, keepdims=True))
        for o in (1, np.inf, 2, None):
            show(f"matrix {o}", np.linalg.norm(m, ord=o))
    e = np.zeros((0, 3000))
    show("empty 1", np.linalg.norm(e, ord=1, axis=0))
    try:
        np.linalg.norm(e, ord=np.inf, axis=0)
    except ValueError as err:
        print("ValueError", err)
    print(np.linalg.norm(np.arange(5000), ord=1))
main()
