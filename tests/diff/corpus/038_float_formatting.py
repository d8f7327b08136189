# Float formatting, repr, rounding and special values (pure Python floats).
import math
import struct

vals = [0.1, 0.2, 0.1 + 0.2, 1 / 3, 2 / 3, 1e-10, 1.5e300, 123456789.123456789, -0.0, 5e-324]
for v in vals:
    print(f"{v!r:>24} {v:.3e} {v:.6g} {v:12.4f}")
print("round half even", [round(x) for x in (0.5, 1.5, 2.5, -0.5, -1.5)])
print("round digits", round(2.675, 2), round(1.005, 2), round(12345.678, -2), round(0.125, 2))
print("str vs repr", str(1e16), repr(1e15), str(1e-4), str(1e-5), str(100.0), str(12345678901234567890.0))
print("special", float("inf"), -math.inf, math.nan, math.isnan(float("nan")), math.inf - math.inf)
print("nan compare", math.nan == math.nan, math.nan != math.nan, [math.nan] == [math.nan])
print("hex", (0.1).hex(), float.fromhex("0x1.8p1"), (1.0).as_integer_ratio(), (0.75).as_integer_ratio())
print("is_integer", (3.0).is_integer(), (3.5).is_integer())
print("math", math.sqrt(2), math.exp(1), math.log(10), math.sin(math.pi / 6), math.atan2(1, -1))
print("fsum vs sum", sum([0.1] * 10), math.fsum([0.1] * 10))
print("floor/ceil/trunc", math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.5), int(-2.9), -7 // 2, -7.0 // 2)
print("mod", 7.5 % 2, -7.5 % 2, math.fmod(-7.5, 2), divmod(7.25, 0.5))
print("pow", 2 ** 0.5, 10 ** -2, (-8) ** (1 / 3), pow(2.0, 10))
print("limits", struct.pack("<d", 1.0).hex(), math.ulp(1.0), math.nextafter(1.0, 2.0))
print("eps", 1.0 + 2**-52 > 1.0, 1.0 + 2**-53 == 1.0)
print("float from str", float("  3.25  "), float("1_000.5"), float("-INF"), float("1e-400"))
print("isclose", math.isclose(0.1 + 0.2, 0.3), math.isclose(1e-12, 0, abs_tol=1e-9))
print("hypot/dist", math.hypot(3, 4), math.dist((0, 0), (1, 1)), math.prod([1.5, 2, 4]))
try:
    1.0 / 0
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    math.sqrt(-1)
except ValueError as e:
    print("ValueError:", e)
try:
    math.exp(1000)
except OverflowError as e:
    print("OverflowError:", e)
print("format", format(1234.5678, ",.2f"), format(0.000123, ".2e"), format(1e100, ".0e"), "%.3f|%g|%e" % (math.pi, 1e20, 1 / 7))
