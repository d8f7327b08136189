# Closures, nonlocal, late binding, and global.
total = 0


def make_counter(start=0):
    count = start

    def inc(step=1):
        nonlocal count
        count += step
        return count

    def get():
        return count

    return inc, get


def make_adders():
    late = [lambda x: x + i for i in range(3)]
    early = [lambda x, i=i: x + i for i in range(3)]
    return late, early


def accumulate(values):
    global total
    for v in values:
        total += v
    return total


def outer():
    x = "outer"

    def middle():
        x = "middle"

        def inner():
            nonlocal x
            x = x + "+inner"
            return x

        return inner(), x

    return middle(), x


inc, get = make_counter(10)
inc(); inc(5)
print("counter", get(), inc(-2))
inc2, get2 = make_counter()
print("independent", get2(), get())
late, early = make_adders()
print("late", [f(10) for f in late], "early", [f(10) for f in early])
print("accumulate", accumulate([1, 2, 3]), accumulate(range(4)), total)
print("scopes", outer())
print("cell contents", [c.cell_contents for c in inc.__closure__])
print("free vars", inc.__code__.co_freevars)


def memo(fn):
    cache = {}

    def wrapper(n):
        if n not in cache:
            cache[n] = fn(n)
        return cache[n]

    wrapper.cache = cache
    return wrapper


@memo
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print("fib(80)", fib(80), "cache size", len(fib.cache))
