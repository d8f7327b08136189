# Recursion: fibonacci, ackermann (small), hanoi, permutations, flatten.
import sys


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


def hanoi(n, src, dst, via, moves):
    if n == 0:
        return moves
    hanoi(n - 1, src, via, dst, moves)
    moves.append((n, src, dst))
    hanoi(n - 1, via, dst, src, moves)
    return moves


def permutations(items):
    if len(items) <= 1:
        return [items]
    out = []
    for i, x in enumerate(items):
        for p in permutations(items[:i] + items[i + 1:]):
            out.append([x] + p)
    return out


def flatten(x):
    if isinstance(x, list):
        return [z for y in x for z in flatten(y)]
    return [x]


def depth(x):
    return 1 + max((depth(y) for y in x), default=0) if isinstance(x, list) else 0


print("fib", [fib(i) for i in range(20)])
print("ackermann", [[ackermann(m, n) for n in range(4)] for m in range(3)], ackermann(2, 3))
moves = hanoi(4, "A", "C", "B", [])
print("hanoi moves", len(moves), moves[:5], moves[-1])
print("hanoi 10 moves", len(hanoi(10, "L", "R", "M", [])))
print("perms", ["".join(p) for p in permutations(list("abc"))], len(permutations(list(range(5)))))
nested = [1, [2, [3, [4, [5]]]], [[6], 7]]
print("flatten", flatten(nested), "depth", depth(nested))
print("gcd", (lambda f: f(f, 1071, 462))(lambda s, a, b: a if b == 0 else s(s, b, a % b)))
sys.setrecursionlimit(3000)
print("deep sum", (lambda f: f(f, 2000))(lambda s, n: 0 if n == 0 else n + s(s, n - 1)))
