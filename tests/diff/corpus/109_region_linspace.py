# np.linspace of Python numbers as region ops, as NumPy computes it in
# float64 (i * step + start, the end point set to stop), with and without
# the end point, float32 results, fused and as results; what stays with
# NumPy (integer dtypes, retstep, a zero step) and its errors.
import numpy as np


def show(label, v):
    v = np.asarray(v)
    print(label, v.dtype, v.shape, v.ravel()[:4].tolist(), v.ravel()[-3:].tolist(),
          float(v.astype(np.float64).sum()))


def main():
    show("unit", np.linspace(0, 1, 5001))
    show("fused", np.linspace(-3.5, 7.25, 4097) * 2 + 1)
    show("no end point", np.linspace(0.0, 2 * np.pi, 10000, endpoint=False))
    show("sin", np.sin(np.linspace(0, 2 * np.pi, 9999)))
    show("num keyword", np.linspace(1e-3, 1e3, num=3000) - 1)
    show("descending", np.linspace(10, -10, 2049))
    show("float32", np.linspace(0, 1, 5000, dtype=np.float32) * 3)
    show("float32 named", np.linspace(-1.0, 1.0, num=2500, dtype="f4"))
    show("int dtype", np.linspace(0, 100, 3000, dtype=int))
    values, step = np.linspace(0, 1, 3000, retstep=True)
    show("retstep", values)
    print("step", step)
    show("zero step", np.linspace(5.0, 5.0, 3000) + 0)
    show("tiny step", np.linspace(0.0, 1e-320, 3000) * 1)
    show("large ints", np.linspace(0, 2**60, 3000))
    try:
        np.linspace(0, 1, -5)
    except ValueError as e:
        print("ValueError", e)


main()
