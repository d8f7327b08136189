"""Runs 10^6 iterations of calls, raised and caught exceptions and
comprehensions, and prints how much the resident memory grew after a
warm-up (kB)."""
import numpy as np  # so that npython's default policy evaluates this file


def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


class Boom(Exception):
    pass


def raises(i):
    raise Boom(i)


def step(i):
    squares = [k * k for k in range(8)]
    table = {k: str(k) for k in squares}
    try:
        raises(i)
    except Boom as e:
        caught = e.args[0]
    return caught + len(table)


def run(n):
    total = 0
    for i in range(n):
        total += step(i)
    return total


run(100_000)
before = rss_kb()
run(1_000_000)
after = rss_kb()
print(after - before)
