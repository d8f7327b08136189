"""The JIT stays on where the program sees floating-point errors at once:
pytest's warnings capture, -W error, catch_warnings(record=True) and
np.errstate(...='raise'). Regions then end with their line (the counter
jit.materializations.line_end), and the program sees what python3 shows it.
The differential corpus (149_errors_at_their_line.py) checks the values and
where each exception and warning comes from; these tests check that regions
ran at all."""
import json
import re
import textwrap

import pytest

import harness

NUMPY_TESTS = textwrap.dedent("""\
    import warnings

    import numpy as np
    import pytest

    x = np.linspace(-2.0, 800.0, 40_000)


    def scaled(v):
        return (v * 2.0 + 1.0) ** 2


    def test_sum():
        assert scaled(x).sum() > 0


    def test_overflow_warns():
        with pytest.warns(RuntimeWarning, match="overflow encountered in exp"):
            y = np.exp(x) * 2.0
        assert np.isinf(y).sum() > 0


    def test_invalid_raises():
        with np.errstate(invalid="raise"):
            with pytest.raises(FloatingPointError, match="invalid value encountered in sqrt"):
                np.sqrt(x) + 1.0


    def test_records_in_order():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            a = np.sqrt(x) * 2.0
            b = np.log(x) + 1.0
            assert len(caught) == 2
        assert [str(w.message) for w in caught] == [
            "invalid value encountered in sqrt", "invalid value encountered in log"]


    def test_fails_on_purpose():
        assert scaled(x)[0] == 10.0
    """)

SCRIPT = textwrap.dedent("""\
    import sys
    import warnings

    import numpy as np

    x = np.linspace(-2.0, 800.0, 40_000)


    def work():
        total = 0.0
        for k in range(5):
            total += float(((x * k - 1.0) ** 2).sum())
        print(repr(total))
        try:
            y = np.sqrt(x) * 2.0
            print("no error", float(np.nansum(y)))
        except (RuntimeWarning, FloatingPointError) as e:
            print(type(e).__name__, e)


    if sys.argv[1] == "record":
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            work()
        print([str(w.message) for w in caught])
    elif sys.argv[1] == "raise":
        with np.errstate(all="raise"):
            work()
    else:
        work()
    """)


def without_times(stdout):
    """pytest's report without the time its last line gives."""
    return re.sub(r" in [0-9.]+s( \([0-9:]+\))?( =+)?$", "", stdout.strip())


def test_pytest_runs_numpy_tests_with_the_jit_on(tmp_path):
    tests = tmp_path / "test_numpy_work.py"
    tests.write_text(NUMPY_TESTS)
    args = ["-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)]
    expected = harness.run(harness.PYTHON3, args, cwd=tmp_path)
    stats = tmp_path / "stats.json"
    got = harness.run(harness.NPYTHON, args, cwd=tmp_path, env_extra={"NPY_JIT_STATS": str(stats)})
    assert without_times(expected.stdout).splitlines()[-1] == "1 failed, 4 passed, 1 warning"
    # The same report: the failure, and the warning with its line.
    assert without_times(got.stdout) == without_times(expected.stdout)
    assert got.returncode == expected.returncode
    counters = json.loads(stats.read_text())
    assert counters["jit.regions"] >= 5
    assert counters["jit.materializations.line_end"] >= 1


@pytest.mark.parametrize("how", [(["-W", "error"], "plain"), ([], "record"), ([], "raise")],
                         ids=["W_error", "record", "errstate_raise"])
def test_errors_seen_at_once_keep_regions(tmp_path, how):
    options, mode = how
    script = tmp_path / "work.py"
    script.write_text(SCRIPT)
    expected = harness.run(harness.PYTHON3, [*options, str(script), mode])
    stats = tmp_path / "stats.json"
    got = harness.run(harness.NPYTHON, [*options, str(script), mode], env_extra={"NPY_JIT_STATS": str(stats)})
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout
    counters = json.loads(stats.read_text())
    assert counters["jit.regions"] >= 6
    assert counters["jit.materializations.line_end"] >= 1
    assert counters["jit.reruns_for_fp_reports"] >= 1
