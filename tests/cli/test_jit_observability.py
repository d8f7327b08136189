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
EAGER = str(FIXTURES / "eager_demo.py")


def eager_line(marker):
    return next(i for i, line in enumerate(open(EAGER), 1) if marker in line)


# The reasons and hints --explain and the fallback log give (numpy_shim/diagnostics.h).
NOT_COMPILED = "npython does not compile this NumPy function: NumPy runs it"
MATRIX = ("npython records matrix products of two float64 or two float32 arrays of 1 or 2 dimensions "
          "where an operand is pending or a region is open: NumPy computes this one at its call")
INT_POWER = ("npython leaves `**` on integers to NumPy unless the exponent is a Python int of 0 or more "
             "(a negative exponent raises an error, depending on the data)")
INT_POWER_HINT = "hint: a constant exponent (`x ** 3`) or a float array is compiled"
DTYPE = "npython compiles bool, integer, float32, float64 and complex128 arrays, not this dtype (complex64)"
DTYPE_HINT = "hint: use float64 or float32 arrays where the values allow"
TOP_LEVEL_HINT = "hint: move top-level loops into a function: "
ROW = re.compile(r" +(\d+\.\d{3}) ms +(\d+) x  (materialized|eager): (.+) at (\S+:\d+)(: .+)?")
HINT = re.compile(r" {26}hint: \S.*")
TIME_SHARES = re.compile(r"run time (\d+\.\d{3}) s: (\d+\.\d)% in compiled regions \((\d+\.\d{3}) s\), "
                         r"(\d+\.\d)% in eager NumPy calls \((\d+\.\d{3}) s\), "
                         r"(\d+\.\d)% in the interpreter \((\d+\.\d{3}) s: Python code, imports and start-up\); "
                         r"recording these diagnostics took (\d+\.\d{3}) s more")


def explain_report(stderr):
    """The --explain report's rows (each with the hint under it, or None) and
    its last line's time shares, checking the shape of every line."""
    lines = stderr.splitlines()
    assert re.fullmatch(r"npython --explain: \d+ region boundaries and eager NumPy calls, most costly first",
                        lines[0]), lines[0]
    shares = TIME_SHARES.fullmatch(lines[-1])
    assert shares, lines[-1]
    rows = []
    for line in lines[1:-1]:
        if HINT.fullmatch(line):
            assert rows and rows[-1][1] is None, line
            rows[-1] = (rows[-1][0], line.strip())
        else:
            assert ROW.fullmatch(line), line
            rows.append((line, None))
    return rows, shares


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
    assert got.stdout == expected_stdout()
    assert got.stderr.splitlines() == [f"[npython:fallback] np.sort at regions_demo.py:{SORT_LINE}: {NOT_COMPILED}"]


def test_fallback_log_lists_every_eager_numpy_call_with_its_line():
    # Each call of the loop's three rounds, on arrays the program holds (no
    # pending region): the matrix product, median and `**` run eagerly.
    got = run([EAGER], NPY_JIT_LOG="fallback")
    assert got.stdout == harness.run(harness.PYTHON3, [EAGER]).stdout
    lines = got.stderr.splitlines()
    assert all(l.startswith("[npython:fallback] ") for l in lines), lines
    expected = [
        f"np.median at eager_demo.py:{eager_line('the median line')}: {NOT_COMPILED}",
        f"`@` at eager_demo.py:{eager_line('the `@` line')}: {MATRIX}",
        f"`**` with an array of exponents at eager_demo.py:{eager_line('the `**` line')}: {INT_POWER}",
        f"`*` at eager_demo.py:{eager_line('the complex line')}: {DTYPE}",
    ]
    for entry in expected:
        assert lines.count("[npython:fallback] " + entry) == 3, (entry, lines)
    assert f"[npython:fallback] np.ones at eager_demo.py:{eager_line('complex64)')}: {DTYPE}" in lines


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


def test_calls_on_lazy_values_are_told_apart_numpy_or_not(tmp_path):
    # A lazy argument of a NumPy callable is a fallback, of any other a call:
    # built-in types (float, list; NumPy's np.float64) and built-in functions
    # (len, math.fabs) are told by their module, as CPython keeps it.
    program = tmp_path / "calls.py"
    program.write_text(
        "import math\n"
        "import numpy as np\n"
        "x = np.arange(4096.0)\n"
        "def f():\n"
        "    print(float((x * 2.0).sum()), len(x * 3.0), math.fabs((x - 1.0).sum()), list((x * 5.0)[:3]))\n"
        "    print(repr(np.float64((x * 4.0).sum())), np.ndim(x + 1.0))\n"
        "f()\n")
    out = tmp_path / "stats.json"
    got = run([str(program)], NPY_JIT_STATS=str(out))
    assert got.stdout == harness.run(harness.PYTHON3, [str(program)]).stdout
    stats = json.loads(out.read_text())
    assert stats["jit.materializations.call"] == 4
    assert stats["jit.materializations.fallback"] == 2


