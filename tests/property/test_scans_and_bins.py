"""Property test: random calls of np.cumsum / np.cumprod (functions and
methods) and np.bincount / np.histogram give python3's bytes under npython.

Hypothesis draws the cases: for scans the op, spelling (function, method,
method taken by getattr), dtype (floats,
integers of each size and sign, bool), shape (1 to 3 dimensions), layout
(as made, transposed, reversed, stepped, Fortran order), axis (None or any,
negative too), whether the operand is pending (computed by a region) and
what reads the result (nothing, arithmetic, its last element, a sum); for
bincount the values' dtype, count, range (dense or sparse), minlength,
stride and whether they are pending; for histogram the values (normal,
with NaNs and infinities, on the bins' edges), count, 1-D or 2-D, bins,
range (none, around the values, of one value) and weights (with NaNs and
infinities). Special float values and overflow come in at random; half the
cases run under np.errstate(all='ignore'), the others warn as NumPy does
(stderr is compared). Each case prints its exception, or its results'
dtype, shape and digest.

The cases run in one script under python3 and one under npython; every line
must be identical. The test also fails if fewer than a quarter of the scan
cases ran as scans in the backend (jit.scan_runs) or fewer than a quarter of
the counting cases were counted by it (jit.bin_counts): the cases must reach
the fast paths, not only NumPy.

  NPYTHON_PROPERTY_SEED   Hypothesis seed (default 20261122)
  NPYTHON_SCAN_BIN_CASES  how many cases (default 400)
"""
import json
import os

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

import harness

SEED = int(os.environ.get("NPYTHON_PROPERTY_SEED", "20261122"))
CASES = int(os.environ.get("NPYTHON_SCAN_BIN_CASES", "400"))

PRELUDE = '''
import hashlib, warnings
import numpy as np

warnings.simplefilter("always")


def show(i, r):
    parts = r if isinstance(r, tuple) else (r,)
    out = []
    for p in parts:
        p = np.asarray(p)
        out.append(f"{p.dtype} {p.shape} {hashlib.sha1(np.ascontiguousarray(p).tobytes()).hexdigest()[:16]}")
    print(i, " | ".join(out), flush=True)


def values(rng, shape, dtype, special):
    if dtype == "bool":
        return rng.random(shape) > 0.5
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        lo, hi = max(int(info.min), -100), min(int(info.max), 100)
        return rng.integers(lo, hi + 1, shape).astype(dtype)
    v = (rng.standard_normal(shape) * 0.1 + 1.0).astype(dtype)
    if special:
        flat = v.reshape(-1)
        picks = rng.integers(0, flat.size, 3)
        flat[picks] = np.array([np.nan, np.inf, -1e30 if dtype == "float32" else -1e300])[: picks.size]
    return v


def layout(v, kind):
    if kind == "transposed":
        return v.T
    if kind == "reversed":
        return v[::-1]
    if kind == "stepped":
        return v[..., ::2] if v.ndim else v
    if kind == "fortran":
        return np.asfortranarray(v)
    return v


def scan(i, seed, op, method, dtype, shape, kind, axis, pending, reader, special, quiet):
    rng = np.random.default_rng(seed)
    x = layout(values(rng, shape, dtype, special), kind)
    if pending:
        x = x * 1 if dtype == "bool" else x + x.dtype.type(0)
    with np.errstate(all="ignore") if quiet else np.errstate():
        try:
            if method == "bound":
                r = getattr(x, op)(axis)
            elif method:
                r = x.cumsum(axis) if op == "cumsum" else x.cumprod(axis)
            else:
                r = np.cumsum(x, axis=axis) if op == "cumsum" else np.cumprod(x, axis=axis)
            if reader == "arithmetic":
                r = r * 2
            elif reader == "last":
                r = r.reshape(-1)[-1:]
            elif reader == "sum":
                r = r.sum()
            show(i, r)
        except Exception as e:
            print(i, type(e).__name__, e)


def bincount(i, seed, dtype, n, top, sparse, minlength, step, pending):
    rng = np.random.default_rng(seed)
    v = rng.integers(0, top + 1, n) * (1_000_003 if sparse else 1)
    if dtype == "bool":
        v = v % 2 == 1
    else:
        v = v.astype(dtype)
    v = v[::step]
    try:
        if pending:
            r = np.bincount((v.astype(np.int64) + 1) - 1) if minlength is None else np.bincount((v.astype(np.int64) + 1) - 1, minlength=minlength)
        else:
            r = np.bincount(v) if minlength is None else np.bincount(v, minlength=minlength)
        show(i, r)
    except Exception as e:
        print(i, type(e).__name__, e)


def histogram(i, seed, n, two_d, data, bins, rng_kind, weighted, special_weights, quiet, pending):
    rng = np.random.default_rng(seed)
    x = rng.normal(0.3, 1.4, n)
    if data == "special":
        x[rng.integers(0, n, 5)] = [np.nan, np.inf, -np.inf, 1e300, -1e300]
    elif data == "edges":
        x = np.repeat(np.linspace(-2.0, 2.0, bins + 1), n // (bins + 1) + 1)[:n]
    w = rng.exponential(1.0, n)
    if special_weights:
        w[rng.integers(0, n, 3)] = [np.nan, np.inf, -np.inf]
    if two_d and n % 4 == 0:
        x, w = x.reshape(4, -1).T, w.reshape(4, -1).T
    if pending:
        x = x * 1.0
    ranges = {"none": None, "around": (-2.0, 2.0), "wide": (-1e3, 1e3), "one value": (0.5, 0.5), "narrow": (0.1, 0.1 + 1e-9)}
    with np.errstate(all="ignore") if quiet else np.errstate():
        try:
            show(i, np.histogram(x, bins=bins, range=ranges[rng_kind], weights=w if weighted else None))
        except Exception as e:
            print(i, type(e).__name__, e)
'''

