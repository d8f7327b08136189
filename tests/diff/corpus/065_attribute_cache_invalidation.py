# Attribute loads repeated at one place in the code while what they find
# changes underneath: the results must follow every change, as in python3.
import numpy as np  # so that npython's default policy evaluates this file


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


class Other:
    def __init__(self):
        self.x = "other-x"
        self.y = "other-y"


class WithSlots:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class Fallback:
    def __getattr__(self, name):
        return f"fallback-{name}"


def read_x(obj):
    try:
        return obj.x
    except AttributeError as e:
        return f"AttributeError: {e}"


p = Point(1, 2)
print([read_x(p) for _ in range(3)])
p.x = 10
print(read_x(p))
del p.x
print(read_x(p))
p.x = 11
print(read_x(p))
p.__dict__["x"] = 12  # the instance dict is made real
print(read_x(p))
q = Point(3, 4)
print(read_x(q), read_x(Other()), read_x(WithSlots(5, 6)), read_x(Fallback()))
Point.x = property(lambda self: "property wins")  # a data descriptor on the class
print(read_x(q), read_x(Point.__new__(Point)))
del Point.x
print(read_x(q))
Point.x = "class attribute"  # a plain class attribute: the instance's own wins
print(read_x(q), read_x(Point.__new__(Point)))
del Point.x
q.__class__ = Other
print(read_x(q))
q.__class__ = Point
print(read_x(q))


class Late:
    pass


objs = [Late() for _ in range(4)]
for i, o in enumerate(objs):
    setattr(o, f"a{i}", i)
    o.x = i * 10
print([read_x(o) for o in objs])
Late.__getattribute__ = lambda self, name: f"getattribute-{name}"
print([read_x(o) for o in objs])
del Late.__getattribute__
print([read_x(o) for o in objs], np.int64(len(objs)))


class Greeter:
    def __init__(self, name):
        self.name = name

    def greet(self):
        return f"hello {self.name}"


def call_greet(obj):
    try:
        return obj.greet()
    except AttributeError as e:
        return f"AttributeError: {e}"


g = Greeter("a")
print([call_greet(g) for _ in range(3)])
g.greet = lambda: "instance attribute shadows the method"
print(call_greet(g), call_greet(Greeter("b")))
del g.greet
print(call_greet(g))
Greeter.greet = lambda self: f"replaced for {self.name}"
print(call_greet(g))
g.__dict__["unrelated"] = 1  # the instance dict is made real
print(call_greet(g))
g.__dict__["greet"] = lambda: "now in the real dict"
print(call_greet(g))
del Greeter.greet
print(call_greet(Greeter("c")))


def append_twice(seq, item):
    seq.append(item)
    seq.append(item)
    return seq


class LoudList(list):
    def append(self, item):
        super().append(f"loud {item}")


print(append_twice([], 1), append_twice(LoudList(), 2), append_twice([], 3))
