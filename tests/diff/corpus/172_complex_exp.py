# np.exp of complex128 values runs in kernels through NumPy's own complex
# loop: arrays, pending values, views, broadcast parts and the special
# values (NaN and infinite parts, signed zeros, parts that overflow or
# underflow), each result compared bit for bit with its warnings.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(172)
n = 40_000
z = rng.standard_normal(n) * 4 + 1j * rng.standard_normal(n) * 4
specials = [0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 709.8, 710.0, -746.0, 1e300, -1e-310, np.pi]
grid = np.array([complex(a, b) for a in specials for b in specials])
t = np.linspace(0.0, 2 * np.pi, n, endpoint=False)


def contour(t, centre):
    w = np.exp(1j * t)
    s = centre + w
    return 1.0 / (s - (0.3 - 0.2j)) + s**2


show("exp of an array", np.exp(z))
show("exp of a pending value", np.exp(z * 0.5 - 1j))
show("exp times", np.exp(z) * z + 1)
show("exp of a view", np.exp(z[::3]) - 2j)
show("exp 2-d transposed", np.exp(z.reshape(200, 200).T * (1 + 0.5j)))
show("exp of imaginary", np.exp(1j * t))
show("exp of real part only", np.exp(t + 0j))
show("exp abs", np.abs(np.exp(z / 3)))
show("contour", contour(t, 0.5 + 0.25j))
show("contour sum", np.sum(contour(t, -1 + 1j) * 1j * np.exp(1j * t) * (t[1] - t[0])))
with np.errstate(all="ignore"):
    show("exp of specials quietly", np.exp(np.tile(grid, 200) * 1.0))
show("exp of specials", np.exp(np.tile(grid, 200) * 1.0))
show("exp of specials again", np.exp(np.tile(grid, 200) + 0.0) * 2)
