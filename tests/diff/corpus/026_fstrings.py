# f-strings: format specs, conversions, nesting, = specifier.
import math
from decimal import Decimal
from fractions import Fraction

name = "World"
value = 1234.56789
n = 42
print(f"Hello, {name}!")
tab = "tab\there"
print(f"{name!r} {name!s} {'café'!a} {tab!r} {tab}")
print(f"[{value:10.2f}] [{value:<12.1f}] [{value:^12.3f}] [{value:>+12.0f}]")
print(f"{value:e} {value:.3E} {value:g} {1e-7:g} {value:,.2f} {1234567:_}")
print(f"{n:b} {n:o} {n:x} {n:X} {n:#b} {n:#o} {n:#x} {n:08b} {-n:+05d}")
print(f"{0.25:%} {0.125:.1%} {n:c}")
print(f"[{name:*^11}] [{name:->8}] [{name:.3}] [{n:=+6}]")
width, prec = 12, 3
print(f"[{math.pi:{width}.{prec}f}] [{math.e:>{width - 4}.{prec + 2}}]")
print(f"{n=} {value=:.1f} {name=!s} {n * 2 = }")
items = {"a": 1, "b": [1, 2]}
print(f"{items['a']} {items['b'][1]} {len(items)} {'yes' if n > 40 else 'no'}")
print(f"{{literal braces}} {n}{{}}")
print(f"{Decimal('1.10'):.4f} {Fraction(3, 4)} {float(Fraction(1, 3)):.5f}")
print(f"{3 + 4j} {(1.5 - 2j).real:.2f} {complex(1, -1):.3f}")
print(f"{True:d} {None!r} {[1, 'a']} {(1,)} {b'bytes'}")
print(f"{float('inf')} {float('nan')} {-0.0} {1e16} {1e-5} {0.1 + 0.2}")
print(f"{123456789:,d} {1234.5:08.2f} {-1234.5:010.2f} {12:#06x}")
rows = [("alpha", 1.5, 10), ("beta", 22.25, 200), ("gamma", 333.125, 3000)]
for label, f, i in rows:
    print(f"|{label:<8}|{f:>9.3f}|{i:>6d}|{i:<6x}|")
nested = f"{'inner ' + f'{n:03d}'}"
print(nested, format(value, ".2f"), "{:>6}".format("x"), "%5.1f|%-4d|%s" % (2.25, 7, "s"))
