# 8-, 16- and 32-bit integer arithmetic computed in kernels whose lanes are
# wider than the values (held sign- or zero-extended): wrapping add,
# subtract, multiply and negation, shifts by the type's width and more,
# the most negative value's absolute value, comparisons and min/max of
# wrapped values, casts between integer types, sums into int64, 32-bit
# values beside 64-bit ones and floats; as image and audio programs write
# them (uint8 pixels, int16 samples). Shapes with tails and strides.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(159)


def main():
    for n in (1, 7, 33, 1000, 40_003):
        b8 = rng.integers(-128, 127, n, dtype=np.int8, endpoint=True)
        u8 = rng.integers(0, 255, n, dtype=np.uint8, endpoint=True)
        i16 = rng.integers(-2**15, 2**15 - 1, n, dtype=np.int16, endpoint=True)
        u16 = rng.integers(0, 2**16 - 1, n, dtype=np.uint16, endpoint=True)
        i32 = rng.integers(-2**31, 2**31 - 1, n, dtype=np.int32, endpoint=True)
        i64 = rng.integers(-2**62, 2**62, n)
        b8[:1] = -128
        show(f"{n} int8 wraps", (b8 + b8) * np.int8(3) - b8)
        show(f"{n} uint8 wraps", u8 * np.uint8(2) + np.uint8(7))
        show(f"{n} int16 product", (i16 - np.int16(30000)) * i16)
        show(f"{n} shifts", (u16 << np.uint16(9)) >> np.uint16(3))
        show(f"{n} shifts past the width", (b8 >> np.int8(9)) + (b8 << np.int8(5)) + (b8 << np.int8(9)))
        show(f"{n} negation and abs", -u8 + np.abs(b8).astype(np.uint8))
        show(f"{n} abs int8", np.abs(b8))
        show(f"{n} invert", ~u16 | (u16 ^ np.uint16(0x5555)))
        show(f"{n} min of wrapped", np.minimum(b8 + b8, np.int8(5)) * b8)
        show(f"{n} compare wrapped", np.maximum(u8 + u8, np.uint8(100)) > u8)
        show(f"{n} where", np.where(b8 + b8 > 0, b8, -b8))
        show(f"{n} clip", np.clip(u8 + np.uint8(100), 50, 200))
        show(f"{n} sum of squares int8", (b8 * b8).sum())
        show(f"{n} sum of int32 products", (i32 * 5).sum())
        show(f"{n} casts down", ((u8 + u8) * 3).astype(np.int8))
        show(f"{n} int32 to int16", (i32 * 3).astype(np.int16) + np.int16(1))
        show(f"{n} int64 to uint8", (i64 * 7).astype(np.uint8) ^ u8)
        show(f"{n} int8 to uint16", (b8 * 2).astype(np.uint16) + np.uint16(1))
        show(f"{n} int32 beside int64", (i32 * 5) + i64)
        show(f"{n} int32 widened", (i32 + i32).astype(np.int64) * 3)
        show(f"{n} pixels to float32", (u8 * np.uint8(3)).astype(np.float32) / np.float32(255))
        show(f"{n} to float64", (b8 + b8) * 0.5 + i16)
        show(f"{n} extremes", [(i16 * i16).min(), (u16 + u16).max(), (b8 - b8[::-1]).argmax()])
    img = rng.integers(0, 255, (120, 161, 3), dtype=np.uint8, endpoint=True)
    gray = (img[..., 0] // 4 + img[..., 1] // 2 + img[..., 2] // 4)
    show("gray", gray)
    show("brighter", np.clip(img.astype(np.int16) + 40, 0, 255).astype(np.uint8))
    show("inverted columns", 255 - img[:, ::2, 1])
    show("mask count", ((img[..., 0] > 128) & (img[..., 2] < 64)).sum())
    audio = rng.integers(-2**15, 2**15 - 1, 48_000, dtype=np.int16, endpoint=True)
    show("mixed down", (audio // 2 + audio[::-1] // 2))
    show("gain wraps", audio * np.int16(3))
    show("energy", (audio.astype(np.int32) * audio).sum())


main()
