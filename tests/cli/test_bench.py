"""npython --bench: the table, the identical-output verdict and its files."""
import importlib.util
import json
import re
from pathlib import Path

import pytest

import harness

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def bench(*args):
    return harness.run(harness.NPYTHON, ["--bench", *args], cwd=FIXTURES, timeout=300)


def test_table_verdict_and_json(tmp_path):
    out_json = tmp_path / "result.json"
    got = bench("--repeat", "2", "--json", str(out_json), "sum_squares.py", "1000")
    assert got.returncode == 0, got.stdout + got.stderr
    assert "| eager (NPY_JIT=off) |" in got.stdout
    assert re.search(r"^\| JIT \| \d+\.\d{3} \| \d+\.\d{3} \| \d+\.\d{3} \|$", got.stdout, re.M)
    assert re.search(r"^speed-up, eager / JIT \(median of the others\): \d+\.\d\dx$", got.stdout, re.M)
    assert "stdout: identical in every run, eager and JIT" in got.stdout
    result = json.loads(out_json.read_text())
    assert result["stdout_identical"] is True
    assert result["repeat"] == 2
    assert len(result["modes"]["eager"]["times"]) == len(result["modes"]["jit"]["times"]) == 2
    assert result["jit_stats"]["frames.evaluated"] > 0
    assert result["args"] == ["1000"]


def test_different_output_is_reported_loudly():
    got = bench("--repeat", "1", "prints_mode.py")
    assert got.returncode == 1
    assert "!!! STDOUT DIFFERS" in got.stdout
    assert "first run" in got.stdout


def test_missing_script_is_an_error():
    got = bench("no_such_program.py")
    assert got.returncode == 2
    assert "can't open file 'no_such_program.py'" in got.stderr


def test_plot(tmp_path):
    png = tmp_path / "bench.png"
    got = bench("--repeat", "1", "--plot", str(png), "sum_squares.py", "100")
    if importlib.util.find_spec("matplotlib") is None:
        assert got.returncode == 2
        assert "--plot needs matplotlib" in got.stderr
        assert not png.exists()
    else:
        assert got.returncode == 0, got.stderr
        assert png.read_bytes().startswith(b"\x89PNG")


def test_jit_runs_share_a_fresh_kernel_cache(tmp_path):
    # The first JIT run compiles, the second loads what it stored; the
    # user's own cache is neither read nor written.
    users = tmp_path / "users-cache"
    out_json = tmp_path / "result.json"
    got = harness.run(harness.NPYTHON, ["--bench", "--repeat", "2", "--json", str(out_json),
                                        "sum_squares.py", "100000"],
                      cwd=FIXTURES, timeout=300, env_extra={"NPY_KERNEL_CACHE": str(users)})
    assert got.returncode == 0, got.stdout + got.stderr
    stats = json.loads(out_json.read_text())["jit_stats"]
    isa = harness.run(harness.NPYTHON, ["-c", "import npython; print(npython.host()['vector_isa'])"])
    if isa.stdout.strip() != "sse2":
        assert stats["jit.kernels_loaded"] >= 1
        assert stats["jit.kernels_compiled"] == 0
    assert not users.exists()


def test_module_and_code_run_as_with_python3(tmp_path):
    # The work in a function: a module run with -m has its top level run
    # by CPython (npython takes the top level of a script or -c code).
    (tmp_path / "squares_module.py").write_text(
        "import sys\nimport numpy as np\n\n\ndef main(n):\n    x = np.arange(n, dtype=np.float64)\n"
        "    print(f\"{float((x * x).sum()):.6e}\")\n\n\nmain(int(sys.argv[1]))\n")
    out_json = tmp_path / "module.json"
    got = harness.run(harness.NPYTHON, ["--bench", "--repeat", "1", "--json", str(out_json),
                                        "-m", "squares_module", "100000"], cwd=tmp_path, timeout=300)
    assert got.returncode == 0, got.stdout + got.stderr
    assert got.stdout.startswith("npython --bench -m squares_module: 1 run(s) per mode")
    assert "stdout: identical in every run, eager and JIT" in got.stdout
    result = json.loads(out_json.read_text())
    assert (result["module"], result["script"], result["args"]) == ("squares_module", None, ["100000"])
    assert result["jit_stats"]["jit.regions"] >= 1

    code = "import sys, numpy as np; x = np.arange(float(sys.argv[1])); print((x * x).sum())"
    out_json = tmp_path / "code.json"
    got = bench("--repeat", "1", "--json", str(out_json), "-c", code, "100000")
    assert got.returncode == 0, got.stdout + got.stderr
    assert got.stdout.startswith("npython --bench -c 'import sys, numpy as np; x = np.arang...': 1 run(s)")
    result = json.loads(out_json.read_text())
    assert (result["code"], result["args"]) == (code, ["100000"])
    assert result["jit_stats"]["jit.regions"] >= 1
    # The program's options after the code are the program's.
    got = bench("--repeat", "1", "-c", "import sys; print(sys.argv[1:])", "--repeat", "x")
    assert got.returncode == 0, got.stdout + got.stderr
    assert "stdout: identical in every run" in got.stdout
    assert bench("--repeat", "1").returncode == 2


def test_kernels_loaded_from_the_cache_are_reported():
    # Two JIT runs share the bench's own cache: the second loads what the
    # first compiled, and the report says so.
    got = bench("--repeat", "2", "sum_squares.py", "100000")
    assert got.returncode == 0, got.stdout + got.stderr
    loaded = int(re.search(r"^\| kernels loaded from the disk cache \| (\d+) \|$", got.stdout, re.M).group(1))
    compiled = int(re.search(r"^\| kernels compiled \| (\d+) \|$", got.stdout, re.M).group(1))
    line = re.search(r"^kernel cache \(the bench's own, empty at the start\): the first JIT run compiled (\d+) "
                     r"kernels and loaded (\d+); the last compiled (\d+) and loaded (\d+) from the disk cache$",
                     got.stdout, re.M)
    assert line, got.stdout
    first_compiled, first_loaded, last_compiled, last_loaded = map(int, line.groups())
    assert (last_compiled, last_loaded) == (compiled, loaded)
    assert first_loaded == 0
    isa = harness.run(harness.NPYTHON, ["-c", "import npython; print(npython.host()['vector_isa'])"])
    if isa.stdout.strip() != "sse2":
        assert first_compiled >= 1
        assert loaded == first_compiled and compiled == 0
