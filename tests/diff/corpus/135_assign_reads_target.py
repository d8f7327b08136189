# Slice assignments whose value reads the target itself a few elements
# apart (u[1:-1] = f(u[:-2], u[1:-1], u[2:])): NumPy computes the whole value
# before it assigns it, so every element reads old values. npython writes
# such a target piece by piece, each once the pieces that read it are
# computed (up to 4,096 elements apart, or a row apart in a 2-D array's
# inside); further apart, or not laid out alike, the value goes through a
# temporary. Lengths around the 4,096-element spans and the threads' shares,
# shifts both ways (up to and past 4,096 elements), several dtypes, and the
# FP warnings of such an assignment (npython runs its operations again
# through NumPy on the old values of the pieces that raised flags). Values
# by checksum of every byte. In a function: evaluated frames only.
import warnings

import numpy as np

from corpus_digest import show


def stencil(u, steps):
    for _ in range(steps):
        u[1:-1] = u[1:-1] + 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def shifted(u, k, steps):
    n = u.shape[0]
    for _ in range(steps):
        u[k:n - k] = u[2 * k:] * 3 - u[:n - 2 * k] + u[k:n - k]  # reads both ways
    return u


def ahead(u, k):
    u[:-k] = u[k:] + 1  # reads ahead of each element
    return u


def behind(u, k):
    u[k:] = u[:-k] + 1  # reads behind each element
    return u


def main():
    rng = np.random.default_rng(135)
    for n in (2050, 4096, 8191, 8193, 32770, 65539, 262147, 1 << 20):
        u = rng.standard_normal(n)
        show(f"stencil float64 {n}", stencil(u, 5))
        v = rng.standard_normal(n).astype(np.float32)
        show(f"stencil float32 {n}", stencil(v, 5))
    for dtype in (np.float64, np.float32, np.int64, np.int32, np.int16, np.int8, np.uint8):
        for k in (1, 3, 64, 4095, 4096, 4097, 6000):
            u = (rng.standard_normal(300_001) * 40).astype(dtype)
            name = f"{np.dtype(dtype).name} k={k}"
            show(f"shifted {name}", shifted(u.copy(), k, 3))
            show(f"ahead {name}", ahead(u.copy(), k))
            show(f"behind {name}", behind(u.copy(), k))
    # In place, through another view of the same memory, and with an input
    # that lies elsewhere.
    u = rng.standard_normal(200_000)
    w = rng.standard_normal(200_000)
    u[1:-1] *= u[2:]
    show("in place *= u[2:]", u)
    u[2:] += u[:-2] * w[2:]
    show("+= u[:-2] * w", u)
    bits = u.view(np.int64)
    bits[1:] = bits[:-1] ^ 0x1
    show("int64 view of float64 memory", u)
    # A 2-D array's rows (C-contiguous: one flat loop), and its columns
    # (not contiguous: through a temporary).
    for rows, columns in ((1000, 300), (300, 4096), (200, 4097)):
        g = rng.standard_normal((rows, columns))
        g[1:-1] = (g[:-2] + g[2:]) * 0.5
        show(f"rows of a 2-D array {rows} x {columns}", g)
    g[:, 1:-1] = (g[:, :-2] + g[:, 2:]) * 0.5
    show("columns of a 2-D array", g)
    # The inside of a 2-D array (rows that lie apart), read a row above and
    # below and an element either side (written row by row, once the rows
    # that read them are computed), or diagonally (further than a row:
    # through a temporary); rows around the driver's 4,096-element spans and
    # past its longest (65,536).
    for rows, columns in ((2000, 300), (40, 4095), (40, 4097), (3000, 7), (5, 70_000)):
        for dtype in (np.float64, np.float32, np.int32, np.int8):
            g = (rng.standard_normal((rows, columns)) * 30).astype(dtype)
            name = f"{np.dtype(dtype).name} {rows} x {columns}"
            for _ in range(3):
                g[1:-1, 1:-1] = g[:-2, 1:-1] + g[2:, 1:-1] - g[1:-1, :-2] + g[1:-1, 2:] // 2
            show(f"inside, five points, {name}", g)
            g[1:-1, 1:-1] = g[2:, 2:] - g[:-2, :-2]
            show(f"inside, diagonals, {name}", g)
            g[1:, :-1] -= g[:-1, 1:]
            show(f"up and right, in place, {name}", g)
    # Overflow in such an assignment warns once, as NumPy does, and under
    # errstate(over='raise') leaves the target as it was.
    # (Every other element overflows: values computed from elements already
    # assigned would differ.)
    big = np.repeat(1e306, 100_000)  # made by NumPy: not a lazy value
    big[::2] = 1.0
    big[1:-1] = big[2:] * 1000 + big[:-2]
    show("overflowed", big)
    keep = np.repeat(1e306, 100_000)
    keep[::2] = 1.0
    with np.errstate(over="raise"):
        try:
            keep[1:-1] = keep[2:] * 1000 + keep[:-2]
        except FloatingPointError as e:
            print("raised:", e)
    show("kept", keep)
    # Warnings from a few elements, at either end of the array, at the
    # threads' shares' ends or inside them, and from two operations: shown
    # every time, as NumPy reports them (each operation once).
    warnings.simplefilter("always")
    for n in (50_000, 1 << 20):
        for where in ((0,), (n - 1,), (n // 2 - 1, n // 2), (4096 * 3 + 5,), (7, n - 7)):
            u = rng.standard_normal(n)
            for i in where:
                u[i] = np.inf
            u[1:-1] = u[2:] * 1e10 - u[:-2] * 1e10
            show(f"inf at {where} of {n}", u)
            u[np.isnan(u)] = 0.0
            u[1:-1] = u[2:] / (u[:-2] - u[:-2])
            show(f"divided by zero, {n}", u)
    g = rng.standard_normal((300, 700))
    g[150, 3] = 1e300
    g[1:-1, 1:-1] = g[:-2, 1:-1] * 1e10 + g[1:-1, 2:]
    show("2-D overflow", g)


main()
