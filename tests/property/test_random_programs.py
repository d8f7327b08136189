"""Property test: random NumPy programs print the same under npython as under
python3.

Hypothesis (program_gen.programs) generates programs: an expression DAG of 1
to 12 NumPy operations over 1 to 4 seeded random arrays of mixed dtypes,
shapes that broadcast (or, sometimes, do not), strided and reversed views,
Python and NumPy scalars, reductions with every kind of axis, assignments
through masks and basic indices (`t[t > 0] = 1`, `t[1:] = t[:-1]`), masked
updates (`t[m] = t[m] * u[m]`, under a boolean mask of t's shape), nested
reductions over random axis sets (`x.sum((0, 2)).max(-1)`) and element-wise
consumers of reductions (`x - x.max(axis=1, keepdims=True)`, softmax,
centred squares summed), and complex values (`np.abs(z * z + c) > 2`,
`z.real / x`); the test fails if fewer than a fifth of 500 or more programs
have either of the two patterns, fewer than a tenth complex values, or
fewer than a twentieth masked updates, and reports how many have. Each program is a function run inside try/except,
under np.errstate(all='ignore') or with NumPy's default error handling
(whose warnings go to stderr); it prints its exception, or for every result
its type, dtype, shape, strides (of the dimensions longer than 1: its memory
layout), a digest of its bytes, the bytes themselves when small, and the
rule its values are compared by (see program_gen's docstring).

Programs are run in batches, one script per batch, once under python3 and once
under npython (concurrently). Per program: the exception (type and message),
the sequence of results with type, dtype, shape and strides, and the stderr it
wrote must be identical; values must be bitwise identical where the digests
differ unless the program's tag for the result allows a tolerance, in which
case the batch is run again printing those results in full and the values are
checked against the tolerance. Every fourth batch runs npython with SSE2
kernels (NPY_VECTOR_ISA=sse2), another fourth with caches so small
(NPY_CACHE_SIZES) that steps sharing their rows run block by block wherever
they may, the rest with this CPU's widest kernels and its own caches.

Environment:
  NPYTHON_PROPERTY_PROGRAMS  number of programs (default 6000)
  NPYTHON_PROPERTY_BATCH     programs per script (default 300)
  NPYTHON_PROPERTY_SEED      Hypothesis seed (default 20261122): generation is
                             database-less and seeded, so a run is reproducible
                             (Hypothesis also draws integers from constants of
                             the non-test modules a process has loaded; under
                             pytest here there are none, but a script that
                             imports this file from outside tests/ gets other
                             programs for the same seed)
  NPYTHON_PROPERTY_KEEP      a folder to keep the generated scripts and the
                             reproducers of failing programs in
"""
import collections
import difflib
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

N_PROGRAMS = int(os.environ.get("NPYTHON_PROPERTY_PROGRAMS", "6000"))
BATCH_SIZE = int(os.environ.get("NPYTHON_PROPERTY_BATCH", "300"))
SEED = int(os.environ.get("NPYTHON_PROPERTY_SEED", "20261122"))
KEEP = os.environ.get("NPYTHON_PROPERTY_KEEP")
RUN_TIMEOUT = 180  # seconds for one script (a batch takes a few)
# Failing programs shown in the assertion message, and how many of them are
# reduced to a smaller reproducer (each reduction step runs both interpreters).
SHOWN_FAILURES = 10
MINIMIZED_FAILURES = 10
MINIMIZE_RUNS = 24
MINIMIZE_SECONDS = 60
PATTERNS = ["nested reduction", "reduction consumer"]


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


