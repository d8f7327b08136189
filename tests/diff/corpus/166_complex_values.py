# complex128 element-wise work, which kernels compute as real and imaginary
# parts: +, -, * (NumPy's products, rounded as its loop for this CPU rounds
# them), / (NumPy's Smith division, divisors of zero, NaN and infinite
# parts among them), == and !=, isnan, isinf, isfinite, squares (z ** 2,
# np.square), negation, np.abs (NumPy's own
# algorithm: infinities, NaNs with and without payloads, zeros, subnormal
# and huge parts; reversed operands, for which NumPy takes the C
# library's hypot), with float, integer, float32 and bool arrays, Python and
# NumPy complex scalars; tails, broadcasts, strided, reversed and transposed
# operands, Fortran order, chains whose values leave the region or not,
# temporaries python3's NumPy computes into, results that overflow (NumPy's
# warning), and operations left to NumPy
# (complex64, exp, sums) between them.
import warnings

import numpy as np

from corpus_digest import show

rng = np.random.default_rng(166)


def specials_of(n, nans):
    """Complex values of every pair of special parts (infinities, zeros,
    subnormal and huge ones) first; with `nans`, also values one of whose
    parts is a NaN (with and without a payload and sign) and the other 3.0:
    NumPy's NaN results are then the one NaN's, wherever the element lies
    (where several operands of a step are NaN, the sign of NumPy's NaN
    depends on the element's place in its loop)."""
    z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    parts = np.array([np.inf, -np.inf, 0.0, -0.0, 5e-324, 1e308, -1e-310, 3.0])
    re = np.repeat(parts, parts.size)
    im = np.tile(parts, parts.size)
    if nans:
        payloads = np.array([0x7FF8_0000_DEAD_BEEF, 0xFFF8_1234_5678_9ABC], dtype=np.uint64).view(np.float64)
        nan_parts = np.concatenate([[np.nan, -np.nan], payloads])
        re = np.concatenate([re, nan_parts, np.full(4, 3.0)])
        im = np.concatenate([im, np.full(4, 3.0), nan_parts])
    z.real[:re.size] = re
    z.imag[:re.size] = im
    return z


def x_of(n):
    return rng.standard_normal(n)


def show_all(name, values):
    for k, v in enumerate(values):
        show(f"{name} {k}", v)


def forms(n, z, w):
    x = rng.standard_normal(n)
    j = rng.integers(-50, 50, n)
    f = rng.standard_normal(n).astype(np.float32)
    b = x > 0
    show_all(f"{n} add subtract", [z + w, z - w, w - z, z + x, x - z, z + 1.5, 2 - z])
    show_all(f"{n} products", [z * w, w * z, z * x, x * z, z * 2.5, z * 1j, 1j * x, z * (2 - 3j), z * z])
    show_all(f"{n} quotients", [z / w, w / z, z / x, x / z, z / 2.5, 1 / z, z / 1j, 1j / x, z / (2 - 3j),
                                (z - w) / (z + w), np.divide(z, w), np.true_divide(j, z), 1.0 / (z - (0.3 - 0.2j))])
    show_all(f"{n} compares", [z == w, z != w, z == x, x != z, np.equal(z, 2.5), np.not_equal(w, np.conj(z)),
                               z * 2 == w, np.isnan(z), np.isinf(w / 1e-300), np.isfinite(z * w)])
    show_all(f"{n} squares", [z ** 2, np.square(w), (z - w) ** 2])
    show_all(f"{n} negation", [-z, +w, -(z * w)])
    show_all(f"{n} abs", [np.abs(z), np.absolute(w), np.abs(z * w), np.abs(x * 1j)])
    show_all(f"{n} other operands", [z * j, z + f, b * z, z - np.float32(0.5), z * np.complex128(1 - 2j),
                                     np.multiply(z, w), np.add(j, z), np.subtract(z, b)])
    show_all(f"{n} chains", [(z * w + z) * w - 3, np.abs(z ** 2 + w) > 2, np.abs(z - w) * x + 1])
    # A temporary on the right, which python3's NumPy computes into (its
    # operands the other way round) from 256 KiB on.
    show_all(f"{n} temporaries", [z * (w + 1), x * (z * 2), z + (w * 1j), z * np.conj(w), (z + 1) * (w - 1)])


