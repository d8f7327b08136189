"""An uncaught NumPy error raised by a recorded operation three calls deep,
while the callers hold pending values: the traceback on stderr (frames,
lines, the caret markers under the failing sub-expression), the exception
message and the exit status must be python3's, and output printed before
the failure must all appear."""
import numpy as np

N = 50_000


def normalise(v, w):
    centred = v - v.mean()
    scaled = centred / centred.std()
    return scaled * 2 + w[: v.size // 2]


def pipeline(v):
    a = np.sqrt(np.abs(v)) + 1
    b = a * a
    print("before failure", repr(b.sum()), b.dtype)
    return normalise(b, a)


def run():
    x = np.linspace(-3, 3, N)
    y = np.exp(-x * x)
    print("prepared", repr(y.sum()))
    z = pipeline(x + y)
    print("never printed", z)


run()
