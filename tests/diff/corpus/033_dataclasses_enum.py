# dataclasses and enum.
from dataclasses import asdict, astuple, dataclass, field, replace
from enum import Enum, Flag, IntEnum, auto


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


class Priority(IntEnum):
    LOW = auto()
    HIGH = auto()


class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()


@dataclass(order=True)
class Item:
    price: float
    name: str = field(compare=False)
    tags: list = field(default_factory=list, compare=False, repr=False)
    qty: int = 1

    def total(self):
        return self.price * self.qty


@dataclass(frozen=True)
class Coord:
    lat: float
    lon: float


items = [Item(3.5, "tea", ["hot"]), Item(1.25, "bun", qty=4), Item(3.5, "jam", qty=0)]
print(items[0], items[1])
print(sorted(items), [i.total() for i in items])
print(asdict(items[0]), astuple(items[1]))
print(replace(items[0], qty=9), items[0] == Item(3.5, "other"))
c = Coord(1.5, -2.0)
try:
    c.lat = 0
except Exception as e:
    print(type(e).__name__, e)
print(c, hash(c) == hash(Coord(1.5, -2.0)))

print(Color.RED, repr(Color.GREEN), Color(3), Color["BLUE"], Color.RED.name, Color.RED.value)
print([c.name for c in Color], Color.RED is Color(1), len(Color))
print(Priority.HIGH > Priority.LOW, Priority.HIGH + 1, int(Priority.LOW), repr(Priority.HIGH))
rw = Perm.R | Perm.W
print(rw, repr(rw), Perm.W in rw, Perm.X in rw, rw & Perm.W, list(rw))
try:
    Color(7)
except ValueError as e:
    print("ValueError:", e)
print({Color.RED: "stop", Color.GREEN: "go"}[Color.GREEN])
