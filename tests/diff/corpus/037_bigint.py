# Big integer arithmetic.
import math

f100 = math.factorial(100)
print("100!", f100)
print("digits", len(str(f100)), "digit sum", sum(int(d) for d in str(f100)))
print("trailing zeros", len(str(f100)) - len(str(f100).rstrip("0")))
p = 2**521 - 1
print("mersenne bits", p.bit_length(), "mod 10**10", p % 10**10)
print("pow mod", pow(3, 10**18, 10**9 + 7), pow(2, -1, 97), pow(7, 123456789, p) % 1000)
a = 3**200
b = 7**100
print("mul", a * b % (10**20), "floordiv", a // b, "mod", a % b % 1000)
print("divmod", divmod(-(10**30) - 7, 10**15))
print("neg floor", -(10**40) // 3, -(10**40) % 3, (-(10**40)) >> 100)
print("shift", 1 << 200, (1 << 200) >> 190, (-1) << 70)
print("bitwise", (2**100 - 1) & (2**64 + 12345), (2**70) | 5, (2**70) ^ (2**70 + 9), ~(2**65))
print("gcd/lcm", math.gcd(2**100 * 3**50, 6**60), math.lcm(2**40, 10**12, 3**20))
print("isqrt", math.isqrt(10**100), math.isqrt(2 * 10**60))
print("comb/perm", math.comb(200, 100), math.perm(30, 10))
print("int from str", int("1" * 60), int("-ffffffffffffffffffff", 16), int("0b" + "1" * 80, 0))
print("to bytes", (2**64 + 1).to_bytes(9, "big").hex(), int.from_bytes(b"\x01" * 10, "little"))
print("bin/hex/oct", bin(2**70 + 3)[-10:], hex(10**30), oct(8**20))
print("float conv", float(2**100), int(1e22), 2**1000 > 1e300, int(float(2**60 + 1)) - 2**60)
try:
    float(2**2000)
except OverflowError as e:
    print("OverflowError:", e)
print("true division", 10**50 / 10**48, (10**50 + 1) / 3 > 3.333e49)
fibs = [0, 1]
while len(fibs) < 300:
    fibs.append(fibs[-1] + fibs[-2])
print("fib(299)", fibs[-1], fibs[-1].bit_count())
print("hash of big int is deterministic", hash(2**100) == hash(2**100 % (2**61 - 1)))
print("abs/neg/round", abs(-(10**25)), round(123456789123456789, -5), round(-(10**20) + 5, -1))
