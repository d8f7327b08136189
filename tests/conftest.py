import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402


def pytest_configure(config):
    # A suite started in the background by a non-interactive shell inherits
    # SIGINT ignored, and so would every interpreter it runs, python3's own
    # tests of Ctrl-C included. A handled signal is reset to its default in
    # the programs the suite starts.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # The kernels the suite's programs compile go to a disk cache of its
    # own, not the user's: the first program to need a kernel compiles and
    # stores it, later ones load it, so both paths run.
    if "NPY_KERNEL_CACHE" not in os.environ:
        os.environ["NPY_KERNEL_CACHE"] = tempfile.mkdtemp(prefix="npython-test-kernels-")
        config.add_cleanup(lambda: shutil.rmtree(os.environ.pop("NPY_KERNEL_CACHE"), ignore_errors=True))


def pytest_report_header(config):
    return [f"npython under test: {harness.NPYTHON}", f"reference: {harness.PYTHON3}"]


@pytest.fixture(scope="session", autouse=True)
def npython_is_built():
    if not os.access(harness.NPYTHON, os.X_OK):
        pytest.exit(f"npython not built at {harness.NPYTHON} (scripts/build.sh)", returncode=2)


def pytest_terminal_summary(terminalreporter):
    for line in harness.REPORT:
        terminalreporter.write_line(line)
