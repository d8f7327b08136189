"""The `npython` module a program can import, and the NPY_* controls."""
import json
import re
import sys

import pytest

import harness


def npython(code, **env):
    return harness.run(harness.NPYTHON, ["-c", code], env_extra=env)


def test_embeds_the_cpython_of_the_tests_with_numpy_2():
    got = npython("import numpy, sys; print(numpy.__version__, sys.version_info[:2])")
    assert got.returncode == 0, got.stderr
    assert re.fullmatch(rf"2\.\d+\.\d+ \({sys.version_info[0]}, {sys.version_info[1]}\)\n", got.stdout)


def test_version_matches_the_command_line():
    module_version = npython("import npython; print(npython.version)").stdout.strip()
    assert harness.run(harness.NPYTHON, ["-V"]).stdout.startswith(f"npython {module_version} ")


@pytest.mark.parametrize("mode, enabled", [("jit", True), ("eager", False)])
def test_jit_enabled_follows_npy_jit(mode, enabled):
    got = npython("import npython; print(npython.jit_enabled())", **harness.MODES[mode])
    assert got.stdout == f"{enabled}\n"


def test_stats_is_a_dict_of_counters():
    got = npython("import npython; s = npython.stats(); print(type(s).__name__, "
                  "all(isinstance(k, str) and isinstance(v, int) for k, v in s.items()), "
                  "sorted(k for k in s if k.startswith('frames.')))")
    assert got.stdout == ("dict True ['frames.evaluated', 'frames.to_cpython.generator', "
                          "'frames.to_cpython.import_star_in_function', "
                          "'frames.to_cpython.not_user_code', 'frames.to_cpython.tracing', "
                          "'frames.to_cpython.unsupported_opcode']\n")


FRAME_COUNTS = ("import npython, sys; s = npython.stats(); "
                "print(s['frames.evaluated'] > 0, s['frames.to_cpython.not_user_code'] > 0)")


def test_default_scope_evaluates_nothing_until_numpy_is_imported():
    assert npython(FRAME_COUNTS).stdout == "False False\n"


def test_default_scope_evaluates_user_code_once_numpy_is_imported():
    got = npython("import numpy\ndef f():\n    return 1\nf()\n" + FRAME_COUNTS)
    assert got.stdout == "True True\n", got.stderr


def test_interp_all_evaluates_library_code_too():
    got = npython("import json; json.dumps([1])\n" + FRAME_COUNTS, NPY_INTERP="all")
    assert got.stdout == "True False\n", got.stderr


def test_eager_mode_counts_nothing():
    got = npython("import npython; print(npython.stats())", NPY_JIT="off")
    assert got.stdout == "{}\n"


def test_stats_at_exit_go_to_stderr_only():
    plain = npython("print('out')")
    got = npython("print('out')", NPY_JIT_STATS="1")
    assert got.stdout == plain.stdout == "out\n"
    assert plain.stderr == ""
    # A summary paragraph, then the counters.
    assert re.fullmatch(r"npython: no compiled region ran; 0 NumPy calls and operators ran eagerly; run time "
                        r"[^\n]+(\n[^\n]+)*\n\nnpython stats:\n(  [\w.]+ +\d+\n)+", got.stderr), got.stderr
    assert re.search(r"^  frames\.evaluated +\d+$", got.stderr, re.M)


def test_host_describes_the_code_generation_target():
    got = npython("import npython; h = npython.host(); print(h['vector_isa'], h['threads'])",
                  NPY_THREADS="3")
    isa, threads = got.stdout.split()
    assert isa in ("sse2", "avx2", "avx512")
    assert threads == "3"


def test_stats_to_a_json_file(tmp_path):
    path = tmp_path / "stats.json"
    got = npython("import numpy\nprint('out')", NPY_JIT_STATS=str(path))
    assert got.stdout == "out\n" and got.stderr == ""
    stats = json.loads(path.read_text())
    assert stats["frames.evaluated"] > 0
    assert all(isinstance(v, int) for v in stats.values())