DTYPES = ["float64", "float32", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"]
COUNT_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"]


# Counts of values: small ones (NumPy's own, below the tracing threshold)
# and ones around it, a block of np.histogram's and beyond.
def counts():
    return st.one_of(st.integers(1, 3000), st.sampled_from([2047, 2048, 4097, 65535, 65536, 65537, 100_000, 300_000]))


def dims():
    return st.one_of(st.integers(1, 40), st.sampled_from([64, 100, 129, 257]))


@st.composite
def scan_case(draw):
    rank = draw(st.integers(1, 3))
    shape = (draw(counts()),) if rank == 1 else tuple(draw(st.lists(dims(), min_size=rank, max_size=rank)))
    axis = draw(st.one_of(st.none(), st.integers(-rank, rank - 1)))
    return ("scan", draw(st.sampled_from(["cumsum", "cumprod"])), draw(st.sampled_from([False, True, "bound"])),
            draw(st.sampled_from(DTYPES)),
            shape, draw(st.sampled_from(["as made", "transposed", "reversed", "stepped", "fortran"])), axis,
            draw(st.booleans()), draw(st.sampled_from(["none", "arithmetic", "last", "sum"])),
            draw(st.integers(0, 4)) == 0, draw(st.booleans()))


@st.composite
def bincount_case(draw):
    return ("bincount", draw(st.sampled_from(COUNT_DTYPES)), draw(counts()),
            draw(st.sampled_from([0, 1, 7, 120, 5000])), draw(st.integers(0, 9)) == 0,
            draw(st.one_of(st.none(), st.integers(0, 6000))), draw(st.sampled_from([1, 1, 2, -1, -3])),
            draw(st.booleans()))


@st.composite
def histogram_case(draw):
    bins = draw(st.sampled_from([1, 2, 10, 64, 200, 1000]))
    return ("histogram", draw(counts()), draw(st.booleans()),
            draw(st.sampled_from(["normal", "normal", "special", "edges"])), bins,
            draw(st.sampled_from(["none", "around", "around", "wide", "one value", "narrow"])), draw(st.booleans()),
            draw(st.integers(0, 4)) == 0, draw(st.booleans()), draw(st.booleans()))


def draw_cases(n, base_seed):
    found = []

    @seed(base_seed)
    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(st.one_of(scan_case(), bincount_case(), histogram_case()))
    def collect(case):
        if len(found) < n:
            found.append(case)

    collect()
    return found


def render(cases):
    lines = [PRELUDE]
    for i, case in enumerate(cases):
        kind, *args = case
        lines.append(f"{kind}({i}, {1000 + i}, " + ", ".join(repr(a) for a in args) + ")")
    return "\n".join(lines) + "\n"


def test_scans_and_bins_match_python3_bit_for_bit(tmp_path):
    cases = draw_cases(CASES, SEED)
    script = tmp_path / "scans_and_bins.py"
    script.write_text(render(cases))
    stats = tmp_path / "stats.json"
    want = harness.run(harness.PYTHON3, [str(script)], timeout=600)
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_JIT_STATS": str(stats)}, timeout=600)
    assert want.returncode == 0, want.stderr[-2000:]
    assert got.returncode == 0, got.stderr[-2000:]
    differ = [(w, g) for w, g in zip(want.stdout.splitlines(), got.stdout.splitlines()) if w != g]
    assert len(want.stdout.splitlines()) == len(got.stdout.splitlines()) == len(cases)
    assert not differ, f"{len(differ)} of {len(cases)} cases differ (seed {SEED}):\n" + "\n".join(
        f"python3: {w}\nnpython: {g}" for w, g in differ[:10])
    assert got.stderr == want.stderr
    counters = json.loads(stats.read_text())
    scans = sum(c[0] == "scan" for c in cases)
    counts = sum(c[0] != "scan" for c in cases)
    ran_scans, ran_counts = counters.get("jit.scan_runs", 0), counters.get("jit.bin_counts", 0)
    harness.report(f"scans and bins: {len(cases)} cases, 0 differ (seed {SEED}); "
                   f"{ran_scans} of {scans} scans and {ran_counts} of {counts} counts in the backend")
    assert ran_scans * 4 >= scans and ran_counts * 4 >= counts, (ran_scans, scans, ran_counts, counts)
