# Imports: stdlib modules, aliases, from-imports, importlib, sys.modules.
import collections
import importlib
import json as j
import math
import sys
from collections import OrderedDict as OD, namedtuple
from functools import reduce
from operator import mul as multiply
from os import path as osp
from string import ascii_lowercase, digits as DIGITS

print("math", math.factorial(10), math.gcd(84, 36), math.isqrt(10**10 + 5))
print("json", j.dumps({"b": [1, 2], "a": None}, sort_keys=True), j.loads("[1, 2.5, \"x\"]"))
od = OD([("z", 1), ("a", 2)])
od.move_to_end("z")
print("OrderedDict", list(od.items()))
Point = namedtuple("Point", "x y")
print("namedtuple", Point(1, 2), Point._fields)
print("reduce", reduce(multiply, range(1, 8)))
print("osp", osp.join("a", "b", "c.txt"), osp.splitext("x.tar.gz"), osp.basename("/q/r.py"))
print("string", ascii_lowercase[:5], DIGITS)
tw = importlib.import_module("textwrap")
print("importlib", tw.wrap("the quick brown fox jumps over the lazy dog", 15))
print("in sys.modules", "textwrap" in sys.modules, "json" in sys.modules)
print("alias is same", j is sys.modules["json"], collections.OrderedDict is OD)
print("version tuple", sys.version_info[:2] >= (3, 11))
import statistics as st
print("statistics", st.mean([1, 2, 3, 4]), st.median([5, 1, 3]), st.mode("aabbbc"))
from itertools import (
    accumulate,
    count as counter,
)
print("multi-line from", list(accumulate([1, 2, 3])), next(counter(5)))


def lazy():
    from heapq import nsmallest
    return nsmallest(3, [5, 1, 4, 2, 8])


print("function-level import", lazy())
try:
    import no_such_module_xyz  # noqa
except ModuleNotFoundError as e:
    print("ModuleNotFoundError:", e, e.name)
try:
    from math import no_such_name  # noqa
except ImportError as e:
    print("ImportError:", str(e).split(" (")[0], "| name:", e.name)
