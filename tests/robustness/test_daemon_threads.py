"""A daemon thread doing NumPy work while the program exits: CPython 3.11
ends it when it asks for the GIL back (after a NumPy loop that let it go),
unwinding npython's frames on that thread. The exit stays clean (found by
a bug hunt: about one run in three ended in SIGSEGV)."""
import harness

PROGRAM = """
import threading, time
import numpy as np
np.seterr(all="ignore")
def work():
    a = np.arange(-100000.0, 100000.0)
    while True:
        np.sqrt(a).sum()
threading.Thread(target=work, daemon=True).start()
time.sleep(0.02)
print("main done")
"""

RUNS = 12


def test_exit_with_a_busy_daemon_thread(tmp_path):
    path = tmp_path / "daemon.py"
    path.write_text(PROGRAM)
    for _ in range(RUNS):
        got = harness.run(harness.NPYTHON, [str(path)], timeout=60)
        assert got.returncode == 0, got.stderr[-2000:]
        assert got.stdout == "main done\n"
