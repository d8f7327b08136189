# Steps a region runs through NumPy (8- and 16-bit integer arithmetic, which
# no kernel computes; a kernel of more operands than the driver passes)
# may compute an operator into a temporary nothing needs any more, but never
# into an operand the program still names: `y` below must keep its values
# when `y - (a + b)` is computed, whichever side the live operand is on.
import numpy as np

from corpus_digest import show


def small_integers(dtype):
    a = (np.arange(300_000) % 7).astype(dtype)
    b = (np.arange(300_000) % 5).astype(dtype)
    y = a * b
    show(f"{np.dtype(dtype).name} y - (a + b)", y - (a + b))
    show(f"{np.dtype(dtype).name} y", y)
    z = a * b
    show(f"{np.dtype(dtype).name} (a + b) - z", (a + b) - z)
    show(f"{np.dtype(dtype).name} z", z)
    w = a * b
    show(f"{np.dtype(dtype).name} (a + b) + w", (a + b) + w)
    show(f"{np.dtype(dtype).name} w + (a + b)", w + (a + b))
    show(f"{np.dtype(dtype).name} w", w)
    u = a * b
    v = u * (a - b)
    show(f"{np.dtype(dtype).name} u & (a | b)", u & (a | b))
    show(f"{np.dtype(dtype).name} u v", np.stack([u, v]))


def many_operands():
    x = np.linspace(-1, 1, 100_000)
    y = x
    for c in np.arange(1.0, 70.0):  # 69 NumPy scalars: more operands than one kernel takes
        y = y + c
    e = y - (x + 1.0)
    show("many y", y)
    show("many e", e)
    print(y[:2], e[:2], y.mean())


for dtype in (np.int8, np.uint8, np.int16, np.uint16):
    small_integers(dtype)
many_operands()
