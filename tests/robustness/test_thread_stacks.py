"""Recursion on threads of any stack size goes as deep as under python3.
npython's evaluator takes C stack for each Python call (CPython's inlines
them); a frame that finds the stack nearly used runs on a stack segment of
its own. With threading.stack_size(256 KiB) every frame of a new thread
raised RecursionError ("C stack") and t.start() waited for ever; 1 MiB and
8 MiB stacks raised it at depths python3 reaches."""
import pytest

import harness

PROGRAM = """
import sys, threading
import numpy as np

kib, depth = int(sys.argv[1]), int(sys.argv[2])
sys.setrecursionlimit(depth + 1000)
threading.stack_size(kib * 1024)


def down(n):
    return 0 if n == 0 else 1 + down(n - 1)


def run():
    try:
        print("depth", down(depth), float(np.ones(5000).sum()))
    except RecursionError as e:
        print("RecursionError", e)


t = threading.Thread(target=run)
t.start()
t.join()
"""


@pytest.mark.parametrize("kib, depth", [(64, 100), (256, 100), (512, 2000), (1024, 200_000), (8192, 500_000)])
def test_recursion_on_a_thread_of_any_stack_size(tmp_path, kib, depth):
    path = tmp_path / "stacks.py"
    path.write_text(PROGRAM)
    expected, got = harness.run_both([str(path), str(kib), str(depth)], timeout=120)
    assert expected.stdout == f"depth {depth} 5000.0\n", expected.stderr
    assert got == expected
