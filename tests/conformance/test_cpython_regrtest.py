"""CPython's own regression tests are the evaluator's specification: with
NPY_INTERP=all, npython must pass the same tests as python3 (same numbers
run and skipped) while evaluating at least 95% of the frames it may not
hand to CPython (generator frames and traced frames it may)."""
import concurrent.futures
import json
import re
from pathlib import Path

import harness

HERE = Path(__file__).resolve().parent
# Tests that skip themselves when the machine is fast enough: their run/skip
# count would differ between two runs of the same interpreter.
TIMED_SKIPS = ["test_denial_of_service_prevented_int_to_str",
               "test_denial_of_service_prevented_str_to_int"]
IGNORE_TIMED = [arg for name in TIMED_SKIPS for arg in ("-i", name)]
MODULES = HERE.joinpath("modules.txt").read_text().split()
REQUIRED_SHARE = 0.95
ALLOWED_HANDOVERS = ("frames.to_cpython.generator", "frames.to_cpython.tracing")


def totals(output):
    match = re.search(r"^Total tests: run=([\d,]+)(?: \(filtered\))?(?: failures=[\d,]+)?(?: skipped=([\d,]+))?$",
                      output, re.M)
    assert match, output[-3000:]
    return (int(match.group(1).replace(",", "")),
            int((match.group(2) or "0").replace(",", "")))


def test_regrtest_modules_pass_like_python3(tmp_path):
    # python3's run and npython's side by side, each in a folder of its own.
    (tmp_path / "python3").mkdir()
    (tmp_path / "npython").mkdir()
    stats_file = tmp_path / "stats.json"
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        python3_run = pool.submit(harness.run, harness.PYTHON3, ["-m", "test", "-q", *IGNORE_TIMED, *MODULES],
                                  cwd=tmp_path / "python3", timeout=1200)
        npython_run = pool.submit(harness.run, harness.NPYTHON,
                                  [str(HERE / "regrtest_with_stats.py"), str(stats_file), "-q", *IGNORE_TIMED, *MODULES],
                                  cwd=tmp_path / "npython", env_extra={"NPY_INTERP": "all"}, timeout=1200)
        expected, got = python3_run.result(), npython_run.result()
    assert "Result: SUCCESS" in expected.stdout, expected.stdout[-3000:]
    assert "Result: SUCCESS" in got.stdout, got.stdout[-5000:] + got.stderr[-3000:]
    assert got.returncode == 0
    assert totals(got.stdout) == totals(expected.stdout)

    stats = json.loads(stats_file.read_text())
    evaluated = stats["frames.evaluated"]
    not_allowed = sum(v for k, v in stats.items()
                      if k.startswith("frames.to_cpython.") and k not in ALLOWED_HANDOVERS)
    share = evaluated / (evaluated + not_allowed)
    run, skipped = totals(got.stdout)
    harness.report(f"conformance: {len(MODULES)} regrtest modules, run={run} skipped={skipped} "
                   f"as python3; npython evaluated {evaluated} frames, handed {not_allowed} to "
                   f"CPython for other reasons than generators and tracing: {share:.6%} evaluated")
    assert share >= REQUIRED_SHARE
