# Classes: inheritance, super, properties, __repr__, dunder operators, class/static methods.
class Shape:
    count = 0

    def __init__(self, name):
        self.name = name
        Shape.count += 1

    def area(self):
        raise NotImplementedError

    def describe(self):
        return f"{self.name} with area {self.area():.2f}"

    @classmethod
    def created(cls):
        return f"{cls.__name__}: {Shape.count} shapes created"

    @staticmethod
    def unit():
        return "m^2"


class Rect(Shape):
    def __init__(self, w, h):
        super().__init__("rect")
        self._w, self._h = w, h

    @property
    def w(self):
        return self._w

    @w.setter
    def w(self, value):
        if value <= 0:
            raise ValueError("width must be positive")
        self._w = value

    def area(self):
        return self._w * self._h

    def __repr__(self):
        return f"Rect({self._w!r}, {self._h!r})"

    def __eq__(self, other):
        return isinstance(other, Rect) and (self._w, self._h) == (other._w, other._h)

    def __lt__(self, other):
        return self.area() < other.area()

    def __add__(self, other):
        return Rect(self._w + other._w, max(self._h, other._h))

    __hash__ = lambda self: hash((self._w, self._h))  # noqa: E731


class Square(Rect):
    def __init__(self, s):
        super().__init__(s, s)
        self.name = "square"

    def __repr__(self):
        return f"Square({self._w})"


shapes = [Rect(3, 4), Square(2), Rect(1, 10), Square(3)]
for s in shapes:
    print(repr(s), s.describe(), Shape.unit())
print(sorted(shapes), max(shapes))
print(Rect(3, 4) == Rect(3, 4), Rect(3, 4) == Square(3), Rect(1, 2) + Square(5))
r = shapes[0]
r.w = 7
print(r, r.w, r.area())
try:
    r.w = -1
except ValueError as e:
    print("ValueError:", e)
print(Square.created(), isinstance(shapes[1], Rect), issubclass(Square, Shape))
print([c.__name__ for c in Square.__mro__])
print(len({Rect(1, 1), Rect(1, 1), Square(1)}))
