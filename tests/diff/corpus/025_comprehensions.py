# List/set/dict comprehensions, nested, with conditions.
words = ["apple", "banana", "cherry", "date", "elderberry", "fig", "grape"]

lengths = [len(w) for w in words]
print("lengths", lengths)
print("long upper", [w.upper() for w in words if len(w) > 5])
print("ternary", [w if len(w) < 5 else w[:3] + "." for w in words])
print("dict", {w: len(w) for w in words if "e" in w})
first_letters = {w[0] for w in words}
print("set (sorted)", sorted(first_letters))
print("int set", {x % 7 for x in range(50)})

matrix = [[r * 4 + c for c in range(4)] for r in range(3)]
print("matrix", matrix)
print("transpose", [[row[i] for row in matrix] for i in range(4)])
print("flatten", [x for row in matrix for x in row if x % 2])
print("pairs", [(a, b) for a in range(4) for b in range(a) if (a + b) % 2])
print("dict of lists", {k: [x for x in range(k)] for k in range(4)})
inv = {v: k for k, v in {"a": 1, "b": 2, "c": 1}.items()}
print("inverted", inv)
print("nested set", sorted({(i, j) for i in range(3) for j in range(3) if i <= j}))
groups = {}
for w in words:
    groups.setdefault(len(w), []).append(w)
print("grouped", {k: groups[k] for k in sorted(groups)})
print("sum of squares", sum(x * x for x in range(101)))
print("any/all", any(w.startswith("g") for w in words), all(len(w) > 2 for w in words))
x = 10
print("scope", [x for x in range(3)], x)
print("walrus in comp", [y for v in range(10) if (y := v * v) > 20])
print("char counts", sorted({c: "mississippi".count(c) for c in "mississippi"}.items()))
