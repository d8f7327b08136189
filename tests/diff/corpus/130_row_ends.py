# Element-wise work over rows that do not end on a whole vector: C-contiguous
# arrays (run flat), a column broadcast along rows of 65 to 1003 elements
# (each row's last vector computed again, overlapping the one before),
# index-computed rows (an arange of 2,048 elements or more), views whose rows are not contiguous with
# each other, reversed rows, bool outputs, several dtypes, and one output of
# over 64 MB (written past the caches where rows are whole vectors). Values
# by checksum of every byte. In a function: evaluated frames only.
import numpy as np

from corpus_digest import show


def main():
    rng = np.random.default_rng(130)
    for rows, length in ((3000, 65), (2000, 99), (2000, 100), (1500, 127), (300, 1003), (300, 2101), (5, 100)):
        for dtype in (np.float64, np.float32, np.int32, np.int16, np.int8):
            x = (rng.standard_normal((rows, length)) * 50).astype(dtype)
            m = x[:, 3:4].copy()
            name = f"{np.dtype(dtype).name} ({rows}, {length})"
            show(f"{name} x - 1", x - 1)
            show(f"{name} x - column", x - m)
            show(f"{name} x > column", x > m)
            show(f"{name} where(x > column)", np.where(x > m, x, m))
            show(f"{name} x + row + column", x + x[0] + m)
            show(f"{name} column * arange", m * np.arange(length))
            show(f"{name} first 64 columns - column", x[:, :64] - m)
            show(f"{name} all but the first column - column", x[:, 1:] - m)
            show(f"{name} every other row - column", x[::2] - m[::2])
            show(f"{name} reversed rows - column", x[:, ::-1] - m)
            if dtype in (np.float64, np.float32):
                show(f"{name} sqrt(abs(x - column)) / 7", np.sqrt(np.abs(x - m)) / 7)
    x = rng.standard_normal((90_000, 100))
    m = x[:, :1].copy()
    show("72 MB x - column", x - m)
    show("72 MB x * 2", x * 2)
    y = rng.standard_normal((90_000, 104))
    show("75 MB rows of whole vectors - column", y - y[:, :1])
    z = x.copy()
    z -= m
    show("in place x -= column", z)
    z[:, 1:] = z[:, :-1] - m
    show("shifted slice assignment", z)


main()
