# Operands whose elements lie two items apart (every other element of an
# array, the columns of (n, 2) arrays, a complex array's real and
# imaginary parts), which AVX2 and AVX-512 kernels read where they lie:
# float64, float32, int64, int32 and uint32 ones, of odd and even lengths
# and with tails, an operand ending at the last item of its buffer, 2-D
# forms (rows of them, every other row too), beside contiguous,
# reversed, broadcast and one-value operands; and compares, the logic on
# them and where, which AVX-512 kernels keep in mask registers.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(167)


def show_each(name, results):
    for k, r in enumerate(results):
        show(f"{name} {k}", r)


def main():
    for n in (4096, 4099, 30_001):
        x = rng.standard_normal(n)
        y = rng.standard_normal(n)
        x[:6] = [np.nan, -0.0, np.inf, 0.0, -np.inf, 1e-310]
        show_each(f"{n} evens and odds", [x[::2] + 1, x[1::2] * y[1::2], x[::2][: len(x[1::2])] - x[1::2]])
        show_each(f"{n} ending at the last item", [x[-1::-1][::-2] * 2, x[len(x) % 2 - 1 :: 2] + 0.5])
        show_each(f"{n} beside others", [x[::2] * y[: len(x[::2])], x[::2] - y[::-1][: len(x[::2])],
                                    x[1::2] + np.float64(3), x[::2] * x[0]])
        f = x.astype(np.float32)
        g = y.astype(np.float32)
        show_each(f"{n} float32", [f[::2] * np.float32(1.5), f[1::2] - g[1::2], np.sqrt(np.abs(f[::2]))])
        i = rng.integers(-2**62, 2**62, n)
        k = rng.integers(-2**31, 2**31 - 1, n, dtype=np.int32, endpoint=True)
        u = rng.integers(0, 2**32 - 1, n, dtype=np.uint32, endpoint=True)
        show_each(f"{n} integers", [i[::2] * 3 + i[1::2][:1], k[::2] + k[1::2][0],
                                    (u[1::2] >> 3) ^ u[::2][: len(u[1::2])], np.where(k[::2] > 0, k[::2], -k[::2])])
        show_each(f"{n} masks", [np.where((x > 0) & (y < 1) | np.isnan(y), x, y),
                            (x > y) != ~(y >= 0), np.where(~(x < 0) ^ (y > x), 1.0, y) * 2,
                            (x[::2] == x[::2]) | (y[::2] <= 0)])
    pairs = rng.standard_normal((5001, 2))
    show_each("columns", [pairs[:, 0] * pairs[:, 1], np.hypot(pairs[:, 0], 2.0), pairs[:, 1] > pairs[:, 0]])
    grid = rng.standard_normal((301, 403))
    show_each("grid", [grid[:, ::2] * 2, grid[:300:2, 1::2] + grid[1::2, :402:2], grid.T[::2] - 1,
                       grid[:, ::2] + grid[:1, ::2]])
    z = rng.standard_normal((301, 403)) + 1j * rng.standard_normal((301, 403))
    show_each("complex parts", [z.real * 2 + z.imag, z.imag[:, 1:] - z.real[:, :-1], np.abs(z) > 1.25,
                           z.T.real + z[:, 0].imag, z * (1 - 2j) + z.real])


main()
