# Decorators: plain, with arguments, stacked, class decorators, functools.wraps.
import functools

calls = []


def trace(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        calls.append(fn.__name__)
        result = fn(*args, **kwargs)
        print(f"  {fn.__name__}{args} -> {result!r}")
        return result
    return wrapper


def repeat(times):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args):
            return [fn(*args) for _ in range(times)]
        return wrapper
    return deco


def register(registry):
    def deco(cls):
        registry[cls.__name__] = cls
        cls.registered = True
        return cls
    return deco


REGISTRY = {}


@trace
def add(a, b):
    """Add two numbers."""
    return a + b


@repeat(3)
@trace
def greet(name):
    return f"hi {name}"


@register(REGISTRY)
class Plugin: pass  # noqa: E701


class Temperature:
    def __init__(self, c):
        self._c = c

    @functools.cached_property
    def expensive(self):
        print("  computing expensive once")
        return self._c ** 2


add(2, 3)
print("wraps", add.__name__, add.__doc__, add.__wrapped__(10, 20))
print(greet("bob"))
print("calls", calls)
print("registry", sorted(REGISTRY), Plugin.registered)
t = Temperature(100)
print("cached_property", t.expensive, t.expensive)


@functools.lru_cache(maxsize=None)
def partitions(n, k=None):
    k = n if k is None else k
    if n == 0:
        return 1
    return sum(partitions(n - i, i) for i in range(1, min(n, k) + 1))


print("partitions(60)", partitions(60), partitions.cache_info().hits > 0)
