# with-statements: custom context managers, contextlib.contextmanager, suppress, ExitStack.
import contextlib


class Tracker:
    def __init__(self, name, swallow=False):
        self.name = name
        self.swallow = swallow

    def __enter__(self):
        print(f"enter {self.name}")
        return self

    def __exit__(self, exc_type, exc, tb):
        print(f"exit {self.name}: {exc_type.__name__ if exc_type else None} {exc if exc else ''}")
        return self.swallow


@contextlib.contextmanager
def tag(name):
    print(f"<{name}>")
    try:
        yield name.upper()
    except ValueError as e:
        print(f"  tag {name} handled {e}")
    finally:
        print(f"</{name}>")


with Tracker("a") as t1, Tracker("b") as t2:
    print("body", t1.name, t2.name)

with Tracker("swallower", swallow=True):
    raise RuntimeError("hidden")
print("after swallow")

try:
    with Tracker("passthrough"):
        1 / 0
except ZeroDivisionError as e:
    print("propagated:", e)

with tag("div") as v:
    print("  value", v)
    with tag("span"):
        raise ValueError("bad span")
    print("  after span")

with contextlib.suppress(KeyError, IndexError):
    {}["missing"]
print("suppressed KeyError")

with contextlib.ExitStack() as stack:
    for n in ("x", "y", "z"):
        stack.enter_context(Tracker(n))
    stack.callback(print, "callback runs first (LIFO)")
    print("stack body")

with contextlib.nullcontext(42) as val:
    print("nullcontext", val)
