"""Helper module imported by corpus programs (not a test program itself)."""

GREETING = "hello from corpus_helper_mod"
_counter = 0


def bump(n=1):
    global _counter
    _counter += n
    return _counter


def triangle(n):
    return n * (n + 1) // 2


class Vec2:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec2(self.x + other.x, self.y + other.y)

    def __repr__(self):
        return f"Vec2({self.x}, {self.y})"


__all__ = ["GREETING", "bump", "triangle", "Vec2"]
