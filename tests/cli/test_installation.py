"""npython installed as a user installs it: `pip install <checkout>` into a
venv puts an `npython` there that runs with the venv's sys.prefix and
packages and carries no path of the tree it was built in; `npython -m venv`
makes a venv whose python is npython; a venv of another CPython version is
refused with a message instead of running without its packages."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import harness

# A module only the venv has, and NumPy work whose regions the run counts.
PROGRAM = """
import sys
import numpy as np
import only_in_this_venv

def step(a):
    return ((a * 2.0 + 1.0) ** 2).sum()

print(sys.prefix == sys.base_prefix, only_in_this_venv.WHERE)
print(repr(step(np.arange(100_000, dtype=np.float64))))
"""


def make_venv(python, path, *extra):
    subprocess.run([python, "-m", "venv", *extra, str(path)], check=True, capture_output=True, text=True)
    site = subprocess.run([str(path / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    (Path(site) / "only_in_this_venv.py").write_text(f"WHERE = {str(path)!r}\n")
    return path


def run_in(venv, interpreter, args, **env_extra):
    env = harness.base_env()
    env.update(env_extra)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    return subprocess.run([interpreter, *args], capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A venv (python3's, seeing its NumPy and build tools) with npython
    pip-installed from this checkout. The build uses the installed meson,
    meson-python and ninja (no download): as `pip install .` builds, from
    pyproject.toml."""
    venv = make_venv(harness.PYTHON3, tmp_path_factory.mktemp("pip") / "venv", "--system-site-packages")
    proc = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index",
                           "--disable-pip-version-check", str(harness.REPO)],
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return venv


def test_pip_install_puts_npython_in_the_venv(installed, tmp_path):
    npython = installed / "bin" / "npython"
    assert os.access(npython, os.X_OK)
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    stats = tmp_path / "stats.json"
    # Started by name from the venv's PATH, as an activated venv runs it.
    got = run_in(installed, "npython", [str(script)], NPY_JIT_STATS=str(stats))
    reference = run_in(installed, str(installed / "bin" / "python"), [str(script)])
    assert reference.returncode == 0, reference.stderr
    assert (got.returncode, got.stdout, got.stderr) == (0, reference.stdout, "")
    assert got.stdout.startswith(f"False {installed}\n")
    assert json.loads(stats.read_text())["jit.regions"] >= 1


def test_installed_npython_reports_the_venv_as_python_does(installed):
    probe = "import sys; print(sys.prefix, sys.base_prefix, sys.exec_prefix, sys.path[1:])"
    got = run_in(installed, str(installed / "bin" / "npython"), ["-c", probe])
    reference = run_in(installed, str(installed / "bin" / "python"), ["-c", probe])
    assert (got.returncode, got.stdout) == (0, reference.stdout)


def test_installed_binary_names_no_build_tree(installed):
    data = (installed / "bin" / "npython").read_bytes()
    assert str(harness.REPO).encode() not in data


def test_npython_makes_a_venv_whose_python_is_npython(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([harness.NPYTHON, "-m", "venv", str(venv)], check=True, capture_output=True, text=True)
    site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    (site / "only_in_this_venv.py").write_text(f"WHERE = {str(venv)!r}\n")
    probe = "import sys, npython, only_in_this_venv; print(npython.jit_enabled(), sys.prefix, only_in_this_venv.WHERE)"
    got = run_in(venv, str(venv / "bin" / "python"), ["-c", probe])
    assert (got.returncode, got.stderr) == (0, "")
    assert got.stdout == f"True {venv} {venv}\n"


# Two CPython versions other than the one npython is built for (that of the
# Python running the tests), each in one of the spellings venv writes.
OTHER_VERSIONS = [v for v in ("3.10.13", "3.12.1", "3.13.0") if not v.startswith("%d.%d." % sys.version_info[:2])][:2]


@pytest.mark.parametrize("key, version", [("version", OTHER_VERSIONS[0]), ("version_info", OTHER_VERSIONS[1] + ".final.0")])
def test_a_venv_of_another_python_is_refused(tmp_path, key, version):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text(f"home = /nowhere/bin\n{key} = {version}\n")
    (venv / "bin" / "npython").symlink_to(harness.NPYTHON)
    got = run_in(venv, str(venv / "bin" / "npython"), ["-c", "print('ran')"])
    assert (got.returncode, got.stdout) == (2, "")
    assert got.stderr.startswith(f"npython: the virtual environment {venv} is CPython {version}'s; "
                                 f"this npython runs CPython {sys.version_info[0]}.{sys.version_info[1]}")
