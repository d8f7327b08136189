# The float32 mean of more than 2**24 elements: NumPy divides the float32
# sum by the count as an intp, in float64, and rounds the quotient to
# float32; a float32 division by the count would round the count first
# (16777217 becomes 16777216). Whole arrays, rows and columns, fused
# operands, and counts that float32 holds exactly, for contrast.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(17)


def means(x):
    return [(x * 1).mean(), np.mean(x + 0), x.mean(axis=-1), (x - 1).mean(axis=0, keepdims=True)]


def main():
    for label, shape in [("whole", (16_777_217,)), ("whole, exact count", (16_777_216,)),
                         ("rows", (2, 16_777_219)), ("columns", (16_777_221, 2))]:
        x = rng.random(shape, dtype=np.float32) + np.float32(1000)
        for k, m in enumerate(means(x)):
            show(f"{label} {k}", m)
            if np.ndim(m) == 0:
                print("  ", repr(m))


main()
