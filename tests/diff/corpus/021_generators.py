# Generators: send, yield from, close, throw, generator expressions.
def averager():
    total = 0.0
    count = 0
    avg = None
    while True:
        value = yield avg
        if value is None:
            break
        total += value
        count += 1
        avg = total / count
    return (count, avg)


def delegator(results):
    while True:
        result = yield from averager()
        results.append(result)


def countdown(n):
    try:
        while n > 0:
            yield n
            n -= 1
    finally:
        print("countdown cleanup at", n)


def chain(*iterables):
    for it in iterables:
        yield from it


def fib_gen():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


results = []
d = delegator(results)
next(d)
for v in (10, 20, 30):
    print("running avg", d.send(v))
d.send(None)
for v in (1, 2):
    d.send(v)
d.send(None)
print("results", results)

g = countdown(5)
print(next(g), next(g))
g.close()
print("list countdown", list(countdown(3)))
print("chain", list(chain("ab", [1, 2], range(3))))

squares = (x * x for x in range(10) if x % 3)
print("genexp", sum(squares), list(squares))
import itertools
print("fib", list(itertools.islice(fib_gen(), 15)))


def catcher():
    while True:
        try:
            yield "ok"
        except ValueError as e:
            yield f"caught {e}"


c = catcher()
print(next(c), c.throw(ValueError("boom")), next(c))
gen = (i for i in range(3))
print(next(gen), list(gen), list(gen))
