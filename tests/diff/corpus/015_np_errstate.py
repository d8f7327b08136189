# np.errstate: ignored and raised floating point errors.
import numpy as np

a = np.array([1.0, -1.0, 0.0, 4.0])
b = np.array([0.0, 0.0, 0.0, 2.0])
with np.errstate(divide="ignore", invalid="ignore"):
    r = a / b
    print("a/b", r.tolist())
    print("log", np.log(np.array([0.0, 1.0, -1.0])).tolist())
    print("isinf", np.isinf(r).tolist(), "isnan", np.isnan(r).tolist())
    print("int // 0", (np.array([5, -5, 0]) // np.array([0, 0, 0])).tolist())

print("errstate restored:", np.geterr()["divide"], np.geterr()["invalid"])

with np.errstate(divide="raise"):
    try:
        a / b
    except FloatingPointError as e:
        print("FloatingPointError:", e)

with np.errstate(all="raise"):
    try:
        np.sqrt(np.array([-1.0]))
    except FloatingPointError as e:
        print("FloatingPointError:", e)
    try:
        np.array([1e308]) * 10
    except FloatingPointError as e:
        print("FloatingPointError:", e)
    try:
        np.array([0.0]) / np.array([0.0])
    except FloatingPointError as e:
        print("FloatingPointError:", e)

with np.errstate(over="ignore"):
    print("overflow", (np.array([1e308]) * 10).tolist(), (np.float32(3e38) * np.float32(10)))

print("nan_to_num", np.nan_to_num(np.array([np.inf, -np.inf, np.nan, 1.5])).tolist())
