# sys.exit("message"): message printed to stderr, exit status 1.
import sys


def check_inputs(values):
    bad = [v for v in values if v < 0]
    if bad:
        sys.exit(f"error: {len(bad)} negative value(s): {bad}")
    return sum(values)


print("checking first batch")
print("sum", check_inputs([1, 2, 3]))
sys.stdout.flush()
print("checking second batch")
try:
    check_inputs([4, -1, 5, -9])
except SystemExit as e:
    print("intercepted:", repr(e.code))
print("checking third batch for real")
check_inputs([-2])
print("unreachable")
