# Float arithmetic (+ - * / and the signs) on a reduction's pending result
# stays in the region, with NumPy's scalar types, bits and warnings: a flag
# raised there sends the region through NumPy, whose scalar math then says
# "scalar multiply" as under python3. Integer scalar math (which warns on
# overflow) and ops with algorithms of NumPy's own (**, //, %) stay eager.
import warnings

import numpy as np

from corpus_digest import show as show_array

rng = np.random.default_rng(7)
x = rng.standard_normal(50_000)
x32 = x.astype(np.float32)
ints = rng.integers(-1000, 1000, 50_000)


def show(label, value):
    print(label, type(value).__name__, repr(value))


def warned(label, compute):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = compute()
    show(label, value)
    for w in caught:
        print("  warning:", w.category.__name__, str(w.message))


for _ in range(3):  # a loop, as programs run it: the same regions again
    z = (x - x.mean() * 2) / (x.std() + 1e-9)
    show_array("z", z)
    show("scaled", x.mean() * 2)
    show("negated", -x.mean())
    show("abs", abs(x.min()))
    show("positive", +x.max())
    show("float32", x32.sum() * 3 - x32.mean() / 7)
    show("float32 with float64", x32.sum() * np.float64(0.1))
    show("index plus", x.argmin() + 0.5)
    show("int sum times", ints.sum() * 2)
    show("power", x.std() ** 3)
    show("floor division", x.sum() // 3.0)
    show("remainder", x.sum() % 3.0)
    show("chain", ((x.max() - x.min()) * 0.5 + x.mean()) / x.size)
    show_array("spread", x / (x.max() - x.min()))

warned("overflow", lambda: (x * 1e300).max() * 1e300)
warned("divide by zero", lambda: x.max() / 0.0)
warned("invalid", lambda: (x.max() * 0.0) / 0.0)
warned("overflow then used", lambda: float((x / ((x * 1e300).max() * 1e300)).sum()))
with np.errstate(over="raise"):
    try:
        print((x * 1e300).max() * 1e300)
    except FloatingPointError as error:
        print("FloatingPointError:", error)
with np.errstate(divide="ignore", invalid="ignore"):
    warned("ignored", lambda: x.max() / 0.0 - x.max() / 0.0)
