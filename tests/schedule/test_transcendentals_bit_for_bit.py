"""The functions NumPy computes with algorithms of its own, run in kernels,
give NumPy's bits on every input: the special values (NaNs of both signs,
infinities, signed zeros, subnormals, the extremes, arguments past each
function's overflow and huge ones for the trigonometric functions) and
10^6 values of every magnitude and sign, for float64 and float32, with
the kernels of each vector width. Each function's result is computed by a
kernel (jit.kernel_runs), none by NumPy (jit.ops_run_by_numpy). The
floating-point reports are ignored here: a reported flag has NumPy compute
the raising statement again (tests/schedule/test_fp_reruns.py), which would
hide the kernel's bits."""
import json

import pytest

import harness
from test_numpy_loops import FUNCTIONS

PROGRAM = '''
import hashlib, sys
import numpy as np
dtype = np.dtype(sys.argv[1])
names = sys.argv[2].split(",")
info = np.finfo(dtype)
special = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 1e-3,
           info.smallest_subnormal, -info.smallest_subnormal, info.smallest_normal * 0.75,
           info.smallest_normal, -info.smallest_normal, info.tiny * 3, info.max, -info.max,
           info.eps, 1 - info.epsneg, 1 + info.eps, -1 - info.eps, np.pi, np.pi / 2, -np.pi / 4,
           88.72, 88.73, -103.9, 709.78, 710.0, -745.1, 1e4, 1e10, 1e22, -1e22, 1e30, 3e38, 1e300, -1e300]
rng = np.random.default_rng(30)
n = 1_000_000
magnitudes = 10.0 ** rng.uniform(np.log10(float(info.smallest_subnormal)), np.log10(float(info.max)), n // 2)
signs = np.where(rng.random(n // 2) < 0.5, -1.0, 1.0)
with np.errstate(all="ignore"):
    x = np.concatenate([np.array(special, dtype=np.float64).astype(dtype),
                        (magnitudes * signs).astype(dtype),
                        rng.uniform(-12, 12, n - n // 2).astype(dtype)])
y = rng.permutation(x)


def compute(f, x, y):
    a = x * 1.0
    return f(a, y * 1.0) if f.nin == 2 else f(a)


for name in names:
    with np.errstate(all="ignore"):
        r = compute(getattr(np, name), x, y)
    print(name, r.dtype, hashlib.sha1(r.tobytes()).hexdigest())
'''


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_every_input_gives_numpys_bits_at_every_vector_width(tmp_path, dtype):
    script = tmp_path / "functions.py"
    script.write_text(PROGRAM)
    args = [str(script), dtype, ",".join(FUNCTIONS)]
    expected = harness.run(harness.PYTHON3, args)
    assert expected.returncode == 0, expected.stderr
    assert len(expected.stdout.splitlines()) == len(FUNCTIONS)
    for isa in ("avx512", "avx2", "sse2"):
        stats = tmp_path / f"{isa}.json"
        got = harness.run(harness.NPYTHON, args, env_extra={"NPY_VECTOR_ISA": isa, "NPY_JIT_STATS": str(stats)})
        assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr), isa
        counters = json.loads(stats.read_text())
        assert counters.get("jit.kernel_runs", 0) >= len(FUNCTIONS), isa
        assert counters.get("jit.ops_run_by_numpy", 0) == 0, isa
