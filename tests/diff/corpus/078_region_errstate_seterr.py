"""Floating-point error handling around recorded operations: np.errstate
(ignore / warn / raise / call, as a context manager and as a decorator),
np.seterr changes and restores, a value computed under one state and used
under another, FloatingPointError raised at the operation's line and
caught, warnings.catch_warnings(record=True) with the filename, lineno,
category and message of each warning, simplefilter('error') turning the
warnings into exceptions, and filterwarnings by message."""
import os
import warnings

import numpy as np

N = 50_000
x = np.linspace(-1, 1, N)
x[N // 2] = 0.0


def tb_line(e):
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_lineno


def describe(ws):
    for w in ws:
        print("  recorded", w.category.__name__, os.path.basename(w.filename), w.lineno, str(w.message))


def ignored():
    with np.errstate(divide="ignore"):
        r = 1.0 / x
    print("ignored divide", repr(np.isinf(r).sum()))
    with np.errstate(all="ignore"):
        s = np.sqrt(x) / x
        t = np.exp(x * 1e5)
    print("ignored all", repr(np.isnan(s).sum()), repr(np.isinf(t).sum()))
    with np.errstate(invalid="ignore"):
        u = np.log(x)  # divide still warns
    print("partial ignore", repr(np.isinf(u).sum()))


def computed_then_state_changes():
    r = 1.0 / x  # warns here, under the default state
    with np.errstate(divide="ignore"):
        print("used under ignore", repr(np.isinf(r).sum()))
    with np.errstate(divide="ignore"):
        q = 2.0 / x  # no warning
    print("used after ignore", repr(np.isinf(q).sum()))
    with np.errstate(divide="raise"):
        p = 3.0 / (x + 5)
    with np.errstate(divide="raise"):
        print("safe under raise", repr(p.max()))


def raising():
    with np.errstate(all="raise"):
        try:
            a = x * 2
            b = a / x
            print("not reached", b.sum())
        except FloatingPointError as e:
            print("FloatingPointError", e, "line", tb_line(e))
        try:
            c = np.sqrt(x - 2)
            d = c + 1
            print("not reached", d)
        except FloatingPointError as e:
            print("FloatingPointError", e, "line", tb_line(e))
        try:
            big = x.astype(np.float32) * np.float32(1e38) * np.float32(1e10)
            print("not reached", big)
        except FloatingPointError as e:
            print("FloatingPointError", e, "line", tb_line(e))
        ok = np.abs(x) + 1
        print("fine under raise", repr(ok.sum()))


@np.errstate(invalid="raise")
def decorated():
    y = x - 3
    return np.log(y)


def use_decorated():
    try:
        decorated()
    except FloatingPointError as e:
        print("decorated FloatingPointError", e, "line", tb_line(e))


def seterr_changes():
    old = np.seterr(divide="ignore", invalid="raise")
    print("old", sorted(old.items()))
    r = 1.0 / x
    print("after seterr", repr(np.isinf(r).sum()))
    try:
        s = np.sqrt(x)
        print("not reached", s)
    except FloatingPointError as e:
        print("seterr FloatingPointError", e, "line", tb_line(e))
    np.seterr(**old)
    print("restored", sorted(np.geterr().items()))
    t = 1.0 / x
    print("after restore", repr(np.isinf(t).sum()))


def call_mode():
    seen = []

    def handler(kind, flag):
        seen.append((kind, flag))

    old_call = np.seterrcall(handler)
    with np.errstate(all="call"):
        r = 1.0 / x
        s = np.sqrt(x)
        print("call mode", repr(np.isinf(r).sum()), repr(np.isnan(s).sum()))
    np.seterrcall(old_call)
    print("handler saw", seen)


def recorded():
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        a = 1.0 / x
        b = np.log(x)
        c = a + b
        print("record sum", repr(np.isnan(c).sum()))
        for _ in range(3):
            d = np.sqrt(x)
        print("record d", repr(np.isnan(d).sum()))
    print("recorded", len(ws))
    describe(ws)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("default")
        for _ in range(3):
            e = np.arcsin(x * 2)
        print("record e", repr(np.isnan(e).sum()))
    print("recorded default", len(ws))
    describe(ws)


def as_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            r = 1.0 / x
            print("not reached", r)
        except RuntimeWarning as e:
            print("RuntimeWarning raised", e, "line", tb_line(e))
        try:
            s = x * 2
            t = np.sqrt(s)
            u = t + 1
            print("not reached", u)
        except RuntimeWarning as e:
            print("RuntimeWarning raised", e, "line", tb_line(e))
        ok = x * 3
        print("fine", repr(ok.sum()))
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="invalid value")
        warnings.filterwarnings("ignore", message="divide by zero")
        v = 5.0 / x
        print("divide ignored by filter", repr(np.isinf(v).sum()))
        try:
            w = np.log(x - 2)
            print("not reached", w)
        except RuntimeWarning as e:
            print("invalid raised by filter", e, "line", tb_line(e))


def nested_states():
    with np.errstate(divide="raise"):
        with np.errstate(divide="ignore"):
            a = 1.0 / x
        try:
            b = 1.0 / x
            print("not reached", b)
        except FloatingPointError as e:
            print("outer raise", e, "line", tb_line(e))
    print("inner ignore", repr(np.isinf(a).sum()))


def small_and_scalar():
    with np.errstate(all="raise"):
        try:
            np.array([1.0, 0.0]) / 0
        except FloatingPointError as e:
            print("small FloatingPointError", e)
        try:
            np.float64(1.0) / np.float64(0)
        except FloatingPointError as e:
            print("scalar FloatingPointError", e)
        try:
            np.array(0.0) * 1 / 0
        except FloatingPointError as e:
            print("0-d FloatingPointError", e)


ignored()
computed_then_state_changes()
raising()
use_decorated()
seterr_changes()
call_mode()
recorded()
as_errors()
nested_states()
small_and_scalar()
print("final state", sorted(np.geterr().items()))
