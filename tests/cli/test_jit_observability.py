"""NPY_JIT_LOG, NPY_JIT_STATS and npython --explain: what they print and its
shape (never timings)."""
import json
import re

import pytest

import harness

FIXTURES = harness.REPO / "tests" / "cli" / "fixtures"
DEMO = str(FIXTURES / "regions_demo.py")
IF_LINE = next(i for i, line in enumerate(open(DEMO), 1) if "the `if` line" in line)
SORT_LINE = next(i for i, line in enumerate(open(DEMO), 1) if "np.sort" in line)


def run(args, **env):
    got = harness.run(harness.NPYTHON, args, env_extra=env)
    assert got.returncode == 0, got.stderr
    return got


def expected_stdout():
    return harness.run(harness.PYTHON3, [DEMO]).stdout


def host_has_kernels():
    got = run(["-c", "import npython; print(npython.host()['vector_isa'])"])
    return got.stdout.strip() != "sse2"


def test_regions_log_lists_each_region_with_its_ops():
    got = run([DEMO], NPY_JIT_LOG="regions")
    assert got.stdout == expected_stdout()
    lines = got.stderr.splitlines()
    headers = [l for l in lines if re.match(r"\[npython:regions\] region of \d+ nodes, materialized at ", l)]
    assert any(f"regions_demo.py:{IF_LINE}: value decides an `if` or `while`" in h for h in headers)
    ops = [l for l in lines if re.match(r"\[npython:regions\]   %\d+ = ", l)]
    assert any(re.search(r"= sum\(%\d+; axes=0\) : float64\[\]", l) for l in ops)
    assert any(re.search(r"= multiply\(%\d+, %\d+\) : float64\[50000\]", l) for l in ops)
    assert all(l.startswith("[npython:") for l in lines if l.strip())


def test_output_code_log_shows_each_new_kernel_once():
    if not host_has_kernels():
        pytest.skip("no vector ISA the x86 backend uses on this machine")
    got = run([DEMO], NPY_JIT_LOG="output_code", NPY_JIT_STATS="1")
    # 256-bit kernels, or 512-bit ones where the CPU has AVX-512.
    kernels = re.findall(r"\[npython:output_code\] kernel \(x86-64 (?:AVX2|AVX-512), (\d+) lanes\) for (.+)$",
                         got.stderr, re.M)
    assert kernels
    assert len({key for _, key in kernels}) == len(kernels)
    assert re.search(r"\[npython:output_code\] vmulpd ([yz])mm\d+, \1mm\d+, \1mm\d+", got.stderr)
    compiled = int(re.search(r"jit\.kernels_compiled\s+(\d+)", got.stderr).group(1))
    assert compiled == len(kernels)


def test_fallback_log_names_the_callable_and_line():
    got = run([DEMO], NPY_JIT_LOG="fallback")
    assert f"[npython:fallback] sort not traced at regions_demo.py:{SORT_LINE}" in got.stderr.splitlines()


def test_log_all_and_bad_values():
    got = run([DEMO], NPY_JIT_LOG="all")
    assert "[npython:regions]" in got.stderr and "[npython:fallback]" in got.stderr
    bad = harness.run(harness.NPYTHON, [DEMO], env_extra={"NPY_JIT_LOG": "regions,bogus"})
    assert bad.returncode == 2
    assert bad.stderr == ("npython: NPY_JIT_LOG must be regions,output_code,deopt,fallback|all, "
                          "not 'regions,bogus'\n")


def test_stats_count_regions_kernels_and_materializations(tmp_path):
    out = tmp_path / "stats.json"
    run([DEMO], NPY_JIT_STATS=str(out))
    stats = json.loads(out.read_text())
    for name in ("jit.regions", "jit.region_ops", "jit.fallbacks", "jit.compile_us",
                 "jit.kernels_compiled", "jit.kernels_reused", "jit.kernels_loaded", "jit.kernel_load_us",
                 "jit.materializations.branch", "jit.materializations.fallback",
                 "jit.materializations.returned"):
        assert isinstance(stats[name], int), name
    assert stats["jit.regions"] >= 3
    assert stats["jit.materializations.branch"] == 1
    assert stats["jit.fallbacks"] == 1
    if host_has_kernels():
        # Compiled here, or loaded from the disk cache an earlier run filled.
        assert stats["jit.kernels_compiled"] + stats["jit.kernels_loaded"] >= 1


@pytest.mark.parametrize("ending", ["sys.exit(3)", "raise KeyboardInterrupt"])
def test_stats_and_explain_when_the_program_exits_early(tmp_path, ending):
    program = ("import sys, numpy as np\n"
               "def f(a):\n    return (a * 2.0).sum()\n"
               f"print(f(np.arange(5000.0)))\n{ending}\n")
    out = tmp_path / "stats.json"
    got = harness.run(harness.NPYTHON, ["--explain", "-c", program], env_extra={"NPY_JIT_STATS": str(out)})
    assert got.returncode == (3 if "exit" in ending else -2), got.stderr
    assert got.stdout == "24995000.0\n"
    assert "npython --explain:" in got.stderr
    assert json.loads(out.read_text())["jit.regions"] >= 1


