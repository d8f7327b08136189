"""The differential corpus: every program in corpus/ runs under python3 and
under npython in each mode, and stdout, stderr and exit status must match."""
import functools
import os
from pathlib import Path

import pytest

import harness

CORPUS = Path(__file__).resolve().parent / "corpus"
PROGRAMS = sorted(p.name for p in CORPUS.glob("[0-9]*.py"))


@functools.lru_cache(maxsize=None)
def reference(program):
    return harness.run(harness.PYTHON3, [program], cwd=CORPUS)


def test_corpus_is_large_enough():
    assert len(PROGRAMS) >= 40


# Set by scripts/test.sh when NPYTHON is the AddressSanitizer build.
SANITIZED = os.environ.get("NPYTHON_SANITIZED") == "1"
# The sanitized build runs the modes whose C++ paths differ: not eager
# (NPY_JIT=off is CPython alone) and not sse2, which differs from jit in the
# generated machine code, which the sanitizers do not instrument (the
# driver's handling of each vector width is x86_widths_test's, which
# scripts/test.sh runs in the sanitized build too).
MODES_RUN = ("blocks", "interp_all", "jit") if SANITIZED else sorted(harness.MODES)


@pytest.mark.parametrize("mode", MODES_RUN)
@pytest.mark.parametrize("program", PROGRAMS)
def test_program_matches_python3(program, mode):
    if SANITIZED and "# diff: not under sanitizers" in (CORPUS / program).read_text():
        pytest.skip("the program's output depends on the sanitizer build (see its header)")
    expected = reference(program)
    got = harness.run(harness.NPYTHON, [program], cwd=CORPUS, env_extra=harness.MODES[mode])
    assert got.stdout == expected.stdout
    assert got.stderr == expected.stderr
    assert got.returncode == expected.returncode
