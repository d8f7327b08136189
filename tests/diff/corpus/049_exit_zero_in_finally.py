# sys.exit(0) inside finally and inside a with-block: exit status 0 despite a pending error.
import contextlib
import sys


class Resource:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("acquire", self.name)
        return self

    def __exit__(self, exc_type, exc, tb):
        print("release", self.name, "with", exc_type.__name__ if exc_type else None)
        return False


@contextlib.contextmanager
def section(title):
    print("begin", title)
    try:
        yield
    finally:
        print("end", title)


with Resource("db"):
    with section("work"):
        try:
            print("doing work")
            raise RuntimeError("this error is discarded by sys.exit in finally")
        finally:
            print("finally: exiting with 0")
            sys.exit(0)
print("unreachable")
