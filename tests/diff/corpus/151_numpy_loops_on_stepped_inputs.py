# Operations npython computes with NumPy's own loops (power, arcsin, exp,
# log10, tanh...) on reversed and stepped views: NumPy hands its loops such
# operands as they lie, and with AVX-512 its loops compute them with other
# code than contiguous ones (SVML's vector code for contiguous operands), so
# the bits differ from a contiguous copy's. Results must be NumPy's bits for
# the view itself, in float32 and float64, 1-D and 2-D.
import warnings

import numpy as np

from corpus_digest import show

warnings.simplefilter("ignore")


def work(x, label):
    show(label + " power", x ** x)
    show(label + " power scalar", x ** 1.7)
    show(label + " arcsin", np.arcsin(x * 0.5))
    show(label + " exp", np.exp(x) + 1.0)
    show(label + " log10", np.log10(np.abs(x) + 0.5))
    show(label + " tanh", np.tanh(x) * 2.0)
    show(label + " arctan2", np.arctan2(x, x + 1.0))


rng = np.random.default_rng(151)
for dtype in (np.float32, np.float64):
    base = rng.normal(size=40_000).astype(dtype) - dtype(0.25)
    work(base, f"{base.dtype} contiguous")
    work(base[::-1], f"{base.dtype} reversed")
    work(base[::2], f"{base.dtype} stepped")
    grid = base.reshape(200, 200)
    work(grid[:, ::-1], f"{base.dtype} 2-D reversed rows")
    work(grid[::-1, :], f"{base.dtype} 2-D reversed columns")
    work(grid[:, 1::3], f"{base.dtype} 2-D stepped")
