# Structural pattern matching: literals, sequences, mappings, class patterns, guards.
from dataclasses import dataclass


@dataclass
class Point:
    x: int
    y: int


@dataclass
class Circle:
    center: Point
    r: float


class Token:
    __match_args__ = ("kind", "text")

    def __init__(self, kind, text):
        self.kind, self.text = kind, text


def describe(obj):
    match obj:
        case None:
            return "none"
        case True | False as b:
            return f"bool {b}"
        case 0:
            return "zero"
        case int(n) if n < 0:
            return f"negative int {n}"
        case int() | float() as num:
            return f"number {num}"
        case "quit" | "exit":
            return "command stop"
        case str(s) if s.startswith("#"):
            return f"comment {s[1:]!r}"
        case []:
            return "empty list"
        case [x]:
            return f"singleton {x!r}"
        case [first, *_, last] if first == last:
            return f"bookended by {first!r}"
        case (a, b, *rest):
            return f"seq a={a} b={b} rest={rest}"
        case {"type": "user", "name": str(name), **extra}:
            return f"user {name} extra={sorted(extra)}"
        case {"type": t}:
            return f"typed mapping {t}"
        case Point(x=0, y=0):
            return "origin"
        case Point(x=0, y=y) | Point(x=y, y=0):
            return f"on an axis at {y}"
        case Circle(Point(x, y), r) if r > 10:
            return f"big circle at ({x},{y})"
        case Circle(center=c, r=r):
            return f"circle r={r} at {c}"
        case Token("num", text):
            return f"token number {int(text)}"
        case Token(kind, _):
            return f"token {kind}"
        case _:
            return f"other {type(obj).__name__}"


samples = [
    None, True, 0, -5, 7, 2.5, "quit", "#note", "hello", [], [42], [1, 2, 1],
    (1, 2, 3, 4), [1, 2], {"type": "user", "name": "ann", "z": 1, "a": 2},
    {"type": "admin"}, {"name": "x"}, Point(0, 0), Point(0, 5), Point(3, 0),
    Point(1, 1), Circle(Point(1, 2), 11), Circle(Point(0, 0), 1.5),
    Token("num", "17"), Token("op", "+"), b"raw",
]
for s in samples:
    print(describe(s))
