"""The differential corpus: every program in corpus/ runs under python3 and
under npython in each mode, and stdout, stderr and exit status must match."""
import functools
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


@pytest.mark.parametrize("mode", sorted(harness.MODES))
@pytest.mark.parametrize("program", PROGRAMS)
def test_program_matches_python3(program, mode):
    expected = reference(program)
    got = harness.run(harness.NPYTHON, [program], cwd=CORPUS, env_extra=harness.MODES[mode])
    assert got.stdout == expected.stdout
    assert got.stderr == expected.stderr
    assert got.returncode == expected.returncode
