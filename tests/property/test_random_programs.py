"""Property test: random NumPy programs print the same under npython as under
python3.

Hypothesis (program_gen.programs) generates programs: an expression DAG of 1
to 12 NumPy operations over 1 to 4 seeded random arrays of mixed dtypes,
shapes that broadcast (or, sometimes, do not), strided and reversed views,
Python and NumPy scalars, reductions with every kind of axis. Each program is
a function run inside try/except, under np.errstate(all='ignore') or with
NumPy's default error handling (whose warnings go to stderr); it prints its
exception, or for every result its type, dtype, shape, strides, a digest of
its bytes, the bytes themselves when small, and the rule its values are
compared by (see program_gen's docstring).

Programs are run in batches, one script per batch, once under python3 and once
under npython (concurrently). Per program: the exception (type and message),
the sequence of results with type, dtype, shape and strides, and the stderr it
wrote must be identical; values must be bitwise identical where the digests
differ unless the program's tag for the result allows a tolerance, in which
case the batch is run again printing those results in full and the values are
checked against the tolerance.

Environment:
  NPYTHON_PROPERTY_PROGRAMS  number of programs (default 2400)
  NPYTHON_PROPERTY_BATCH     programs per script (default 300)
  NPYTHON_PROPERTY_SEED      Hypothesis seed (default 20261122): generation is
                             database-less and seeded, so a run is reproducible
  NPYTHON_PROPERTY_KEEP      a folder to keep the generated scripts and the
                             reproducers of failing programs in
"""
import math
import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

import harness
import program_gen

N_PROGRAMS = int(os.environ.get("NPYTHON_PROPERTY_PROGRAMS", "2400"))
BATCH_SIZE = int(os.environ.get("NPYTHON_PROPERTY_BATCH", "300"))
SEED = int(os.environ.get("NPYTHON_PROPERTY_SEED", "20261122"))
KEEP = os.environ.get("NPYTHON_PROPERTY_KEEP")
RUN_TIMEOUT = 600
# Failing programs shown in the assertion message, and how many of them are
# reduced to a smaller reproducer (each reduction step runs both interpreters).
SHOWN_FAILURES = 8
MINIMIZED_FAILURES = 4
MINIMIZE_RUNS = 24


# ---- generation ----

def generate_programs(n, base_seed):
    """n distinct programs from the strategy, reproducibly (fixed seeds, no
    example database, no shrinking: a failure is reported by program)."""
    found, seen = [], set()
    round_ = 0
    while len(found) < n:
        @seed(base_seed + round_)
        @settings(max_examples=max(int((n - len(found)) * 1.35), 50), database=None,
                  deadline=None, derandomize=False, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck), print_blob=False)
        @given(program_gen.programs())
        def collect(program):
            if len(found) >= n:
                return
            # Programs that differ only by the seed of their data are one program.
            key = program.render(0).replace(f"default_rng({program.seed})", "")
            if key not in seen:
                seen.add(key)
                found.append(program)

        collect()
        round_ += 1
        if round_ > 20:
            break
    return found


# ---- running ----

@dataclass
class Output:
    returncode: int
    stdout: str
    stderr: str
    seconds: float


