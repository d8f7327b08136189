# Integer arrays in float arithmetic, which npython converts inside its
# kernels: 8-, 16- and 32-bit integers of both signs into float64 lanes
# (all of them exactly, uint32 up to 2**32 - 1 included), 8- and 16-bit
# ones and int32 into float32 lanes (int32 rounded as NumPy's cast rounds
# it), astype, images weighted into grey levels, and reductions of the
# results. Values by checksum of every byte. In a function: evaluated
# frames only.
import numpy as np

from corpus_digest import show


def main():
    rng = np.random.default_rng(129)
    n = 100_003
    for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
        x[:4] = [info.min, info.max, 0, info.max - 1]
        name = np.dtype(dtype).name
        f64 = rng.standard_normal(n)
        f32 = rng.standard_normal(n).astype(np.float32)
        show(f"{name} * 0.5", x * 0.5)
        show(f"{name} + float64 array", x + f64)
        show(f"{name} / 3.0", x / 3.0)
        show(f"{name} astype float64", x.astype(np.float64))
        show(f"{name} sqrt(abs) float64", np.sqrt(np.abs(x.astype(np.float64))))
        show(f"{name} * float32 array", x * f32)
        show(f"{name} * float32 scalar", x * np.float32(0.25))
        show(f"{name} astype float32", x.astype(np.float32))
        show(f"{name} mean of x * 1.5", (x * 1.5).mean())
        show(f"{name} compared with a float", x > 0.5)
        show(f"{name} where", np.where(x > 0, x * 0.5, f64))
        grid = x[: 300 * 333].reshape(300, 333)
        show(f"{name} rows of x * 0.1", (grid * 0.1).sum(axis=1))
        show(f"{name} every other column", grid[:, ::2] * 2.5)
    image = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    grey = image[..., 0] * 0.299 + image[..., 1] * 0.587 + image[..., 2] * 0.114
    show("grey", grey)
    show("grey as uint8", grey.astype(np.uint8))
    show("grey float32", image[..., 0] * np.float32(0.299) + image[..., 1] * np.float32(0.587))
    show("normalised", (image - image.mean()) / image.std())


main()
