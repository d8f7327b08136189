# *args/**kwargs, keyword-only and positional-only parameters, defaults.
import inspect


def everything(a, b=2, /, c=3, *args, d, e=5, **kwargs):
    return f"a={a} b={b} c={c} args={args} d={d} e={e} kwargs={kwargs}"


def pos_only(x, y, /):
    return x - y


def kw_only(*, scale=1, offset=0):
    return scale * 10 + offset


def forward(*args, **kwargs):
    return everything(*args, **kwargs)


def mutable_default(item, bucket=[]):
    bucket.append(item)
    return bucket


print(everything(1, d=4))
print(everything(1, 20, 30, 40, 50, d=4, z=9, y=8))
print(forward(*[1, 2], **{"d": "D", "c": "C", "extra": True}))
print(pos_only(10, 3), kw_only(), kw_only(offset=7, scale=2))
print(mutable_default(1), mutable_default(2), mutable_default(3, []))

calls = [
    lambda: pos_only(x=1, y=2),
    lambda: kw_only(3),
    lambda: everything(1),
    lambda: everything(1, 2, 3, d=4, c=5),
    lambda: everything(1, a=2, d=3),
]
for call in calls:
    try:
        print("ok:", call())
    except TypeError as e:
        print("TypeError:", e)

sig = inspect.signature(everything)
for name, p in sig.parameters.items():
    print(f"  {name}: {p.kind.name} default={p.default if p.default is not p.empty else '-'}")
print(str(sig))


def merge(*dicts, **overrides):
    out = {}
    for d in dicts:
        out.update(d)
    return {**out, **overrides}


print(merge({"a": 1}, {"b": 2, "a": 0}, c=3, a=9))
args = (1, 2, 3)
print(*args, sep=" | ", end=" <end>\n")
print(max(*args, 10), min(args, key=lambda v: -v), sum(args, start=100))