def test_stats_are_the_same_through_the_module():
    got = run(["-c", "import numpy as np, npython\n"
                     "def f(x):\n    return (x + 1).sum()\n"
                     "f(np.ones(100000)); s = npython.stats()\n"
                     "print(s['jit.regions'], s['jit.materializations.unused'])"])
    # The top level names NumPy, so npython evaluates it: f's lazy result
    # comes back to it, unused.
    assert got.stdout == "1 1\n"


def test_explain_names_the_if_line_and_the_fallback():
    got = run(["--explain", DEMO])
    assert got.stdout == expected_stdout()
    lines = got.stderr.splitlines()
    assert re.fullmatch(r"npython --explain: \d+ region boundaries and fallbacks, most costly first", lines[0])
    rows = lines[1:]
    row = re.compile(r" +\d+\.\d{3} ms +\d+ x  (materialized|fallback): .+ at \S+:\d+")
    assert rows and all(row.fullmatch(r) for r in rows), rows
    assert any(f"materialized: value decides an `if` or `while` at regions_demo.py:{IF_LINE}" in r for r in rows)
    assert any(f"fallback: sort not traced at regions_demo.py:{SORT_LINE}" in r for r in rows)
    costs = [float(r.split()[0]) for r in rows]
    assert costs == sorted(costs, reverse=True)


def test_explain_is_not_an_argument_of_the_program():
    got = run(["--explain", "-c", "import sys; print(sys.argv)", "a"])
    assert got.stdout == "['-c', 'a']\n"


def test_a_scripts_top_level_is_recorded(tmp_path):
    # The main program says numpy: its top level, running while NumPy is
    # imported, is npython's, and records from the import on. Through a
    # module of the program's own, it stays CPython's.
    body = ("a = np.ones(100000)\n"
            "b = np.sqrt(a * 2 + 1)\n"
            "import npython\n"
            "s = npython.stats()\n"
            "print(s.get('jit.regions', 0) > 0, s.get('jit.materializations.store', 0) > 0, float(b[0]))\n")
    script = tmp_path / "top_level.py"
    script.write_text("import numpy as np\n" + body)
    assert run([str(script)]).stdout == "True True 1.7320508075688772\n"
    assert run(["-c", "import numpy as np\n" + body]).stdout == "True True 1.7320508075688772\n"
    (tmp_path / "own_module.py").write_text("import numpy as arrays\n")
    indirect = tmp_path / "indirect.py"
    indirect.write_text("from own_module import arrays as np\n" + body)
    assert run([str(indirect)]).stdout == "False False 1.7320508075688772\n"


@pytest.mark.parametrize("importing", ["import numpy as np", "import importlib\nnp = importlib.import_module('numpy')"])
def test_numpy_as_the_last_import_turns_the_jit_on_under_interp_all(tmp_path, importing):
    # Under NPY_INTERP=all NumPy's own import runs in npython's evaluator,
    # whose frames see NumPy in sys.modules before its import is over; when
    # NumPy is the program's last import, sys.modules changes no more. The
    # program records as much as with an import after NumPy's.
    work = "\nx = np.arange(1_000_000.0)\nprint((np.sqrt(x * 2.0 + 1.0) * 3.0).sum())\n"
    regions = {}
    for name, text in (("last", importing + work), ("then_json", importing + "\nimport json" + work)):
        script = tmp_path / f"{name}.py"
        script.write_text(text)
        stats = tmp_path / f"{name}.json"
        got = run([str(script)], NPY_INTERP="all", NPY_JIT_STATS=str(stats))
        assert got.stdout == harness.run(harness.PYTHON3, [str(script)]).stdout
        regions[name] = json.loads(stats.read_text()).get("jit.regions", 0)
    assert regions["last"] == regions["then_json"] > 0


def test_reading_a_clock_computes_pending_work_first(tmp_path):
    # A program's own timings measure its work, as under python3: the
    # region closes at the clock read after the work, not later.
    script = tmp_path / "timed.py"
    script.write_text("import time\n"
                      "import numpy as np\n"
                      "def f(x):\n"
                      "    start = time.perf_counter()\n"
                      "    y = np.sqrt(x * 2.0 + 1.0)\n"
                      "    took = time.perf_counter() - start\n"
                      "    return float(y[0]), took >= 0\n"
                      "print(f(np.ones(100000)))\n")
    got = run(["--explain", str(script)])
    assert got.stdout == "(1.7320508075688772, True)\n"
    rows = got.stderr.splitlines()[1:]
    assert any(r.endswith("materialized: a clock of module time is read: timings include pending work "
                          "at timed.py:6") for r in rows), rows
