"""npython changes its own environment for its libraries (OpenMP's spin
count, OpenBLAS's spin time while NumPy loads) but the program and the
processes it starts see the environment they were given, before and after
NumPy's import, whatever the user set."""
import pytest

import harness

PROGRAM = """
import os, subprocess

VARIABLES = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OPENBLAS_THREAD_TIMEOUT")

def show(when):
    seen = {name: os.environ.get(name) for name in VARIABLES}
    child = subprocess.run(["sh", "-c", "echo $OMP_WAIT_POLICY/$GOMP_SPINCOUNT/$OPENBLAS_THREAD_TIMEOUT"],
                           capture_output=True, text=True).stdout.strip()
    print(when, seen, "child:", child)

show("before numpy")
import numpy
show("after numpy")
os.environ["OPENBLAS_THREAD_TIMEOUT"] = "6"
show("after setting")
"""


@pytest.mark.parametrize("mode", sorted(harness.MODES))
@pytest.mark.parametrize("given", [{}, {"OPENBLAS_THREAD_TIMEOUT": "9"}, {"OMP_WAIT_POLICY": "active"},
                                   {"GOMP_SPINCOUNT": "50"}])
def test_program_and_children_see_their_environment(tmp_path, mode, given):
    script = tmp_path / "environment.py"
    script.write_text(PROGRAM)
    reference, got = harness.run_both([str(script)], mode=mode, env_extra=given)
    assert reference.returncode == 0, reference.stderr
    assert got == reference