def main():
    for n in (2048, 2111, 30_001):
        z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
        w = rng.standard_normal(n) - 2j * rng.standard_normal(n)
        forms(n, z, w)
        # NaNs, infinities, zeros: NumPy's warnings, or, ignored, the kernels' values kept.
        z = specials_of(n, nans=True)
        w = specials_of(n, nans=False)[::-1].copy()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            show_all(f"{n} specials", [z * w, z + w, z ** 2, np.abs(z), np.abs(w * 2) < 1, z / w, w / z, z / 0,
                                       z == w, z != z, np.isnan(z), np.isinf(z), np.isfinite(w), np.isnan(z / w)])
        print("warnings", [str(c.message) for c in caught])
        with np.errstate(all="ignore"):
            show_all(f"{n} specials ignored", [z * w, w * z, z * 2.5, z * 1j, z * z, z ** 2, np.square(w), -z,
                                               z - w, np.abs(z), np.abs(w), np.abs(z * w), z * x_of(n), z / w, w / z,
                                               z / z[::-1], w / 0, 1 / w, z / x_of(n)])
    z = rng.standard_normal((100, 200)) + 1j * rng.standard_normal((100, 200))
    w = rng.standard_normal(200) + 1j * rng.standard_normal(200)
    show_all("broadcast row", [z * w, z + w[None, :], np.abs(z - w)])
    show("broadcast column", z * (1j * rng.standard_normal((100, 1))))
    show_all("transposed", [z.T * 2 + 1, z.T * z.T, np.abs(z.T)])
    show("fortran", np.asfortranarray(z) * (1 + 1j) - z)
    show_all("strided", [z[:, ::3] * z[:, 1::3], z[::-1, ::-2] + 1, np.abs(z[::2])])
    zf = z.astype(np.complex64)
    show_all("complex64, left to NumPy", [zf * zf, zf + 1j, np.abs(zf), z * zf])
    show_all("between NumPy's", [np.exp(z * 1j) * z, (z * 2) / (w + 1), np.sum(z * w), (z * w).sum(axis=0)])
    big = np.full(4096, 1e300 + 1e300j)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        show_all("overflow", [big * big, big * 1e10])
    print("warnings", [str(c.message) for c in caught])
    with np.errstate(over="ignore"):
        show("overflow ignored", big * big + 1)
    m = np.ones(30_001, bool)
    m[::3] = False
    c = rng.uniform(-2, 1, 30_001) + 1j * rng.uniform(-1.2, 1.2, 30_001)
    zm = np.zeros_like(c)
    for i in range(5):
        zm[m] = zm[m] ** 2 + c[m]
        m &= ~(np.abs(zm) > 2)
    show_all("escape time", [zm, m])
    # np.abs of operands with negative strides, which NumPy's loop can get
    # as they are and then computes with the C library's hypot (its SIMD
    # formula rounds otherwise, here on parts far apart in magnitude).
    n = 4096
    wide = (rng.standard_normal(n) * np.exp(rng.uniform(-300, 300, n))
            + 1j * rng.standard_normal(n) * np.exp(rng.uniform(-300, 300, n)))
    show_all("abs of reversed", [np.abs(wide[::-1]), np.abs(wide[::-2]), np.abs(wide[::-1].reshape(64, 64)),
                                 np.abs(wide.reshape(64, 64)[:, ::-1]), np.abs(wide[::-1][None]),
                                 np.abs(wide[::-1] * 1.0), np.abs(wide), np.abs(wide[::2])])


main()
