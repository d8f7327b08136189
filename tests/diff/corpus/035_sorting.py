# Sorting with keys, stability, reverse, multi-key, and heapq/bisect.
import bisect
import heapq

people = [
    ("alice", 30, "NY"), ("bob", 25, "LA"), ("carol", 30, "LA"),
    ("dave", 25, "NY"), ("eve", 35, "SF"), ("frank", 30, "SF"),
]
print("by age", [p[0] for p in sorted(people, key=lambda p: p[1])])
print("by age desc (stable)", [p[0] for p in sorted(people, key=lambda p: p[1], reverse=True)])
print("age then name desc", [p[0] for p in sorted(people, key=lambda p: (p[1], [-ord(c) for c in p[0]]))])
print("city, -age", [(p[2], p[1], p[0]) for p in sorted(people, key=lambda p: (p[2], -p[1]))])
by_city = sorted(people, key=lambda p: p[0], reverse=True)
by_city.sort(key=lambda p: p[2])
print("two-pass stable", [p[0] for p in by_city])

words = ["banana", "Apple", "cherry", "apple", "Banana", "date"]
print("default", sorted(words))
print("casefold", sorted(words, key=str.casefold))
print("len then alpha", sorted(words, key=lambda w: (len(w), w)))
print("reverse", sorted(words, reverse=True))
nums = [3.5, -2, 7, 0, -2.5, 1e3, -1e-3]
print("abs", sorted(nums, key=abs), "max by abs", max(nums, key=abs))
print("min/max default", min([], default="empty"), max([4, 9, 2]))
mixed_keys = {"b": 2, "a": 3, "c": 1}
print("dict by value", sorted(mixed_keys.items(), key=lambda kv: kv[1]))
print("dict keys sorted", sorted(mixed_keys), sorted(mixed_keys, key=mixed_keys.get))
data = [5, 1, 8, 3, 9, 2, 7]
data.sort()
print("in place", data, "reversed", list(reversed(data)))
print("bisect", bisect.bisect_left(data, 5), bisect.bisect_right(data, 5), bisect.bisect(data, 6))
bisect.insort(data, 6)
print("insort", data)
print("nlargest", heapq.nlargest(3, people, key=lambda p: p[1]))
heap = []
for v in [7, 2, 9, 4, 1]:
    heapq.heappush(heap, (v % 3, v))
print("heap pops", [heapq.heappop(heap) for _ in range(len(heap))])
print("merge", list(heapq.merge([1, 4, 7], [2, 5, 8], [0, 9])))
try:
    sorted([1, "a", 2])
except TypeError as e:
    print("TypeError:", e)
print("tuples", sorted([(2, "b"), (1, "z"), (2, "a"), (1, "a")]))
