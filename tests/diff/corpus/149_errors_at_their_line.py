# Floating-point errors the program sees at once: np.errstate(...='raise'),
# warnings turned into exceptions, and warnings recorded as they come
# (catch_warnings(record=True), as pytest's capture does). Regions then end
# with the line that recorded their ops: exceptions come from that line and
# reach the `try` around it, the assignment on that line does not happen,
# and each warning is in the record before the next line reads it.
import hashlib
import sys
import traceback
import warnings

import numpy as np


def digest(r):
    r = np.asarray(r)
    return f"{r.dtype}{r.shape}:" + hashlib.sha1(np.ascontiguousarray(r).tobytes()).hexdigest()[:16]

n = 50_000
x = np.linspace(-3.0, 800.0, n)
small = np.linspace(0.5, 2.0, n)


def where_raised(e):
    frames = traceback.extract_tb(e.__traceback__)
    return [(f.name, f.lineno, f.line) for f in frames]


def helper(v):
    return np.exp(v) * 2.0


def raising():
    with np.errstate(over="raise"):
        y = np.exp(small) * 3.0 + 1.0
        print("no error", digest(y))
        y = None
        try:
            y = np.exp(x) * 3.0 + 1.0
        except FloatingPointError as e:
            print("raised", type(e).__name__, e, where_raised(e))
        print("y after", y)
        try:
            np.exp(x) + 1.0
        except FloatingPointError as e:
            print("statement", e, where_raised(e))
        try:
            z = (small * 2.0
                 + np.exp(x)
                 - 1.0)
        except FloatingPointError as e:
            print("multi-line", e, where_raised(e))
        try:
            helper(x)
        except FloatingPointError as e:
            print("in helper", e, where_raised(e))
        u = np.zeros(n)
        try:
            u[:] = np.exp(x) - 1.0
        except FloatingPointError as e:
            print("store", e, digest(u))
        try:
            total = (np.exp(x) * small).sum()
        except FloatingPointError as e:
            total = -1.0
            print("sum", e)
        print("total", total)
    # Loops until the error: the iteration it stops at.
    v = small.copy()
    steps = 0
    with np.errstate(over="raise", invalid="ignore"):
        try:
            for steps in range(100):
                v = v * v + 1.0
        except FloatingPointError as e:
            print("loop stopped", steps, e, digest(np.where(np.isfinite(v), v, 0.0)))


def mixed_categories():
    # 'warn' categories are shown before a 'raise' category raises, in
    # NumPy's order: divide, over, under, invalid.
    with np.errstate(divide="warn", over="raise", invalid="warn"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                r = np.log(x - x) + np.exp(x)
            except FloatingPointError as e:
                print("mixed", e)
            print("caught", [(w.category.__name__, str(w.message), w.lineno) for w in caught])


def warnings_as_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        good = np.sqrt(small) * 2.0 - 1.0
        print("good", digest(good))
        try:
            bad = np.sqrt(x) * 2.0
        except RuntimeWarning as e:
            print("RuntimeWarning", e, where_raised(e))
        try:
            print("never", digest(np.log(x - 1.0) + 1.0))
        except RuntimeWarning as e:
            print("RuntimeWarning", e)


def recorded():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = np.sqrt(x) + 1.0
        print("after one line", len(caught))
        b = np.log(x) * 2.0
        c = np.sqrt(x - 10.0)
        print("after three lines", len(caught))
        d = (a + b + c).sum()
        print("sum", repr(d), len(caught))
        np.exp(x) * 0.0
        print("unused value", len(caught))
        for w in caught:
            print(w.category.__name__, str(w.message), w.lineno, w.filename == __file__)
    print("after the block", digest(a), digest(np.nan_to_num(b)), digest(np.nan_to_num(c)))


raising()
mixed_categories()
warnings_as_errors()
recorded()
sys.stdout.flush()
