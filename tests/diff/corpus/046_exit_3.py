# sys.exit(3): exit status 3, nothing on stderr; finally blocks and atexit still run.
import atexit
import sys


def goodbye():
    print("atexit handler ran")


atexit.register(goodbye)


def main(argv_len):
    total = 0
    for i in range(10):
        total += i
    print("total", total)
    try:
        if total > 40:
            sys.exit(3)
    finally:
        print("finally before exit")
    print("unreachable")


try:
    main(0)
except SystemExit as e:
    print("SystemExit code seen in handler:", e.code)
    raise
print("unreachable too")
