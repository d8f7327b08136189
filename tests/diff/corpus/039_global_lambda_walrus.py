# global, lambda, walrus operator, conditional expressions.
import re

COUNTER = 0
LOG = []


def tick(label):
    global COUNTER
    COUNTER += 1
    LOG.append(f"{COUNTER}:{label}")
    return COUNTER


def reset():
    global COUNTER, LOG
    COUNTER, LOG = 0, []


tick("a"); tick("b")
print("counter", COUNTER, LOG)
reset()
print("after reset", COUNTER, LOG, tick("c"), LOG)

square = lambda x: x * x  # noqa: E731
compose = lambda f, g: lambda x: f(g(x))  # noqa: E731
inc = lambda x, step=1: x + step  # noqa: E731
print("lambda", square(7), compose(square, inc)(3), compose(inc, square)(3), inc(1, step=10))
print("immediately invoked", (lambda *a, **k: (a, sorted(k.items())))(1, 2, z=3, y=4))
ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
print("dispatch", [ops[o](6, 3) for o in "+-*"])
print("sorted by lambda", sorted(range(-4, 5), key=lambda v: (v * v, -v)))

data = [3, 8, 1, 9, 4, 7]
if (n := len(data)) > 5:
    print(f"walrus: list has {n} elements")
print("walrus filter", [y for x in data if (y := x * 3) % 2 == 0], "last y", y)
chunks = iter(["ab", "cd", "", "ef"])
out = []
while (chunk := next(chunks)) != "":
    out.append(chunk.upper())
print("walrus while", out)
text = "order 66 shipped on day 12 at gate 7"
if m := re.search(r"day (\d+)", text):
    print("walrus regex", m.group(1), int(m.group(1)) * 2)
print("all numbers", [int(t) for t in re.findall(r"\d+", text)])
total = 0
print("walrus running", [total := total + v for v in data], total)
grade = lambda s: "A" if s >= 90 else "B" if s >= 80 else "C" if s >= 70 else "F"  # noqa: E731
print("grades", [grade(s) for s in (95, 85, 72, 10, 80)])
print("and/or values", 0 or "default", "" and "x", [] or [0], None or 0 or "last")
print("map/filter", list(map(lambda s: s[::-1], ["abc", "xy"])), list(filter(lambda v: v % 3 == 0, range(12))))
print("globals has COUNTER", "COUNTER" in globals(), "tick" in globals())
