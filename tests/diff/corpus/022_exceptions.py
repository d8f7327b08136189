# Exceptions: try/except/else/finally, raise from, __context__, custom classes.
class AppError(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code


class NotFound(AppError):
    pass


def lookup(d, key):
    try:
        return d[key]
    except KeyError as e:
        raise NotFound(404, f"missing {key!r}") from e


def trial(x):
    log = []
    try:
        log.append("try")
        r = 10 / x
    except ZeroDivisionError as e:
        log.append(f"except {type(e).__name__}: {e}")
        r = None
    else:
        log.append("else")
    finally:
        log.append("finally")
    return r, log


def finally_return():
    try:
        return "try"
    finally:
        print("finally runs before return")


print(trial(4))
print(trial(0))
print(finally_return())
try:
    lookup({"a": 1}, "b")
except AppError as e:
    print(type(e).__name__, e.code, e, "| cause:", type(e.__cause__).__name__, e.__cause__)
    print("suppress_context", e.__suppress_context__)

try:
    try:
        int("x1")
    except ValueError:
        [][1]
except IndexError as e:
    print("implicit context:", type(e.__context__).__name__, "-", e.__context__)

try:
    try:
        raise TypeError("inner")
    except TypeError:
        raise RuntimeError("outer") from None
except RuntimeError as e:
    print("from None:", e.__cause__, e.__suppress_context__, type(e.__context__).__name__)

for exc in (NotFound(1, "x"), AppError(2, "y"), ValueError("z")):
    try:
        raise exc
    except NotFound:
        print("NotFound branch")
    except (AppError, ValueError) as e:
        print("tuple branch", repr(e), e.args)
e = ValueError("note me")
e.add_note("extra note")
print(e.__notes__, issubclass(NotFound, Exception), NotFound.__mro__[1].__name__)
