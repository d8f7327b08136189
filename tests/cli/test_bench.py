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
