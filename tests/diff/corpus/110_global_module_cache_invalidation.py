# Globals, builtins and module attributes loaded again and again at one
# place in the code while what they name changes underneath (rebinding,
# deletion, shadowing, other globals for the same code, odd dict keys):
# every load must see the change, as in python3.
import builtins
import sys
import types

import numpy as np  # so that npython's default policy evaluates this file

LIMIT = 3


def read_limit():
    return LIMIT


def read_len():
    return len("abc")


def read_missing():
    try:
        return missing_name  # noqa: F821
    except NameError as e:
        return f"NameError: {e}"


def loop(fn, n=3):
    return [fn() for _ in range(n)]


print(loop(read_limit))
LIMIT = 4  # STORE_NAME at module level
print(loop(read_limit))
globals()["LIMIT"] = 5
print(loop(read_limit))


def bump():
    global LIMIT
    LIMIT += 1


results = []
for _ in range(4):
    bump()
    results.append(read_limit())
print(results)

# A builtin, then a global that shadows it, then the builtin changed itself.
print(loop(read_len))
len = lambda s: f"global len of {s}"  # noqa: E731
print(loop(read_len))
del len
print(loop(read_len))
original_len = builtins.len
builtins.len = lambda s: f"builtins.len of {s}"
print(loop(read_len))
builtins.len = original_len
print(loop(read_len))

# A name that appears and disappears.
print(loop(read_missing, 2))
missing_name = "now global"
print(loop(read_missing, 2))
builtins.missing_name = "now builtin"
del missing_name
print(loop(read_missing, 2))
del builtins.missing_name
print(loop(read_missing, 2))

# The same code under other globals and builtins.
other = types.FunctionType(read_limit.__code__, {"LIMIT": "other globals", "__builtins__": builtins})
print(other(), read_limit(), other(), read_limit())
own_builtins = types.FunctionType(read_len.__code__, {"__builtins__": {"len": lambda s: "own builtins"}})
print(own_builtins(), read_len(), own_builtins(), read_len())


class Collides:
    """A key with the hash of a name: looking the name up compares them."""

    compared = 0

    def __init__(self, name):
        self.name = name

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        Collides.compared += 1
        return False


def looked_up(fn):
    """What fn() gives, and whether it looked its name up in a dict."""
    before = Collides.compared
    result = fn()
    return result, Collides.compared > before


odd_keys = {Collides("LIMIT"): 0, "LIMIT": "odd keys", "__builtins__": builtins}
odd = types.FunctionType(read_limit.__code__, odd_keys)
print([looked_up(odd) for _ in range(3)])
odd_keys["LIMIT"] = "odd keys, changed"
print([looked_up(odd) for _ in range(3)])

# Module attributes: a module made here, and NumPy itself.
mod = types.ModuleType("made_here")
mod.value = 1


def read_value(m):
    try:
        return m.value
    except AttributeError as e:
        return f"AttributeError: {e}"


print([read_value(mod) for _ in range(3)])
mod.value = 2
print([read_value(mod) for _ in range(3)])
mod.__dict__["value"] = 3
print([read_value(mod) for _ in range(3)])
del mod.value
print([read_value(mod) for _ in range(2)])
getattr_calls = iter(range(10))
mod.__getattr__ = lambda name: f"module __getattr__ call {next(getattr_calls)} for {name}"
print([read_value(mod) for _ in range(2)])
mod.value = 4
print([read_value(mod) for _ in range(2)])
odd_mod = types.ModuleType("odd")
odd_mod.__dict__[Collides("value")] = 0
odd_mod.value = "odd module"
print([looked_up(lambda: read_value(odd_mod)) for _ in range(3)])
other_mod = types.ModuleType("other")
other_mod.value = "other module"
print(read_value(mod), read_value(other_mod), read_value(mod), read_value(other_mod))


def read_class(m):
    return m.__class__.__name__


mod.__dict__["__class__"] = "shadowed in the dict"  # the type's descriptor wins
print([read_class(mod) for _ in range(2)])


class Module(types.ModuleType):
    @property
    def value(self):
        return "property of a module subclass"


sub = Module("sub")
sub.__dict__["value"] = "in the dict"
print(read_value(sub), read_value(mod), read_value(sub))
mod.__class__ = Module
print(read_value(mod), read_value(mod))
mod.__class__ = types.ModuleType
print(read_value(mod), read_value(mod))


def np_sqrt_name():
    return np.sqrt.__name__


print(loop(np_sqrt_name))
real_sqrt = np.sqrt
np.sqrt = np.cbrt
print(loop(np_sqrt_name))
np.sqrt = real_sqrt
print(loop(np_sqrt_name))
sys.modules[__name__].np = types.SimpleNamespace(sqrt=np.exp)  # rebinding the global `np`
print(loop(np_sqrt_name))
