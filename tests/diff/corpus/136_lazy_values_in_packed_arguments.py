# Values computed from arrays and passed on before anything needs them:
# into a function's *args or **kwargs (the tuple and dict reach NumPy,
# str(), format and list methods as they are), and as a parameter that a
# generator expression, a lambda or a coroutine of the function reads (its
# cell). Arrays of 4,096 elements: npython records work on them.
import asyncio

import numpy as np


def stacked(*arrays):
    return np.array(arrays).shape, np.concatenate(arrays).sum(), np.column_stack(arrays).shape


def summed(a, **options):
    return np.sum(a, **options), sorted(options), "{where[4001]}".format(**options)


def described(*args, **kwargs):
    found = []
    found.extend(args)
    return len(str(args)) > 0, [type(f).__name__ for f in found], sum(v.sum() for v in kwargs.values())


def first_three(a):
    return sum(a[i] for i in range(3)), any(a[i] > 8000 for i in range(4096)), (lambda: a.max())()


def coroutine_mean(a):
    async def inner():
        return a.mean()

    return asyncio.run(inner())


def wrapped(function):
    def call(*args, **kwargs):
        return function(*args, **kwargs)

    return call


@wrapped
def scaled(a, factor):
    return (a * factor).sum()


def main():
    x = np.arange(4096.0)
    print(stacked(x * 2, x * 3))
    print(summed(x, where=x > 4000))
    print(described(x + 1, np.sqrt(x), y=x * 2))
    print(first_three(x * 2))
    print(coroutine_mean(x - 1))
    print(scaled(x * 2, 3))


main()
