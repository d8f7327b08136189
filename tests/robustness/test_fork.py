"""Processes the program forks (os.fork) end as under python3, with the
program's exit status, once the kernels' OpenMP thread team has run in the
parent: a team does not survive fork, and a child whose last thread exited
while it had one hung in libgomp. Each parent gives its child 20 s, then
kills it and prints "hung"."""
import pytest

import harness

PROGRAM = """
import os, signal, sys, threading, time
import numpy as np


def work(n):
    x = np.arange(n, dtype=np.float64)
    return float((np.sqrt(x * 2.0 + 1.0) * 3.0).sum())


def wait_for(pid):
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "hung"


def fork_and_wait(child):
    pid = os.fork()
    if pid == 0:
        child()
        return True
    print("status", wait_for(pid), flush=True)
    return False


print("parent", work(200_000), flush=True)
"""

# What the child does after the fork, with the script's end after it.
CHILDREN = {
    "returns": """
fork_and_wait(lambda: print("child done"))
""",
    "raises": """
def fail():
    raise ValueError("child fails")
fork_and_wait(fail)
""",
    "exits": """
fork_and_wait(lambda: sys.exit(3))
""",
    # The child runs regions big enough to share out, and forks again.
    "kernels": """
def child():
    print("child", work(300_000), flush=True)
    if fork_and_wait(lambda: print("grandchild", work(150_000), flush=True)):
        sys.exit(5)
fork_and_wait(child)
print("parent after", work(250_000))
""",
    # Forked by a thread that led a team: the child's only thread is that
    # thread, whose end ends the child (status 0, no finalization).
    "from_a_thread": """
def in_thread():
    print("thread", work(200_000), flush=True)
    fork_and_wait(lambda: print("child of thread", work(200_000), flush=True))
t = threading.Thread(target=in_thread)
t.start()
t.join()
print("parent after", work(250_000))
""",
}


@pytest.mark.parametrize("threads", ["1", "4"])
@pytest.mark.parametrize("child", sorted(CHILDREN))
def test_forked_child_ends_as_in_python3(tmp_path, child, threads):
    path = tmp_path / "fork.py"
    path.write_text(PROGRAM + CHILDREN[child])
    expected, got = harness.run_both([str(path)], env_extra={"NPY_THREADS": threads}, timeout=120)
    assert "hung" not in expected.stdout
    assert got == expected
