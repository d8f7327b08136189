"""Float-heavy object code and numerical integration.

Part 1 builds POINTS Point objects whose coordinates come from math.sin and
math.cos, normalizes each one to unit length, sums the normalized coordinates
and folds the points together with a component-wise maximum (Point.maximize);
this is repeated ROUNDS times.  Part 2 integrates
f(x) = exp(-x^2/2) * cos(3x) + 1/(1+x^2) over [0, 4] with composite
Simpson's rule on STEPS intervals, and also integrates the damped oscillator
x'' = -x - 0.02 x' with a fourth-order Runge-Kutta loop.  Prints the rounded
results.
"""

import math

POINTS = 100_000
ROUNDS = 20
STEPS = 5_000_000
RK_STEPS = 2_000_000


class Point(object):
    __slots__ = ("x", "y", "z")

    def __init__(self, i):
        x = math.sin(i)
        self.x = x
        self.y = math.cos(i) * 3.0
        self.z = (x * x) / 2.0

    def __repr__(self):
        return "<Point: x=%.6f, y=%.6f, z=%.6f>" % (self.x, self.y, self.z)

    def normalize(self):
        x = self.x
        y = self.y
        z = self.z
        norm = math.sqrt(x * x + y * y + z * z)
        self.x = x / norm
        self.y = y / norm
        self.z = z / norm

    def maximize(self, other):
        if other.x > self.x:
            self.x = other.x
        if other.y > self.y:
            self.y = other.y
        if other.z > self.z:
            self.z = other.z
        return self


def fold_points(n, offset):
    points = [Point(i * 0.001 + offset) for i in range(n)]
    total = 0.0
    for p in points:
        p.normalize()
        total += p.x + p.y + p.z
    best = points[0]
    for p in points[1:]:
        best = best.maximize(p)
    return best, total


def f(x):
    return math.exp(-0.5 * x * x) * math.cos(3.0 * x) + 1.0 / (1.0 + x * x)


def simpson(func, a, b, n):
    h = (b - a) / n
    total = func(a) + func(b)
    odd = 0.0
    even = 0.0
    for k in range(1, n):
        x = a + k * h
        if k & 1:
            odd += func(x)
        else:
            even += func(x)
    return (total + 4.0 * odd + 2.0 * even) * h / 3.0


def oscillator(x, v, dt, steps):
    def accel(px, pv):
        return -px - 0.02 * pv

    for _ in range(steps):
        k1x = v
        k1v = accel(x, v)
        k2x = v + 0.5 * dt * k1v
        k2v = accel(x + 0.5 * dt * k1x, k2x)
        k3x = v + 0.5 * dt * k2v
        k3v = accel(x + 0.5 * dt * k2x, k3x)
        k4x = v + dt * k3v
        k4v = accel(x + dt * k3x, k4x)
        x += dt / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x)
        v += dt / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v)
    return x, v


def main():
    sx = sy = sz = st = 0.0
    for r in range(ROUNDS):
        best, total = fold_points(POINTS, r * 0.5)
        sx += best.x
        sy += best.y
        sz += best.z
        st += total
    print("points: max %.6f %.6f %.6f  sum %.6f" % (sx, sy, sz, st))

    integral = simpson(f, 0.0, 4.0, STEPS)
    print("simpson: %.9f" % integral)

    x, v = oscillator(1.0, 0.0, 0.0002, RK_STEPS)
    print("oscillator: %.9e %.9e" % (x, v))


if __name__ == "__main__":
    main()
