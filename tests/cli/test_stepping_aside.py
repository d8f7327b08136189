"""Where npython steps aside (a tracer or profiler is active, a NumPy it does
not run with), the program runs on as under python3, and npython says so:
once on stderr when NPY_JIT_LOG is set, and at the top of --explain always."""
import textwrap

import harness

PROGRAM = textwrap.dedent("""\
    import sys

    import numpy as np


    def f(a):
        return ((a * 2.0 + 1.0) ** 2).sum()


    if len(sys.argv) > 1 and sys.argv[1] == "settrace":
        sys.settrace(lambda *args: None)
    a = np.arange(100_000, dtype=np.float64)
    for _ in range(3):
        print(repr(f(a)))
    """)

TRACING = ("a tracer or profiler is active (sys.settrace or sys.setprofile: a debugger, coverage, cProfile); "
           "the frames it sees run in CPython's own evaluator, without regions")


def both(tmp_path, args, env_extra=None):
    script = tmp_path / "work.py"
    script.write_text(PROGRAM)
    args = [str(script) if a == "SCRIPT" else a for a in args]
    expected = harness.run(harness.PYTHON3, [a for a in args if a != "--explain"], env_extra=env_extra)
    got = harness.run(harness.NPYTHON, args, env_extra=env_extra)
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout
    return got


def test_explain_says_a_profiler_made_it_step_aside(tmp_path):
    got = both(tmp_path, ["--explain", "-m", "cProfile", "-o", str(tmp_path / "profile.out"), "SCRIPT"])
    lines = got.stderr.splitlines()
    assert lines[0] == "npython stepped aside: " + TRACING
    assert lines[1].startswith("npython --explain: ")


def test_a_log_says_once_that_a_tracer_made_it_step_aside(tmp_path):
    got = both(tmp_path, ["SCRIPT", "settrace"], env_extra={"NPY_JIT_LOG": "fallback"})
    assert got.stderr.count("npython: " + TRACING + "\n") == 1


def test_nothing_is_said_without_a_log_or_explain(tmp_path):
    got = both(tmp_path, ["SCRIPT", "settrace"])
    assert got.stderr == ""


def test_a_numpy_whose_c_api_does_not_load_runs_without_regions(tmp_path):
    # A stand-in for a NumPy npython does not run with: a package named
    # numpy whose extension module lacks the C API.
    core = tmp_path / "fake" / "numpy" / "_core"
    core.mkdir(parents=True)
    (tmp_path / "fake" / "numpy" / "__init__.py").write_text('__version__ = "1.26.4"\n')
    (core / "__init__.py").write_text("")
    (core / "_multiarray_umath.py").write_text("")
    script = tmp_path / "uses_numpy.py"
    script.write_text("import numpy\n\ndef f(x):\n    return x + 1\n\nprint(numpy.__version__, f(41))\n")
    env = {"PYTHONPATH": str(tmp_path / "fake")}
    expected = harness.run(harness.PYTHON3, [str(script)], env_extra=env)
    got = harness.run(harness.NPYTHON, ["--explain", str(script)], env_extra=env)
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout == "1.26.4 42\n"
    first = got.stderr.splitlines()[0]
    assert first.startswith("npython stepped aside: NumPy 1.26.4 is not one npython runs with, "
                            "so NumPy runs every operation itself ("), first
