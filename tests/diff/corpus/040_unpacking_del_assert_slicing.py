# Star-unpacking, del, assert (passing), list/string slicing.
first, *middle, last = range(7)
print("star", first, middle, last)
a, (b, *c), d = 1, (2, 3, 4), 5
print("nested", a, b, c, d)
*init, tail = "hello"
print("string star", init, tail)
head, *_ = [9]
print("single", head, _)
x, y = y, x = 1, 2
print("chained", x, y)
p, q = 1, 2
p, q = q, p
print("swap", p, q)
merged = [*range(3), *"ab", *(7, 8)]
print("literal unpack", merged, {*[1, 2], *[2, 3]}, {**{"a": 1}, **{"b": 2, "a": 0}})
for i, (k, v) in enumerate({"x": 1, "y": 2}.items()):
    print("loop unpack", i, k, v)

lst = list(range(10))
del lst[0]
del lst[-1]
del lst[::3]
print("del slices", lst)
d = {"a": 1, "b": 2, "c": 3}
del d["b"]
print("del key", d)
name = "temp"
del name
try:
    print(name)  # noqa: F821
except NameError as e:
    print("NameError:", e)

assert len(lst) == 5, "length check"
assert all(isinstance(v, int) for v in lst)
try:
    assert lst[0] > 100, f"first element too small: {lst[0]}"
except AssertionError as e:
    print("AssertionError:", e)

s = list(range(10))
print("slices", s[2:5], s[:3], s[7:], s[-3:], s[::3], s[::-1], s[8:2:-2], s[-100:100])
s[2:5] = ["a", "b"]
print("slice assign shrink", s)
s[1:1] = [100, 200]
print("slice insert", s)
s[::2] = [0] * len(s[::2])
print("extended slice assign", s)
try:
    s[::2] = [1, 2]
except ValueError as e:
    print("ValueError:", e)
word = "abcdefghij"
print("str slices", word[3:], word[:-3], word[::2], word[::-3], word[5:5], word[slice(1, 8, 3)])
print("slice object", slice(1, 10, 2).indices(6), (s * 2)[len(s) - 1:len(s) + 2])
t = (1, 2, 3, 4)
print("tuple slice", t[1:3], t[::-1], type(t[:1]).__name__)
