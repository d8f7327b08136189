"""Frame introspection while recorded values are pending: locals(),
sys._getframe().f_locals, vars(), a callee reading sys._getframe(1).f_locals
of its caller, an exception traceback's tb_frame.f_locals, inspect.stack(),
a generator's gi_frame.f_locals, sys.settrace-free frame walking and
pickling/copying of values found that way. Every value seen must be a real
NumPy object (ndarray, np.float64, ...), never a placeholder, and hold the
right data."""
import copy
import inspect
import pickle
import sys

import numpy as np

N = 50_000
base = np.linspace(0, 1, N)


def kinds(mapping):
    out = []
    for k in sorted(mapping):
        v = mapping[k]
        if isinstance(v, (np.ndarray, np.generic)):
            out.append(f"{k}:{type(v).__name__}:{v.dtype}:{repr(np.asarray(v).sum())}")
        elif k in ("a", "b", "c", "s", "m"):
            out.append(f"{k}:{type(v).__name__}")
    return out


def with_locals():
    a = base * 2
    b = a + 1
    s = b.sum()
    print("locals()", kinds(locals()))
    c = np.sqrt(b)
    print("f_locals", kinds(sys._getframe().f_locals))
    print("vars()", kinds(vars()))
    return c


def peek_caller():
    f = sys._getframe(1)
    print("caller", f.f_code.co_name, kinds(f.f_locals))
    up = f.f_locals["b"]
    return up * 0 + 1


def calls_peeker():
    a = base * 3
    b = a - 1
    m = b.mean()
    r = peek_caller()
    print("after peek", repr(r.sum()), repr((b + r).sum()), repr(m))


def peek_two_up():
    f = sys._getframe(2)
    print("two up", f.f_code.co_name, kinds(f.f_locals))


def middle():
    c = base + 10  # noqa: F841
    peek_two_up()


def outer():
    a = base * 5
    b = np.exp(a)
    middle()
    return b.max()


def traceback_locals():
    try:
        a = base * 4
        b = a + 2
        c = b / np.zeros(3)  # noqa: F841
    except ValueError as e:
        tb = e.__traceback__
        print("tb locals", tb.tb_frame.f_code.co_name, kinds(tb.tb_frame.f_locals))


def failing_inner():
    a = base - 0.5
    b = np.abs(a) * 2
    raise KeyError("boom")


def traceback_inner_frame():
    try:
        failing_inner()
    except KeyError as e:
        tb = e.__traceback__
        while tb.tb_next is not None:
            tb = tb.tb_next
        loc = tb.tb_frame.f_locals
        print("inner frame", tb.tb_frame.f_code.co_name, tb.tb_lineno, kinds(loc))
        print("inner b", repr(loc["b"][:3]), type(loc["b"]).__name__)


def with_inspect():
    a = base * 6
    b = a[::2] + 1
    frame = inspect.currentframe()
    print("inspect", kinds(frame.f_locals))
    info = inspect.stack()[0]
    print("stack", info.function, info.lineno)
    del frame


def gen():
    a = base * 7
    yield 1
    b = a + 1
    yield 2
    return b


def generator_frame():
    g = gen()
    next(g)
    print("gen frame 1", kinds(g.gi_frame.f_locals))
    next(g)
    print("gen frame 2", kinds(g.gi_frame.f_locals))


def copy_and_pickle():
    a = base * 8
    b = a - 4
    s = b.sum()
    loc = dict(locals())
    c2 = copy.deepcopy(loc["b"])
    p = pickle.loads(pickle.dumps(loc["a"]))
    print("copies", type(c2).__name__, repr(c2[:2]), type(p).__name__, repr(p[-2:]), repr(pickle.loads(pickle.dumps(s))))


def modify_through_locals():
    a = base * 9
    loc = locals()
    loc["a"][:3] = -1.0  # the dict holds the same array object
    print("modified", repr(a[:4]))


def small_and_0d():
    a = np.arange(4.0) * 2
    b = np.array(3.0) * 2
    c = np.float32(1.5) * 2
    print("small locals", kinds(locals()))


def walk_all():
    a = base * 11  # noqa: F841
    f = sys._getframe()
    names = []
    while f is not None:
        names.append((f.f_code.co_name, sorted(k for k, v in f.f_locals.items() if isinstance(v, np.ndarray))[:4]))
        f = f.f_back
    print("walk", names[:-1])


def walk_caller():
    b = base * 12  # noqa: F841
    walk_all()


def zero_callers_b():
    f = sys._getframe(1)
    f.f_locals["b"][:] = 0.0


def callee_mutates():
    a = base * 13
    b = a + 1
    c = b * 2  # computed before the callee writes into b
    zero_callers_b()
    d = b + 1  # computed after
    print("mutated by callee", repr(b.sum()), repr(c.sum()), repr(d.sum()), repr(a[-1]))


def traced():
    a = base * 14
    b = a + 1
    c = b.sum()
    return c


def tracer_demo():
    seen = []

    def local_trace(frame, event, arg):
        if event == "line":
            seen.append(sorted(f"{k}:{type(v).__name__}" for k, v in frame.f_locals.items()))
        return local_trace

    def global_trace(frame, event, arg):
        if frame.f_code.co_name == "traced":
            return local_trace
        return None

    sys.settrace(global_trace)
    try:
        r = traced()
    finally:
        sys.settrace(None)
    print("settrace", repr(r), seen)


print("with_locals", repr(with_locals().sum()))
callee_mutates()
tracer_demo()
calls_peeker()
print("outer", repr(outer()))
traceback_locals()
traceback_inner_frame()
with_inspect()
generator_frame()
copy_and_pickle()
modify_through_locals()
small_and_0d()
walk_caller()
