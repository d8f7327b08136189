# np.arange as a region op: NumPy's length (ceil of the Python numbers'
# quotient) and fill (element 1 is start + step; element i is
# start + i * (element 1 - element 0) in the dtype's arithmetic), for int,
# float64 and float32 results, fused into what reads it, as a result, in
# sums, and the calls NumPy refuses.
import numpy as np


def show(label, v):
    v = np.asarray(v)
    print(label, v.dtype, v.shape, v.ravel()[:4].tolist(), v.ravel()[-3:].tolist(),
          float(v.astype(np.float64).sum()))


def main():
    show("n", np.arange(5000) * 2)
    show("start stop", np.arange(-3000, 3000) + 1)
    show("step", np.arange(7, 90000, 13) - 7)
    show("negative step", np.arange(5000, -5000, -3) * 1)
    show("float", np.arange(0.0, 1.0, 0.0003) * 1)
    show("float start", np.arange(0.1, 700.3, 0.1) + 0)
    show("float big step", np.arange(-1e5, 1e5, 33.3) * 1)
    show("mixed int and float", np.arange(3, 4000.5) * 1)
    show("int bounds float32", np.arange(0, 4000, dtype=np.float32) / 3)
    show("float32", np.arange(0.1, 500.0, 0.1, dtype=np.float32) * 1)
    show("float32 far", np.arange(1e6, 1e6 + 3000, 0.7, dtype="f4") - 1e6)
    show("int32", np.arange(0, 10000, 3, dtype=np.int32) * 2)
    show("int64 beyond 2**40", np.arange(2**40, 2**40 + 5000) * 3)
    show("as a result", np.arange(10000))
    show("float as a result", np.arange(-2.5, 2500.0, 0.25))
    show("sum", np.sum(np.arange(1, 100001) * 0.5))
    show("sin", np.sin(np.arange(0.0, 10.0, 0.001)))
    show("uint8 stays eager", np.arange(0, 250, 1, dtype=np.uint8).astype(np.int64) * 20)
    show("empty", np.arange(10, 0) * 1)
    for bad in (lambda: np.arange(0, 10000, 0), lambda: np.arange(0, float("nan")),
                lambda: np.arange(0, 1e300, 1e-300), lambda: np.arange(2**63 - 10, 2**63 + 5000)):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)


main()