def run_pair(script, args=(), cwd=None):
    """(python3's Output, npython's Output) for `script args`, run concurrently."""
    env = harness.base_env()
    procs = []
    for interpreter in (harness.PYTHON3, harness.NPYTHON):
        out = tempfile.TemporaryFile()
        err = tempfile.TemporaryFile()
        start = time.monotonic()
        proc = subprocess.Popen([interpreter, str(script), *args], cwd=cwd, env=env,
                                stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        procs.append((interpreter, proc, out, err, start))
    results = []
    for interpreter, proc, out, err, start in procs:
        try:
            proc.wait(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        seconds = time.monotonic() - start
        texts = []
        for f in (out, err):
            f.seek(0)
            texts.append(harness.normalise(f.read().decode("utf-8", "replace"), interpreter))
            f.close()
        results.append(Output(proc.returncode, texts[0], texts[1], seconds))
    return results[0], results[1]


# ---- parsing ----

@dataclass
class Record:
    letter: str      # R: a result, S: the scale of a float sum result
    call: int
    j: int
    tag: str
    typename: str
    dtype: str
    shape: str
    strides: str
    digest: str
    payload: object  # bytes, or None when not printed

    def header(self):
        return (self.letter, self.call, self.j, self.tag, self.typename, self.dtype, self.shape,
                self.strides)

    def describe(self):
        return (f"{'result' if self.letter == 'R' else 'scale of result'} {self.j} "
                f"(call {self.call}): {self.typename} dtype={self.dtype} "
                f"shape=({self.shape.replace('-', '')}) strides=({self.strides.replace('-', '')})")


@dataclass
class ProgramOutput:
    begun: bool = False
    ended: bool = False
    records: list = field(default_factory=list)
    error: object = None    # (type name, message repr)
    other: list = field(default_factory=list)  # stdout lines we did not expect
    stderr: str = ""


def parse(output):
    programs = {}
    current = None
    for line in output.stdout.splitlines():
        parts = line.split(" ")
        try:
            if parts[0] == "B":
                current = programs.setdefault(int(parts[1]), ProgramOutput())
                current.begun = True
                continue
            if parts[0] == "Z":
                programs.setdefault(int(parts[1]), ProgramOutput()).ended = True
                continue
            if parts[0] in ("R", "S") and len(parts) == 11:
                i = int(parts[1])
                payload = None if parts[10] == "-" else bytes.fromhex("" if parts[10] == "=" else parts[10])
                programs.setdefault(i, ProgramOutput()).records.append(Record(
                    parts[0], int(parts[2]), int(parts[3]), parts[4], parts[5], parts[6], parts[7],
                    parts[8], parts[9], payload))
                continue
            if parts[0] == "E" and len(parts) >= 4:
                name, message = line.split(" ", 3)[2:]
                programs.setdefault(int(parts[1]), ProgramOutput()).error = (name, message)
                continue
        except ValueError:
            pass
        if current is not None:
            current.other.append(line)
    # stderr: each program's part starts with its marker line "@@ i"
    chunks = re.split(r"^@@ (\d+)\n", output.stderr, flags=re.M)
    preamble = chunks[0]
    for k in range(1, len(chunks), 2):
        programs.setdefault(int(chunks[k]), ProgramOutput()).stderr = chunks[k + 1]
    return programs, preamble


# ---- value comparison ----

def _as_array(record):
    dtype = np.dtype(record.dtype)
    shape = tuple(int(d) for d in record.shape.split(",")) if record.shape != "-" else ()
    return np.frombuffer(record.payload, dtype=dtype).reshape(shape)


def _show(x):
    return repr(x.item()) if hasattr(x, "item") else repr(x)


def check_values(ref, got, scale=None):
    """Problems (strings) with got's values against ref's, by ref's tag;
    both records have payloads and equal headers."""
    a, b = _as_array(ref), _as_array(got)
    tag = ref.tag
    if a.dtype.kind != "f" or tag == "bits":
        if a.dtype.kind == "f":
            # Bitwise, but any NaN equals any NaN (NumPy itself gives NaNs of
            # either sign depending on the loop that made them).
            same = (a.view(f"u{a.itemsize}") == b.view(f"u{a.itemsize}")) | (np.isnan(a) & np.isnan(b))
        else:
            same = a.view(f"u{a.itemsize}") == b.view(f"u{a.itemsize}") if a.dtype.kind != "b" else a == b
        bad = ~same
        return _mismatches(a, b, bad, "bitwise", None)
    eps = float(np.finfo(a.dtype).eps)
    tiny = float(np.finfo(a.dtype).smallest_subnormal)
    ra, rb = a.astype(np.float64), b.astype(np.float64)
    finite = np.isfinite(ra) & np.isfinite(rb)
    kind, _, rest = tag.partition(":")
    skip = np.zeros(a.shape, bool)
    if kind == "ulp":
        k = int(rest)
        tol = k * np.spacing(np.abs(a)).astype(np.float64)
    elif kind in ("sum", "mean"):
        n, k = (int(v) for v in rest.split(":"))
        if scale is None:
            return [f"result of tag {tag} has no scale to compare with"]
        s = np.broadcast_to(_as_array(scale).astype(np.float64), a.shape)
        skip = ~np.isfinite(s)
        with np.errstate(all="ignore"):
            tol = ((n + 2) * eps + 2 * k * eps) * s + (n + 2) * tiny
    elif kind in ("prod", "norm"):
        n, k = (int(v) for v in rest.split(":"))
        rel = (n + 2 + n * k) if kind == "prod" else (n + 2 + 2 * k)
        tol = 2 * rel * eps * np.abs(ra) + (n + 2) * tiny
    else:  # approx
        rtol = {2: 1e-2, 4: 1e-4, 8: 1e-10}[a.itemsize]
        top = np.max(np.abs(ra[np.isfinite(ra)]), initial=0.0)
        tol = rtol * (np.abs(ra) + top)
    with np.errstate(all="ignore"):
        diff = np.abs(ra - rb)
    # Non-finite values must be the same (NaN, +inf or -inf), except where a
    # sum's scale overflowed.
    same_class = (np.isnan(ra) == np.isnan(rb)) & (np.isposinf(ra) == np.isposinf(rb)) & \
                 (np.isneginf(ra) == np.isneginf(rb))
    bad = ~skip & ((~finite & ~same_class) | (finite & (diff > tol)))
    return _mismatches(a, b, bad, tag, tol)


def _mismatches(a, b, bad, rule, tol):
    count = int(np.count_nonzero(bad))
    if not count:
        return []
    lines = [f"{count} of {a.size} values differ beyond the rule '{rule}'"]
    for index in list(zip(*np.nonzero(bad)))[:5] if a.ndim else [()]:
        t = "" if tol is None else f" (tolerance {float(np.asarray(tol)[index]):.3g})"
        lines.append(f"  at {tuple(int(i) for i in index)}: python3 {_show(a[index])}, "
                     f"npython {_show(b[index])}{t}")
    return lines


# ---- comparison per program ----

def compare_program(i, ref, got, npython_rc):
    """(problems, indices of records that need full values)."""
    problems, need_full = [], []
    if ref is None or not ref.ended:
        return [f"python3 did not finish program {i} (the generator made a program that "
                f"stops the process)"], []
    if got is None or not got.begun:
        return [f"npython never started program {i} (it exited with status {npython_rc} "
                f"during an earlier program)"], []
    if not got.ended:
        problems.append(f"npython stopped during program {i} (exit status {npython_rc})")
    if ref.error != got.error:
        problems.append(f"exception: python3 {_error_text(ref.error)}, npython {_error_text(got.error)}")
    if ref.other != got.other:
        problems.append(f"other output: python3 {ref.other!r}, npython {got.other!r}")
    refs, gots = ref.records, got.records
    if [r.header()[:3] for r in refs] != [g.header()[:3] for g in gots]:
        problems.append(f"results printed: python3 {len(refs)} records "
                        f"{[r.header()[:3] for r in refs]}, npython {len(gots)} "
                        f"{[g.header()[:3] for g in gots]}")
    scales = {(r.call, r.j): r for r in refs if r.letter == "S"}
    for k, (r, g) in enumerate(zip(refs, gots)):
        if r.header() != g.header():
            problems.append(f"python3 {r.describe()}\n    npython {g.describe()}")
            continue
        if r.digest == g.digest:
            continue
        if r.payload is None or g.payload is None:
            need_full.append(k)
            continue
        scale = scales.get((r.call, r.j)) if r.letter == "R" else None
        if scale is not None and scale.payload is None:
            need_full.append(k)
            continue
        if r.letter == "S":
            n = 1 << 30  # checked through the results they scale; only sanity here
            rr = Record(**{**r.__dict__, "tag": f"norm:{n}:0"})
            bad = check_values(rr, g)
        else:
            bad = check_values(r, g, scale)
        if bad:
            problems.append(f"{r.describe()} [{r.tag}]: " + "\n    ".join(bad))
    if ref.stderr != got.stderr:
        problems.append("stderr differs:\n" + _stderr_diff(ref.stderr, got.stderr))
    return problems, need_full


def _error_text(error):
    return "no exception" if error is None else f"{error[0]}: {error[1]}"


def _stderr_diff(a, b):
    import difflib
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "python3", "npython",
                                      lineterm="", n=1))
    if len(lines) > 40:
        lines = lines[:40] + [f"... ({len(lines) - 40} more lines)"]
    return "\n".join("    " + line for line in lines)


