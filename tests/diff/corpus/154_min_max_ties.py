# Float min and max whose extreme value comes in several bit patterns: zeros
# of both signs, NaNs of either sign and other payloads. NumPy's result is
# the one its loop's order meets first or last; npython's kernels note such
# ties and leave those regions to NumPy, so every bit matches python3's:
# whole arrays and all axes, rows, columns, short rows, fused operands,
# float64 and float32, in a loop (the second call on kernels that note).
import numpy as np

from corpus_digest import show

rng = np.random.default_rng(11)
NEGATIVE_NAN = np.float64(-np.nan)
PAYLOAD_NAN = np.array([0x7FF8000000000123], dtype=np.uint64).view(np.float64)[0]


def zeros_of_both_signs(shape, dtype, below=0.3):
    signs = np.where(rng.random(shape) < 0.5, -0.0, 0.0)
    return (signs - (rng.random(shape) < below)).astype(dtype)


def with_nans(shape, dtype, nans):
    x = rng.standard_normal(shape).astype(dtype)
    flat = x.reshape(-1)
    for nan in nans:
        flat[rng.integers(0, flat.size)] = nan
    return x


def reductions(x):
    return [x.max(), x.min(), (x * 1.0).max(), np.abs(x).min(), (-x).max(),
            x.max(axis=-1), (x * 2).min(axis=-1), x.max(axis=0), np.maximum.reduce(x * 1, axis=None)]


def report(label, x):
    for k, r in enumerate(reductions(x)):
        show(f"{label} {k}", r)
        if np.ndim(r) == 0:
            print("  ", repr(r), np.signbit(r))


def main():
    cases = []
    for dtype in (np.float64, np.float32):
        for shape in [(4099,), (600, 7), (300, 40), (2, 5000), (9,), (50_000, 3)]:
            cases.append((f"zeros {dtype.__name__} {shape}", zeros_of_both_signs(shape, dtype)))
            cases.append((f"one sign {dtype.__name__} {shape}", -np.abs(zeros_of_both_signs(shape, dtype))))
            cases.append((f"nan {dtype.__name__} {shape}", with_nans(shape, dtype, [np.nan, np.nan])))
            cases.append((f"mixed nans {dtype.__name__} {shape}",
                          with_nans(shape, dtype, [np.nan, NEGATIVE_NAN, PAYLOAD_NAN])))
            cases.append((f"plain {dtype.__name__} {shape}", rng.standard_normal(shape).astype(dtype)))
    for round_ in range(2):
        for label, x in cases:
            report(f"{round_} {label}", x)


main()
