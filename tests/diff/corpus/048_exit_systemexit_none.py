# raise SystemExit(None) after printing: exit status 0, nothing on stderr.
import sys


def report(items):
    for i, item in enumerate(items):
        print(f"{i}: {item}")
    return len(items)


n = report(["alpha", "beta", "gamma"])
print("reported", n)
sys.stderr.write("a deliberate stderr line\n")
try:
    raise SystemExit(None)
except SystemExit as e:
    print("first SystemExit code:", e.code, "| args:", e.args)
print("about to exit for real")
sys.stdout.flush()
if n == 3:
    raise SystemExit(None)
print("unreachable")