# ---- the test ----

@dataclass
class Failure:
    index: int
    program: object
    problems: list
    script: Path
    reproducer: Path = None
    minimized: str = None


def compare_batch(batch, ref_out, got_out):
    ref, ref_pre = parse(ref_out)
    got, got_pre = parse(got_out)
    failures, need_full = {}, {}
    for i, program in batch:
        problems, full = compare_program(i, ref.get(i), got.get(i), got_out.returncode)
        if problems:
            failures[i] = problems
        elif full:
            need_full[i] = full
    if ref_pre != got_pre:
        failures.setdefault(batch[0][0], []).append(
            "stderr before the first program differs:\n" + _stderr_diff(ref_pre, got_pre))
    return failures, need_full


def standalone(index, program, **variant):
    return program_gen.HEADER + program.render(index, **variant) + program_gen.FOOTER


def still_fails(index, program, folder, name, **variant):
    path = folder / name
    path.write_text(standalone(index, program, **variant))
    ref_out, got_out = run_pair(path, cwd=folder)
    ref, _ = parse(ref_out)
    got, _ = parse(got_out)
    if ref.get(index) is None or not ref[index].ended:
        return False
    problems, need_full = compare_program(index, ref.get(index), got.get(index), got_out.returncode)
    if need_full and not problems:
        ref_out, got_out = run_pair(path, [str(index)], cwd=folder)
        ref, _ = parse(ref_out)
        got, _ = parse(got_out)
        problems, _ = compare_program(index, ref.get(index), got.get(index), got_out.returncode)
    return bool(problems)