def run_pair(script, args=(), cwd=None, npython_env=None):
    """(python3's Output, npython's Output) for `script args`, run concurrently
    (npython with `npython_env` added to its environment); a process still
    running after RUN_TIMEOUT seconds is killed."""
    runs = []
    start = time.monotonic()
    for interpreter in (harness.PYTHON3, harness.NPYTHON):
        env = harness.base_env()
        if interpreter == harness.NPYTHON:
            env.update(npython_env or {})
        out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        proc = subprocess.Popen([interpreter, str(script), *args], cwd=cwd, env=env,
                                stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        runs.append([interpreter, proc, out, err, None])
    while any(run[4] is None for run in runs):
        for run in runs:
            if run[4] is None and run[1].poll() is not None:
                run[4] = time.monotonic() - start
        if time.monotonic() - start > RUN_TIMEOUT:
            for run in runs:
                if run[4] is None:
                    run[1].kill()
                    run[1].wait()
                    run[4] = time.monotonic() - start
        time.sleep(0.002)
    results = []
    for interpreter, proc, out, err, seconds in runs:
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
    letter: str      # R: a result, S: the scale of a float sum result, or the floats an integer result converts
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

STATS = {"within tolerance": 0, "unchecked": 0}
TAINT_NOTE = ("  (tag ~: this value depends on an inexact one (a transcendental function or a "
              "float sum) through a discontinuity (comparison, conversion to integer, floor, //, "
              "argmax...): an implementation within the tolerances could differ here where an "
              "inexact value lies within its tolerance of the discontinuity; check that first)")


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
    tag = ref.tag.rstrip("~")
    if tag == "unchecked":
        STATS["unchecked"] += 1
        return []
    if tag.startswith("int:"):
        # Integers truncated from floats within k ulps of their type: at the
        # magnitude of the floats the reference converted (the scale), where
        # they are in the integer type's range (beyond it, NumPy's cast is
        # undefined).
        _, k, float_type = tag.split(":")
        ref = a.astype(np.float64)
        source = ref if scale is None else np.broadcast_to(_as_array(scale).astype(np.float64), a.shape)
        info = np.iinfo(a.dtype) if a.dtype.kind in "iu" else None
        with np.errstate(invalid="ignore"):
            in_range = np.isfinite(source) if info is None else \
                np.isfinite(source) & (source > float(info.min) - 1) & (source < float(info.max) + 1)
            tol = int(k) * np.spacing(np.abs(source).astype(float_type)).astype(np.float64) + 1
        bad = in_range & (np.abs(ref - b.astype(np.float64)) > tol)
        return _mismatches(a, b, bad, f"within {k} ulps of {float_type}, plus 1", tol)
    if a.dtype.kind not in "fc" or tag == "bits":
        if a.dtype.kind in "fc":
            # Bitwise, but any NaN equals any NaN (NumPy itself gives NaNs of
            # either sign depending on the loop that made them): a complex
            # value's real and imaginary parts each.
            same = np.ones(a.shape, bool)
            for p, q in ((a.real, b.real), (a.imag, b.imag)) if a.dtype.kind == "c" else ((a, b),):
                u = f"u{p.itemsize}"
                same &= (p.view(u) == q.view(u)) | (np.isnan(p) & np.isnan(q))
        else:
            # (booleans too: a byte other than 0 or 1 is a wrong result)
            same = a.view(f"u{a.itemsize}") == b.view(f"u{a.itemsize}")
        bad = ~same
        return _mismatches(a, b, bad, "bitwise", None)
    with np.errstate(all="ignore"):
        return _check_floats(a, b, tag, scale)


def _check_floats(a, b, tag, scale):
    # (complex values: their differences' and their own magnitudes, and the
    # classes of both parts where they are not finite)
    eps = float(np.finfo(a.dtype).eps)
    tiny = float(np.finfo(a.dtype).smallest_subnormal)
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    ra, rb = a.astype(wide), b.astype(wide)
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
        # NumPy sums float16 in float32, then rounds once to float16.
        acc = float(np.finfo(np.float32).eps) if a.dtype == np.float16 else eps
        tol = ((n + 2) * acc + 2 * k * eps) * s + (n + 2) * tiny
        if a.dtype == np.float16:
            tol = tol + 2 * np.spacing(np.abs(a)).astype(np.float64)
    elif kind == "err":
        # The bound the program computed alongside (python3's run); none
        # where it is not finite (it is inf where the value may overflow).
        if scale is None:
            return [f"result of tag {tag} has no bound to compare with"]
        tol = np.broadcast_to(_as_array(scale).astype(np.float64), a.shape)
        skip = ~np.isfinite(tol)
    elif kind in ("prod", "norm"):
        n, k = (int(v) for v in rest.split(":"))
        rel = (n + 2 + n * k) if kind == "prod" else (n + 2 + 2 * k)
        # (each complex product is within sqrt(5) / 2 eps of exact, not
        # half an eps: 3 for 2)
        tol = (3 if a.dtype.kind == "c" else 2) * rel * eps * np.abs(ra) + (n + 2) * tiny
    else:  # approx:B
        rtol = {2: 1e-2, 4: 1e-4, 8: 1e-10}[int(rest) if rest else a.itemsize]
        magnitude = np.abs(ra)
        top = np.max(magnitude[np.isfinite(magnitude)], initial=0.0)
        tol = rtol * (magnitude + top)
    diff = np.abs(ra - rb)
    # Non-finite values must be the same (NaN, +inf or -inf), except where a
    # sum's scale overflowed.
    same_class = np.ones(a.shape, bool)
    for p, q in ((ra.real, rb.real), (ra.imag, rb.imag)):
        same_class &= (np.isnan(p) == np.isnan(q)) & (np.isposinf(p) == np.isposinf(q)) & \
            (np.isneginf(p) == np.isneginf(q))
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
    results_n = {(r.call, r.j): (int(r.tag.split(":")[1]), int(r.tag.rstrip("~").split(":")[2]),
                                 r.dtype)
                 for r in refs if r.letter == "R" and r.tag.split(":")[0] in ("sum", "mean")}
    # Results whose S record only serves python3's (to compare the result
    # by): integers converted from floats (the floats), err (the bound).
    reference_only = {(r.call, r.j) for r in refs
                      if r.letter == "R" and (r.tag.startswith("int:") or r.tag.rstrip("~") == "err")}
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
        if r.letter == "S" and (r.call, r.j) in reference_only:
            STATS["unchecked"] += 1
            continue
        if r.letter == "S":
            # A scale: a float64 sum (or mean) of |x| over the N elements its
            # result sums, x within K ulps of its result's dtype: within
            # 2 (N + 2) eps + 2 K eps(dtype) relative, in any order.
            n, k, dtype = results_n.get((r.call, r.j), (1, 0, "float64"))
            k = program_gen.convert_ulps(k, dtype, "float64")
            bad = check_values(Record(**{**r.__dict__, "tag": f"norm:{n}:{k}"}), g)
        else:
            bad = check_values(r, g, scale)
        if bad:
            if r.tag.endswith("~"):
                bad.append(TAINT_NOTE)
            problems.append(f"{r.describe()} [{r.tag}]: " + "\n    ".join(bad))
        else:
            STATS["within tolerance"] += 1
    if ref.stderr != got.stderr:
        problems.append("stderr differs:\n" + _stderr_diff(ref.stderr, got.stderr))
    return problems, need_full


def _error_text(error):
    return "no exception" if error is None else f"{error[0]}: {error[1]}"


def _stderr_diff(a, b):
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
    context: list           # the (index, program) pairs before it in its script
    npython_env: dict       # what npython's environment had added
    reproducer: Path = None
    minimized: object = None  # (source, path, context indices) or a message


def compare_batch(batch, ref_out, got_out):
    """({index: problems}, {index: records needing full values}, indices of
    the programs npython never started: it stopped during an earlier one)."""
    ref, ref_pre = parse(ref_out)
    got, got_pre = parse(got_out)
    failures, need_full = {}, {}
    not_begun = [i for i, _ in batch if got.get(i) is None or not got[i].begun]
    for i, program in batch:
        if i in not_begun:
            continue
        problems, full = compare_program(i, ref.get(i), got.get(i), got_out.returncode)
        if problems:
            failures[i] = problems
        elif full:
            need_full[i] = full
    if ref_pre != got_pre:
        failures.setdefault(batch[0][0], []).append(
            "stderr before the first program differs:\n" + _stderr_diff(ref_pre, got_pre))
    return failures, need_full, not_begun


def check_batch(batch, folder, name, seconds, npython_env):
    """[(index, problems, script, the programs before it in the script)] for
    the programs of a batch that differ, npython run with `npython_env`.
    Where npython stops (a crash), the programs after the one it stopped in
    run again in a new process."""
    found = []
    pending = batch
    part = 0
    while pending:
        script = folder / (f"{name}.py" if part == 0 else f"{name}_after_stop{part}.py")
        script.write_text(program_gen.render_script(pending))
        ref_out, got_out = run_pair(script, cwd=folder, npython_env=npython_env)
        seconds["python3"] += ref_out.seconds
        seconds["npython"] += got_out.seconds
        by_index, need_full, not_begun = compare_batch(pending, ref_out, got_out)
        if need_full:
            # The same script again, printing those programs' results in full
            # (all of it, so that they run in the same state).
            wanted = ",".join(str(i) for i in sorted(need_full))
            ref_full, got_full = run_pair(script, [wanted], cwd=folder, npython_env=npython_env)
            again, _, _ = compare_batch(pending, ref_full, got_full)
            by_index.update({i: again[i] for i in need_full if i in again})
        position = {i: k for k, (i, _) in enumerate(pending)}
        found.extend((i, by_index[i], script, pending[:position[i]]) for i in sorted(by_index))
        if len(not_begun) == len(pending):
            found.extend((i, [f"npython never started program {i}: it exits with status "
                              f"{got_out.returncode} before"], script, []) for i in not_begun)
            break
        pending = [p for p in pending if p[0] in not_begun]
        part += 1
    return found


def standalone(index, program, context=()):
    """A script running `program` as program `index`, after the programs of
    `context` ((index, program) pairs, when it needs the state they leave)."""
    return program_gen.render_script(list(context) + [(index, program)])


class Reducer:
    """Makes a failing program smaller while it still differs, within a
    budget of runs and seconds (every try runs both interpreters)."""

    def __init__(self, folder, deadline):
        self.folder = folder
        self.deadline = deadline
        self.npython_env = {}

    def fails(self, index, program, context=()):
        if time.monotonic() > self.deadline:
            return False
        self.runs += 1
        path = self.folder / f"repro_{index}_try.py"
        path.write_text(standalone(index, program, context))
        ref_out, got_out = run_pair(path, cwd=self.folder, npython_env=self.npython_env)
        ref, _ = parse(ref_out)
        got, _ = parse(got_out)
        if ref.get(index) is None or not ref[index].ended:
            return False
        problems, need_full = compare_program(index, ref.get(index), got.get(index),
                                              got_out.returncode)
        if need_full and not problems:
            ref_out, got_out = run_pair(path, [str(index)], cwd=self.folder,
                                        npython_env=self.npython_env)
            ref, _ = parse(ref_out)
            got, _ = parse(got_out)
            problems, _ = compare_program(index, ref.get(index), got.get(index),
                                          got_out.returncode)
        return bool(problems)

    def reduce(self, failure):
        """(source of a smaller reproducer, its context indices), or None."""
        self.runs = 0
        self.npython_env = failure.npython_env
        i, program = failure.index, failure.program
        context = []
        if not self.fails(i, program):
            # It differs only after other programs ran in the same process
            # (state npython keeps, such as compiled kernels): find the
            # fewest of those it needs.
            context = list(failure.context)
            if not context or not self.fails(i, program, context):
                return None
            lo, hi = 0, len(context)  # context[lo:] fails, context[hi:] does not
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if self.fails(i, program, context[mid:]):
                    lo = mid
                else:
                    hi = mid
            context = context[lo:]
            k = len(context) - 1
            while k >= 1 and self.runs < MINIMIZE_RUNS:
                if self.fails(i, program, context[:k - 1] + context[k:]):
                    context = context[:k - 1] + context[k:]
                k -= 1
            context = context[:]  # the earliest one is needed (binary search)
        best = program
        # One result at a time, with only the operations it needs.
        if len(best.results) > 1 and not best.nodes[-1].fails:
            for j in range(len(best.results)):
                candidate = best.restricted([j])
                if self.fails(i, candidate, context):
                    best = candidate
                    break
        else:
            candidate = best.restricted(list(range(len(best.results))))
            if self.fails(i, candidate, context):
                best = candidate
        if best.calls > 1 and self.fails(i, best.with_calls(1), context):
            best = best.with_calls(1)
        # Drop operations one by one (from the last) while it still differs.
        k = len(best.nodes) - 1
        while k >= 0 and self.runs < MINIMIZE_RUNS + 12:
            candidate = best.without_node(k)
            if candidate is not None and self.fails(i, candidate, context):
                best = candidate
            k -= 1
        path = self.folder / f"repro_{i}_min.py"
        path.write_text(standalone(i, best, context))
        source = "".join(q.render(n) for n, q in context) + best.render(i)
        return source, path, [n for n, _ in context]


def test_random_programs_match_python3(tmp_path):
    folder = Path(KEEP) if KEEP else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    programs = generate_programs(N_PROGRAMS, SEED)
    generated = time.monotonic() - start
    assert len(programs) >= min(N_PROGRAMS, 2000), f"only {len(programs)} distinct programs generated"
    # Programs with each pattern program_gen aims at: a fifth at least (a
    # third or more have each; fewer means the generator lost them).
    patterns = collections.Counter(x for p in programs for x in p.patterns())
    complex_ = sum(1 for p in programs if p.touches_complex())
    masked = sum(1 for p in programs if p.has_masked_update())
    if len(programs) >= 500:
        for pattern in PATTERNS:
            assert patterns[pattern] >= len(programs) // 5, \
                f"only {patterns[pattern]} of {len(programs)} programs have a {pattern}"
        # (about a tenth have masked updates)
        assert masked >= len(programs) // 20, \
            f"only {masked} of {len(programs)} programs have masked updates"
        # (about a fifth touch complex values)
        assert complex_ >= len(programs) // 10, \
            f"only {complex_} of {len(programs)} programs have complex values"

    indexed = list(enumerate(programs))
    batches = [indexed[k:k + BATCH_SIZE] for k in range(0, len(indexed), BATCH_SIZE)]
    failures = []
    seconds = {"python3": 0.0, "npython": 0.0}
    traced = 0
    sse2 = 0
    for number, batch in enumerate(batches):
        programs_by_index = dict(batch)
        npython_env = ({"NPY_VECTOR_ISA": "sse2"} if number % 4 == 3
                       else harness.MODES["blocks"] if number % 4 == 1 else {})
        for i, problems, script, context in check_batch(batch, folder, f"batch_{number:02d}",
                                                         seconds, npython_env):
            failures.append(Failure(i, programs_by_index[i], problems, script, context,
                                    npython_env))
        traced += sum(1 for _, p in batch if p.is_big())
        sse2 += len(batch) if number % 4 == 3 else 0
    elapsed = time.monotonic() - start
    harness.report(
        f"random programs: {len(programs)} programs ({traced} with an input of 2048+ elements; "
        f"{sse2} with SSE2 kernels; {complex_} with complex values; {masked} with masked updates; "
        f"{', '.join(f'{patterns[x]} with a {x}' for x in PATTERNS)}) "
        f"in {len(batches)} batches, {len(failures)} differ; {STATS['within tolerance']} "
        f"results not bitwise equal but within their tolerance, {STATS['unchecked']} not "
        f"bitwise equal and not compared (tag unchecked); generation {generated:.1f} s, "
        f"python3 {seconds['python3']:.1f} s, npython {seconds['npython']:.1f} s, "
        f"whole test {elapsed:.1f} s (seed {SEED})")
    if not failures:
        return

    # One failing program of each kind first (kinds by their first problem).
    kinds = {}
    for failure in failures:
        kinds.setdefault(signature(failure.problems), []).append(failure)
    shown = [group[0] for group in kinds.values()][:SHOWN_FAILURES]
    reducer = Reducer(folder, time.monotonic() + MINIMIZE_SECONDS)
    reduced = set()
    number_reduced = lambda f: f.index in reduced  # noqa: E731
    for number, failure in enumerate(shown):
        failure.reproducer = folder / f"repro_{failure.index}.py"
        failure.reproducer.write_text(standalone(failure.index, failure.program))
        if number < MINIMIZED_FAILURES:
            reduced.add(failure.index)
            try:
                failure.minimized = reducer.reduce(failure)
            except Exception as e:  # noqa: BLE001 - the report matters more than the reduction
                failure.minimized = f"(reduction failed: {type(e).__name__}: {e})"

    lines = [f"{len(failures)} of {len(programs)} random programs differ between python3 and "
             f"npython (NPYTHON_PROPERTY_SEED={SEED}, NPYTHON_PROPERTY_PROGRAMS={N_PROGRAMS}, "
             f"NPYTHON_PROPERTY_BATCH={BATCH_SIZE}; scripts in {folder}). By kind:"]
    for kind, group in kinds.items():
        lines.append(f"  {len(group)} x {kind}  (programs {[f.index for f in group][:12]})")
    for failure in shown:
        lines.append("")
        lines.append(f"=== program {failure.index} (in {failure.script}; alone: "
                     f"{failure.reproducer}; npython's environment adds {failure.npython_env})")
        lines.extend("  " + p for p in failure.problems)
        lines.append("--- its source:")
        lines.append(failure.program.render(failure.index))
        if isinstance(failure.minimized, tuple):
            source, path, context = failure.minimized
            after = (f"; it differs only after programs {context} ran in the same process"
                     if context else "")
            lines.append(f"--- a smaller program that still differs ({path}{after}):")
            lines.append(source)
        elif failure.minimized:
            lines.append(failure.minimized)
        elif failure.minimized is None and failure.reproducer and number_reduced(failure):
            lines.append("--- (alone it does not differ, nor did a smaller reproducer turn "
                         "up in time: run its script)")
    pytest.fail("\n".join(lines), pytrace=False)


def signature(problems):
    """A failure's kind: its first problem without numbers and names."""
    text = problems[0].split("\n")[0]
    text = re.sub(r"line \d+|prog\d+|program \d+", "#", text)
    text = re.sub(r"\(([\d,*]*)\)", "(..)", text)
    text = re.sub(r"result \d+ \(call \d+\)", "result", text)
    text = re.sub(r"\d+ of \d+", "some", text)
    text = re.sub(r"a 'numpy\.\w+' object", "a 'numpy.<scalar>' object", text)
    text = re.sub(r"descriptor '\w+'", "descriptor '<method>'", text)
    return text[:160]
