# itertools and functools.
import functools
import itertools as it
import operator

print("chain", list(it.chain([1, 2], "ab", range(2))))
print("product", list(it.product("xy", [0, 1])))
print("permutations", list(it.permutations("abc", 2)))
print("combinations", list(it.combinations(range(5), 3))[:4], len(list(it.combinations(range(10), 4))))
print("comb w/ repl", list(it.combinations_with_replacement("ab", 3)))
print("accumulate", list(it.accumulate([3, 1, 4, 1, 5], max)), list(it.accumulate(range(1, 6), operator.mul)))
print("groupby", [(k, list(g)) for k, g in it.groupby("aaabccdddd")])
print("groupby key", [(k, len(list(g))) for k, g in it.groupby(sorted(range(20), key=lambda v: v % 3), key=lambda v: v % 3)])
print("islice", list(it.islice(it.count(10, 5), 2, 8, 2)))
print("cycle", list(it.islice(it.cycle("abc"), 7)), "repeat", list(it.repeat("z", 3)))
print("zip_longest", list(it.zip_longest("abc", [1], fillvalue="-")))
print("starmap", list(it.starmap(pow, [(2, 5), (3, 2), (10, 3)])))
print("takewhile", list(it.takewhile(lambda v: v < 5, [1, 4, 6, 2])), "dropwhile", list(it.dropwhile(lambda v: v < 5, [1, 4, 6, 2])))
print("compress", list(it.compress("abcdef", [1, 0, 1, 0, 1, 1])), "filterfalse", list(it.filterfalse(str.isdigit, "a1b2c3")))
print("pairwise", list(it.pairwise([1, 4, 9, 16])))
a, b = it.tee(iter(range(4)))
print("tee", list(a), list(b))

print("reduce", functools.reduce(lambda acc, v: acc * 10 + v, [1, 2, 3, 4]), functools.reduce(operator.add, [], 0))
power2 = functools.partial(pow, 2)
print("partial", [power2(i) for i in range(6)], power2.args)


def cmp(a, b):
    return (len(a) > len(b)) - (len(a) < len(b)) or (a > b) - (a < b)


print("cmp_to_key", sorted(["bb", "a", "ccc", "ab", "b"], key=functools.cmp_to_key(cmp)))


@functools.singledispatch
def show(x):
    return f"object {x!r}"


@show.register
def _(x: int):
    return f"int {x}"


@show.register(list)
def _(x):
    return f"list of {len(x)}"


print("singledispatch", show(5), show([1, 2]), show("s"), show(True))


@functools.total_ordering
class Version:
    def __init__(self, s):
        self.t = tuple(int(p) for p in s.split("."))

    def __eq__(self, o):
        return self.t == o.t

    def __lt__(self, o):
        return self.t < o.t


vs = [Version(s) for s in ["1.10", "1.2", "1.2.1", "0.9"]]
print("total_ordering", [".".join(map(str, v.t)) for v in sorted(vs)], Version("2.0") >= Version("1.99"))
print("operator", operator.itemgetter(1, 0)("xyz"), operator.attrgetter("real")(3 + 4j), sorted([(1, "b"), (0, "c")], key=operator.itemgetter(1)))
