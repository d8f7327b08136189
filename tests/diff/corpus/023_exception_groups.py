# Exception groups and except*.
class ValidationError(ValueError):
    pass


def validate(items):
    errors = []
    for i, it in enumerate(items):
        if not isinstance(it, int):
            errors.append(TypeError(f"item {i} not int: {it!r}"))
        elif it < 0:
            errors.append(ValidationError(f"item {i} negative: {it}"))
    if errors:
        raise ExceptionGroup("validation failed", errors)
    return sum(items)


print(validate([1, 2, 3]))
try:
    validate([1, -2, "x", -4, 5.5])
except* ValidationError as eg:
    print("value errors:", [str(e) for e in eg.exceptions])
except* TypeError as eg:
    print("type errors:", [str(e) for e in eg.exceptions])

try:
    try:
        raise ExceptionGroup("outer", [
            KeyError("k"),
            ExceptionGroup("inner", [ZeroDivisionError("z"), KeyError("k2")]),
        ])
    except* KeyError as eg:
        print("keys:", eg.message, [repr(e) for e in eg.exceptions])
except* ZeroDivisionError as eg:
    print("reraised zero:", eg.message, len(eg.exceptions))

eg = ExceptionGroup("many", [ValueError(1), TypeError(2), ValueError(3)])
match, rest = eg.split(ValueError)
print("split", [e.args for e in match.exceptions], [e.args for e in rest.exceptions])
sub = eg.subgroup(lambda e: isinstance(e, TypeError))
print("subgroup", sub.message, repr(sub.exceptions[0]))
print("str", str(eg), "| count", len(eg.exceptions))
try:
    raise ExceptionGroup("eg", [OSError("disk")])
except ExceptionGroup as e:
    print("plain except:", type(e).__name__, e.exceptions)
beg = BaseExceptionGroup("b", [KeyboardInterrupt()])
print(type(beg).__name__, type(BaseExceptionGroup("x", [ValueError()])).__name__)
