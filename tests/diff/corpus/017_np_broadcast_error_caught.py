# NumPy broadcasting / shape errors that are caught and printed.
import numpy as np


def combine(a, b):
    return a + b


pairs = [
    (np.ones((3, 4)), np.ones(3)),
    (np.ones((2, 3)), np.ones((3, 2))),
    (np.ones((5,)), np.ones((4,))),
    (np.ones((3, 4)), np.ones(4)),
    (np.ones((2, 1, 3)), np.ones((4, 1))),
]
for x, y in pairs:
    try:
        r = combine(x, y)
        print("ok", x.shape, "+", y.shape, "->", r.shape)
    except ValueError as e:
        print("ValueError:", e)

try:
    np.arange(6).reshape(4, 2)
except ValueError as e:
    print("reshape:", e)
try:
    np.dot(np.ones((2, 3)), np.ones((2, 3)))
except ValueError as e:
    print("dot:", e)
try:
    np.ones((2, 3)) @ np.ones((2, 3))
except ValueError as e:
    print("matmul:", e)
try:
    z = np.zeros(5)
    z[np.array([True, False])] = 1
except IndexError as e:
    print("IndexError:", e)
try:
    np.zeros((3, 3))[3, 0]
except IndexError as e:
    print("IndexError:", e)
try:
    u = np.zeros(4)
    u[:] = np.ones(3)
except ValueError as e:
    print("assign:", e)
