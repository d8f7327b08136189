# uint8 and int8 arrays (with bools) worked on alone, which kernels run an
# element to a byte: wrapping adds, subtracts and multiplies, with NumPy
# scalars and Python ints, bitwise ops and inversion, every comparison
# signed and unsigned, min and max, where (with constants), masks of
# ranges, beside work that takes wider lanes (casts, clip, negation, floor
# division, powers); tails, reversed and stepped operands, and an image's
# channels, broadcast rows and its transpose.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(165)


def main():
    for n in (2048, 2111, 30_001):
        u = rng.integers(0, 255, n, dtype=np.uint8, endpoint=True)
        v = rng.integers(0, 255, n, dtype=np.uint8, endpoint=True)
        s = rng.integers(-128, 127, n, dtype=np.int8, endpoint=True)
        t = rng.integers(-128, 127, n, dtype=np.int8, endpoint=True)
        b = u > 100
        show(f"{n} add", [u + v, u + np.uint8(200), u + 7, s + 100])
        show(f"{n} subtract", [u - v, s - t])
        show(f"{n} bitwise", [u & v | (u ^ np.uint8(0x55)), ~u, ~s])
        show(f"{n} unsigned compares", [u > v, u >= 200, u < 3, u <= v, u == v])
        show(f"{n} signed compares", [s > t, s >= -5, s < 0, s <= t, s != t])
        show(f"{n} min max", [np.minimum(u, v), np.maximum(u, 77), np.minimum(s, t), np.maximum(s, -3)])
        show(f"{n} where", [np.where(b, u, v), np.where(u > v, u - v, v - u), np.where(s > 0, s, 0),
                            np.where(b, 255, u)])
        show(f"{n} range mask", (u > 3) & (u < 100) & ~b)
        show(f"{n} multiply", [u * v, u * np.uint8(3), u * 7 + v, s * t, s * -3, np.square(u)])
        for name, r in (("clip", np.clip(u, 10, 200)), ("negative", -s), ("power", s ** 3),
                        ("cast", (u + v).astype(np.int8)), ("floor division", u // 3)):
            show(f"{n} wider work: {name}", r)
        show(f"{n} reversed", u[::-1] + v)
        show(f"{n} stepped", u[::2] - 1)
        show(f"{n} reversed mask", np.where(b[::-1], s, t))
    img = rng.integers(0, 255, (120, 161, 3), dtype=np.uint8, endpoint=True)
    show("channels", np.maximum(img[..., 0], img[..., 1]) - img[..., 2])
    show("a row broadcast", img + img[:1])
    show("thresholded", np.where(img > 128, img - 128, 0))
    show("transposed", img.T + 1)


main()
