"""What every seed benchmark shares: time the workload function apart from
making its inputs, and report the times and the bytes the work must move.

A program calls measure() once; it prints to stderr one human line and one
line for bench/run:
    npython-bench: name=NAME first_s=S steady_s=S essential_bytes=N
first_s is the first call (compile time included under npython), steady_s
the fastest of the later calls.
"""
import hashlib
import sys
import time


def measure(name, fn, make_args, essential_bytes, calls=5):
    """Calls fn(*make_args()) `calls` times (fresh arguments each time, made
    outside the timing) and returns the first call's result. essential_bytes
    is a number, or a function of that result when the work depends on it.

    Five calls by default: the first call's result is kept, and each call's
    until the next one returns (as `x = fn(...)` in a loop keeps it), so the
    second and third calls' results need memory nothing has used before;
    from the fourth on, results reuse what earlier ones freed, as they do in
    a program's loop."""
    times = []
    first_result = None
    for i in range(calls):
        args = make_args()
        start = time.perf_counter()
        result = fn(*args)
        times.append(time.perf_counter() - start)
        if i == 0:
            first_result = result
    steady = min(times[1:]) if len(times) > 1 else times[0]
    if callable(essential_bytes):
        essential_bytes = essential_bytes(first_result)
    print(f"{name}: first call {times[0] * 1e3:.1f} ms, later calls {steady * 1e3:.1f} ms",
          file=sys.stderr)
    print(f"npython-bench: name={name} first_s={times[0]:.6f} steady_s={steady:.6f} "
          f"essential_bytes={int(essential_bytes)}", file=sys.stderr, flush=True)
    return first_result


def digest(a):
    """SHA-1 of an array's bytes in C order: a whole result, exactly, in one
    line of output."""
    import numpy as np
    return hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest()
