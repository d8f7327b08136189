# Reductions over other axes than the last, of computed values and of arrays
# as they are: column sums, means, products, min and max, any and all, the
# middle axis and two axes of 3-d values, column softmax and standardising,
# float64, float32 and integers, with NaNs of both signs, zeros of both
# signs and infinities in the columns (NumPy keeps the first NaN and, of
# equal values, the last), tables wide and narrow, tall and short (folded
# in order, in pieces of rows, or left to NumPy), and with keepdims.
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(146)
for dtype in (np.float64, np.float32):
    for rows, columns in ((3000, 40), (700, 1200), (64, 300), (5000, 16), (9, 5000)):
        a = (4 * rng.standard_normal((rows, columns))).astype(dtype)
        b = (4 * rng.standard_normal((rows, columns))).astype(dtype)
        a[rows // 2, 0] = -np.nan
        a[rows - 1, 0] = np.nan
        a[::3, 1] = np.inf
        a[:, 2] = np.where(np.arange(rows) % 2 == 0, 0.0, -0.0)
        a[1::4, 3] = -np.inf
        tag = f"{dtype.__name__} {rows}x{columns}"
        show(f"{tag} (a*b).sum(0)", (a * b).sum(0))
        show(f"{tag} (a-b).mean(axis=0, keepdims)", (a - b).mean(axis=0, keepdims=True))
        show(f"{tag} np.max(a+b, 0)", np.max(a + b, 0))
        show(f"{tag} a.min(0)", a.min(0))
        show(f"{tag} a.max(axis=0)", a.max(axis=0))
        show(f"{tag} (b*0.01+1).prod(0)", (b * 0.01 + 1).prod(0))
        show(f"{tag} (a>1).any(0) (b<5).all(0)", np.concatenate([(a > 1).any(0), (b < 5).all(0)]))
        e = np.exp(b - b.max(axis=0))
        show(f"{tag} column softmax", e / e.sum(axis=0))
        show(f"{tag} standardised", (b - b.mean(0)) / (np.abs(b - b.mean(0)).max(0) + 1))
    c = (2 * rng.standard_normal((6, 70, 50))).astype(dtype)
    c[2, :, 7] = np.nan
    show(f"{dtype.__name__} 3-d sum axis 1", (c * 2).sum(1))
    show(f"{dtype.__name__} 3-d max axes 0 1", (c - 1).max(axis=(0, 1), keepdims=True))
    show(f"{dtype.__name__} 3-d mean axes 0", (c * c).mean(0))
    show(f"{dtype.__name__} reversed and transposed", np.concatenate([a[::-1].max(0), a.T.sum(1), (a[::-1] * b).sum(0)]))

for dtype in (np.int64, np.int32, np.uint8):
    x = rng.integers(-1000, 1000, size=(2500, 70)).astype(dtype)
    y = rng.integers(-1000, 1000, size=(2500, 70)).astype(dtype)
    show(f"{dtype.__name__} (x*y).sum(0)", (x * y).sum(0))
    show(f"{dtype.__name__} (x+y).max(0)", (x + y).max(0))
    show(f"{dtype.__name__} x.min(0)", x.min(0))
    show(f"{dtype.__name__} (x*3).prod(0)", (x * 3).prod(0))
