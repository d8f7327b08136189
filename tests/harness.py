"""Runs a command under python3 and under npython and puts the results in a
form that can be compared: the same program must print the same, fail the
same and exit the same under both.
"""
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The reference: the CPython that npython embeds, run directly (not through a
# shim script) so that both interpreters see the same standard library.
PYTHON3 = sys.executable
NPYTHON = os.path.abspath(os.environ.get("NPYTHON", str(REPO / "build" / "npython")))
INTERPRETER_PLACEHOLDER = "<python>"

# The ways npython is run by the differential tests.
MODES = {
    "jit": {},
    "eager": {"NPY_JIT": "off"},
    "interp_all": {"NPY_INTERP": "all"},
    # The kernels every x86-64 CPU runs (SSE2), on this machine too.
    "sse2": {"NPY_VECTOR_ISA": "sse2"},
    # Caches so small that steps sharing their rows run block by block
    # wherever they may (jit/schedule.h), whatever the arrays' sizes.
    "blocks": {"NPY_CACHE_SIZES": "4K,16K"},
}


# Lines a test wants shown after pytest's summary (figures a run measured).
REPORT = []


def report(line):
    REPORT.append(line)


@dataclass(frozen=True)
class Outcome:
    returncode: int
    stdout: str
    stderr: str


def base_env():
    """The caller's environment without npython's logging controls, whose
    output on stderr would differ between the interpreters by design."""
    env = dict(os.environ)
    for name in list(env):
        if name.startswith("NPY_") and name not in ("NPY_THREADS", "NPY_KERNEL_CACHE"):
            del env[name]
    return env


def normalise(text, interpreter):
    # The interpreter's own path or name, as it appears in its messages
    # ("usage: python3 ...", "python3: can't open file ..."), is the only
    # thing allowed to differ.
    return text.replace(interpreter, INTERPRETER_PLACEHOLDER)


def run(interpreter, args, *, cwd=None, env_extra=None, stdin=None, timeout=120):
    env = base_env()
    env.update(env_extra or {})
    proc = subprocess.run(
        [interpreter, *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=timeout,
    )
    return Outcome(
        proc.returncode,
        normalise(proc.stdout, interpreter),
        normalise(proc.stderr, interpreter),
    )


def run_both(args, *, mode="jit", **kwargs):
    """(python3's outcome, npython's outcome) for the same command line."""
    extra = dict(kwargs.pop("env_extra", None) or {})
    reference = run(PYTHON3, args, env_extra=extra, **kwargs)
    extra.update(MODES[mode])
    return reference, run(NPYTHON, args, env_extra=extra, **kwargs)


def run_with_stats(script, args, env_extra):
    """Runs `script args` under python3 and under npython (with `env_extra`
    and NPY_JIT_STATS, which must not be in it); both must exit 0 with the
    same stdout. (npython's JIT counters, python3's outcome, npython's outcome)."""
    stats = Path(script).with_name(Path(script).stem + "-stats.json")
    expected = run(PYTHON3, [str(script), *args])
    got = run(NPYTHON, [str(script), *args], env_extra={**env_extra, "NPY_JIT_STATS": str(stats)})
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout
    return json.loads(stats.read_text()), expected, got