def minimize(failure, folder):
    """A smaller program showing a discrepancy: fewer results, one call, fewer
    operations. Returns its source, or None."""
    program = failure.program
    i = failure.index
    runs = 0
    if not still_fails(i, program, folder, f"repro_{i}.py"):
        return None
    runs += 1
    best = program
    # One result at a time, with only the operations it needs.
    if len(best.results) > 1 and not best.nodes[-1].fails:
        for j in range(len(best.results)):
            candidate = best.restricted([j])
            runs += 1
            if still_fails(i, candidate, folder, f"repro_{i}_try.py"):
                best = candidate
                break
    else:
        best = best.restricted(list(range(len(best.results))))
        runs += 1
        if not still_fails(i, best, folder, f"repro_{i}_try.py"):
            best = program
    if best.calls > 1:
        candidate = best.with_calls(1)
        runs += 1
        if still_fails(i, candidate, folder, f"repro_{i}_try.py"):
            best = candidate
    # Drop operations one by one (from the last) while the discrepancy stays.
    k = len(best.nodes) - 1
    while k >= 0 and runs < MINIMIZE_RUNS:
        candidate = best.without_node(k)
        if candidate is not None:
            runs += 1
            if still_fails(i, candidate, folder, f"repro_{i}_try.py"):
                best = candidate
        k -= 1
    path = folder / f"repro_{i}_min.py"
    path.write_text(standalone(i, best))
    return best.render(i)


def test_random_programs_match_python3(tmp_path):
    folder = Path(KEEP) if KEEP else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    programs = generate_programs(N_PROGRAMS, SEED)
    generated = time.monotonic() - start
    assert len(programs) >= min(N_PROGRAMS, 2000), f"only {len(programs)} distinct programs generated"

    indexed = list(enumerate(programs))
    batches = [indexed[k:k + BATCH_SIZE] for k in range(0, len(indexed), BATCH_SIZE)]
    failures = []
    seconds = {"python3": 0.0, "npython": 0.0}
    traced = 0
    for number, batch in enumerate(batches):
        script = folder / f"batch_{number:02d}.py"
        script.write_text(program_gen.render_script(batch))
        ref_out, got_out = run_pair(script, cwd=folder)
        seconds["python3"] += ref_out.seconds
        seconds["npython"] += got_out.seconds
        by_index, need_full = compare_batch(batch, ref_out, got_out)
        if need_full:
            # The same batch again, printing those programs' results in full
            # (the whole batch, so that they run in the same state).
            wanted = ",".join(str(i) for i in sorted(need_full))
            ref_full, got_full = run_pair(script, [wanted], cwd=folder)
            again, _ = compare_batch([p for p in batch if p[0] in need_full], ref_full, got_full)
            by_index.update(again)
        programs_by_index = dict(batch)
        for i in sorted(by_index):
            failures.append(Failure(i, programs_by_index[i], by_index[i], script))
        traced += sum(1 for _, p in batch if p.is_big())
    elapsed = time.monotonic() - start
    harness.report(
        f"random programs: {len(programs)} programs ({traced} with an input of 16384+ elements) "
        f"in {len(batches)} batches, {len(failures)} differ; generation {generated:.1f} s, "
        f"python3 {seconds['python3']:.1f} s, npython {seconds['npython']:.1f} s, "
        f"whole test {elapsed:.1f} s (seed {SEED})")
    if not failures:
        return

    for failure in failures[:MINIMIZED_FAILURES]:
        failure.reproducer = folder / f"repro_{failure.index}.py"
        try:
            failure.minimized = minimize(failure, folder)
        except Exception as e:  # noqa: BLE001 - the report matters more than the reduction
            failure.minimized = f"(reduction failed: {type(e).__name__}: {e})"
    for failure in failures[MINIMIZED_FAILURES:SHOWN_FAILURES]:
        failure.reproducer = folder / f"repro_{failure.index}.py"
        failure.reproducer.write_text(standalone(failure.index, failure.program))

    lines = [f"{len(failures)} of {len(programs)} random programs differ between python3 and "
             f"npython (NPYTHON_PROPERTY_SEED={SEED}, NPYTHON_PROPERTY_PROGRAMS={N_PROGRAMS}, "
             f"NPYTHON_PROPERTY_BATCH={BATCH_SIZE}); failing programs: "
             f"{[f.index for f in failures][:60]}"]
    for failure in failures[:SHOWN_FAILURES]:
        lines.append("")
        lines.append(f"=== program {failure.index} (in {failure.script}; run alone: "
                     f"python3 / npython {failure.reproducer})")
        lines.extend("  " + p for p in failure.problems)
        lines.append("--- its source:")
        lines.append(failure.program.render(failure.index))
        if failure.minimized:
            lines.append("--- a smaller program that still differs "
                         f"({failure.reproducer.with_name(failure.reproducer.stem + '_min.py')}):")
            lines.append(failure.minimized)
    pytest.fail("\n".join(lines), pytrace=False)