def test_stats_start_with_a_summary_paragraph():
    got = run([EAGER], NPY_JIT_STATS="1")
    summary, counters = got.stderr.split("\n\n", 1)
    assert counters.startswith("npython stats:\n")
    values = dict(re.findall(r"^  ([\w.]+) +(\d+)$", counters, re.M))
    assert all(len(line) <= 100 for line in summary.splitlines())
    text = " ".join(summary.splitlines())
    expected = (f"npython: {values['jit.regions']} regions ran {values['jit.region_ops']} operations in compiled "
                f"kernels ({values['jit.kernels_compiled']} kernels compiled, {values['jit.kernels_loaded']} "
                f"loaded from the disk cache, {values['jit.kernels_reused']} reused); "
                f"{values['jit.eager_calls']} NumPy calls and operators ran eagerly; run time ")
    assert text.startswith(expected), text
    assert int(values["jit.eager_calls"]) >= 13  # 4 operations x 3 rounds, np.ones, small sums
    shares = re.search(r"run time \d+\.\d{3} s: \d+\.\d% in compiled regions \(\d+\.\d{3} s\), "
                       r"\d+\.\d% in eager NumPy calls \(\d+\.\d{3} s\), \d+\.\d% in the interpreter", text)
    assert shares, text
    top = max((int(v), k) for k, v in values.items() if k.startswith("jit.materializations."))
    assert re.search(r"Regions ended most often because: .+ \(%d of %s\)\." % (top[0], values["jit.regions"]), text), text
    assert text.endswith("npython --explain names each operation and line; NPY_JIT_LOG=fallback logs each eager call.")


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
    rows, _ = explain_report(got.stderr)
    rows = [r for r, _ in rows]
    assert any(f"materialized: value decides an `if` or `while` at regions_demo.py:{IF_LINE}" in r for r in rows)
    assert any(r.endswith(f"eager: np.sort at regions_demo.py:{SORT_LINE}: {NOT_COMPILED}") for r in rows), rows
    costs = [float(r.split()[0]) for r in rows]
    assert costs == sorted(costs, reverse=True)


def test_explain_names_each_eager_operation_with_its_reason_and_ends_with_time_shares():
    got = run(["--explain", EAGER])
    assert got.stdout == harness.run(harness.PYTHON3, [EAGER]).stdout
    rows, shares = explain_report(got.stderr)
    hints = {ROW.fullmatch(r).group(3, 4, 5, 6): h for r, h in rows}
    counts = {ROW.fullmatch(r).group(3, 4, 5, 6): int(ROW.fullmatch(r).group(2)) for r, _ in rows}
    power = eager_line("the `**` line")
    matmul = eager_line("the `@` line")
    median = eager_line("the median line")
    complex_line = eager_line("the complex line")
    expected = {
        ("eager", "`**` with an array of exponents", f"eager_demo.py:{power}", f": {INT_POWER}"): INT_POWER_HINT,
        ("eager", "`@`", f"eager_demo.py:{matmul}", f": {MATRIX}"): None,
        ("eager", "np.median", f"eager_demo.py:{median}", f": {NOT_COMPILED}"): None,
        ("eager", "`*`", f"eager_demo.py:{complex_line}", f": {DTYPE}"): DTYPE_HINT,
        # The pending values the operations read, computed first: the
        # materialization names the operation.
        # Each region's row ends with its plan in a few words.
        ("materialized", "operand of an operation npython does not trace (`**` with an array of exponents)",
         f"eager_demo.py:{power}", ": planned as 1 compiled loop"): None,
        ("materialized", "operand of an operation npython does not trace (`@`)",
         f"eager_demo.py:{matmul}", ": planned as 1 compiled loop"): None,
    }
    for key, hint in expected.items():
        assert key in hints, (key, rows)
        assert hints[key] == hint, (key, hints[key])
        assert counts[key] == 3, (key, counts[key])
    # A top-level loop assigns a global in each round: the hint is to move
    # the loop into a function; a single top-level assignment has none.
    store = "stored into a container, attribute, global or array (STORE_NAME)"
    loop_key = ("materialized", store, f"eager_demo.py:{eager_line('the top-level loop')}",
                ": planned as 1 compiled loop")
    assert hints[loop_key].startswith(TOP_LEVEL_HINT), hints[loop_key]
    single = ("materialized", store, f"eager_demo.py:{eager_line('np.arange(50_000)')}",
              ": planned as 1 compiled loop")
    assert single in hints and hints[single] is None
    # The shares: of the run time, adding up to it.
    total, compiled_pct, compiled, eager_pct, eager, interp_pct, interp, _ = map(float, shares.groups())
    assert abs(compiled + eager + interp - total) <= 0.003
    assert abs(compiled_pct + eager_pct + interp_pct - 100.0) <= 0.2
    eager_ms = sum(float(ROW.fullmatch(r).group(1)) for r, _ in rows if ROW.fullmatch(r).group(3) == "eager")
    assert eager_ms > 0 and abs(eager_ms / 1e3 - eager) <= 0.002


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
                          "at timed.py:6: planned as 1 compiled loop") for r in rows), rows


def test_explain_gives_each_region_its_plan(tmp_path):
    # A row softmax whose arrays overflow the cache model's last-level cache
    # (NPY_CACHE_SIZES): three loops run block by block; the view after
    # them is NumPy's to make.
    script = tmp_path / "softmax.py"
    script.write_text("import numpy as np\n"
                      "def softmax(s):\n"
                      "    e = np.exp(s - s.max(axis=1, keepdims=True))\n"
                      "    return e / e.sum(axis=1, keepdims=True)\n"
                      "s = np.random.default_rng(0).standard_normal((2000, 1000))\n"
                      "print(softmax(s)[0, :2])\n")
    got = run(["--explain", str(script)], NPY_CACHE_SIZES="1048576,65536")
    rows, _ = explain_report(got.stderr)
    plans = [ROW.fullmatch(r).group(6) for r, _ in rows if ROW.fullmatch(r).group(3) == "materialized"]
    assert ": planned as 3 compiled loops (steps 1-3 block by block) and 1 NumPy call" in plans, rows
