"""An allocation NumPy would be refused raises NumPy's MemoryError at the
call that asks for it, with python3's traceback, whether the program
catches it or not, and at once: the tracer leaves such an operation to
NumPy rather than recording it (where it failed, or ran for minutes as an
unused temporary, when its region was computed)."""
import time

import pytest

import harness

PROGRAMS = {
    "caught at top level": """
import numpy as np
try:
    y = np.ones(10**13) * 2
except MemoryError:
    print("caught")
""",
    "uncaught in a function": """
import numpy as np
def f():
    y = np.ones(10**13) * 2
    return 1
print(f())
""",
    "unused temporary": """
import numpy as np
def f():
    y = np.ones(10**11) * 2
    return 1
print(f())
""",
    "caught in the function": """
import numpy as np
def f():
    try:
        x = np.zeros((10**6, 10**7))
        return x + 1
    except MemoryError:
        return "caught"
print(f())
""",
    "result discarded": """
import numpy as np
def f():
    try:
        x = np.zeros((10**6, 10**7))
        return x + 1
    except MemoryError:
        print("caught")
f()
print("after")
""",
    "empty of the largest size": """
import numpy as np
from numpy.testing import assert_raises
from numpy._core._exceptions import _ArrayMemoryError
with assert_raises(_ArrayMemoryError):
    np.empty(np.iinfo(np.intp).max, dtype=np.uint8)
print("raised")
""",
    "broadcast product summed": """
import numpy as np
def f():
    a = np.ones((100000, 1)); b = np.ones((1, 100000))
    try:
        return (a * b).sum()
    except MemoryError as e:
        return type(e).__name__
print(f())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_memory_error_as_python3(tmp_path, name):
    path = tmp_path / "program.py"
    path.write_text(PROGRAMS[name])
    started = time.monotonic()
    expected = harness.run(harness.PYTHON3, [str(path)], timeout=60)
    python3_seconds = time.monotonic() - started
    started = time.monotonic()
    got = harness.run(harness.NPYTHON, [str(path)], timeout=60)
    npython_seconds = time.monotonic() - started
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    assert npython_seconds < 3 * python3_seconds + 2
