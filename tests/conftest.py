import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402


def pytest_report_header(config):
    return [f"npython under test: {harness.NPYTHON}", f"reference: {harness.PYTHON3}"]


@pytest.fixture(scope="session", autouse=True)
def npython_is_built():
    if not os.access(harness.NPYTHON, os.X_OK):
        pytest.exit(f"npython not built at {harness.NPYTHON} (scripts/build.sh)", returncode=2)


def pytest_terminal_summary(terminalreporter):
    for line in harness.REPORT:
        terminalreporter.write_line(line)
