# Bool arrays combined with one another alone (logical and bitwise ops,
# equality), which kernels run a bool to a byte: sizes with every kind of
# tail, reversed and stepped operands, rows and columns broadcast, 0-d and
# one-element masks, transposed and sliced 2-D masks, Python and NumPy
# bools, and masks of 3-D data.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(164)


def combine(name, b, c, d):
    show(f"{name} invert", ~b)
    show(f"{name} and", b & c)
    show(f"{name} or not", b | ~c)
    show(f"{name} xor", b ^ c ^ d)
    show(f"{name} logical", np.logical_and(b, np.logical_not(c)))
    show(f"{name} logical xor", np.logical_xor(b, d))
    show(f"{name} equal", b == c)
    show(f"{name} not equal", b != d)
    show(f"{name} mixed", ~(b & c) | d)


def main():
    for n in (2048, 2049, 2111, 4159, 30_001, 100_003):
        x = rng.standard_normal(n)
        b, c, d = x > 0.2, x < 1.0, x > -0.5
        combine(f"{n}", b, c, d)
        combine(f"{n} reversed", b[::-1], c, d[::-1])
        m = len(b[::3])
        combine(f"{n} stepped", b[::3], c[1::3][:m] if len(c[1::3]) >= m else b[::3], d[::3])
    B = rng.standard_normal((300, 70)) > 0
    C = rng.standard_normal((300, 70)) > 0.5
    show("rows", B & C)
    show("a row broadcast", B & C[0])
    show("a column broadcast", B | C[:, :1])
    show("transposed", ~B.T)
    show("both transposed", B.T ^ C.T)
    show("stepped columns", (B & C)[:, ::2])
    show("shifted", B[:, 3:] | C[:, :-3])
    show("Python bool", B & True)
    show("NumPy bool", B ^ np.bool_(True))
    show("0-d mask", B & np.array(True))
    show("one element", ~B | B[:1, :1])
    D = rng.standard_normal((64, 64, 3)) > 0
    show("3-D", D & ~D[:, :, :1])
    show("3-D channels", D[..., 0] ^ D[..., 1])


main()
