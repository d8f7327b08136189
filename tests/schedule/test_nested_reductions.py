"""Reductions of reductions (k-means' labels, however spelled) run as one
reduction chain's kernel: each spelling, coordinate count and dtype below
must be computed by it (jit.reduction_chain_runs) with python3's labels,
not merely give python3's output through NumPy."""
import json

import pytest

import harness

PROGRAM = """
import hashlib, sys
import numpy as np
coordinates, means, dtype, spelling = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = np.random.default_rng(coordinates * 100 + means)
X = rng.standard_normal((5000, coordinates)).astype(dtype)
m = rng.standard_normal((means, coordinates)).astype(dtype)
def labels(X, m):
    if spelling == "norm":
        return np.argmin(np.linalg.norm(X - m[:, None], axis=2), axis=0)
    if spelling == "sum":
        return np.argmin(((X[:, None] - m[None]) ** 2).sum(2), 1)
    return np.sqrt(((X - m[:, None]) ** 2).sum(2)).argmin(0)
print(hashlib.sha1(labels(X, m).tobytes()).hexdigest())
"""


@pytest.mark.parametrize("spelling", ["norm", "sum", "sqrt"])
@pytest.mark.parametrize("coordinates,means", [(2, 2), (3, 8), (8, 2), (16, 8), (64, 64), (130, 3)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_labels_come_from_one_chain_kernel(tmp_path, spelling, coordinates, means, dtype):
    script = tmp_path / "labels.py"
    script.write_text(PROGRAM)
    stats = tmp_path / "stats.json"
    args = [str(script), str(coordinates), str(means), dtype, spelling]
    expected = harness.run(harness.PYTHON3, args)
    got = harness.run(harness.NPYTHON, args, env_extra={"NPY_JIT_STATS": str(stats)})
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout
    counters = json.loads(stats.read_text())
    assert counters.get("jit.reduction_chain_runs") == 1
    assert counters.get("jit.fallbacks", 0) == 0


# X in Fortran order (a table's columns): NumPy's temporaries put the
# points innermost and add the coordinates one after another; the labels
# still come from one chain's kernel, in that order.
@pytest.mark.parametrize("spelling", ["norm", "sum", "sqrt"])
@pytest.mark.parametrize("coordinates", [3, 20])
def test_fortran_ordered_points_run_as_one_chain(tmp_path, spelling, coordinates):
    script = tmp_path / "labels.py"
    script.write_text(PROGRAM.replace("astype(dtype)\nm =", "astype(dtype)\nX = np.asfortranarray(X)\nm ="))
    stats = tmp_path / "stats.json"
    args = [str(script), str(coordinates), "4", "float64", spelling]
    expected = harness.run(harness.PYTHON3, args)
    got = harness.run(harness.NPYTHON, args, env_extra={"NPY_JIT_STATS": str(stats)})
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout
    assert json.loads(stats.read_text()).get("jit.reduction_chain_runs") == 1


def has_avx2():
    with open("/proc/cpuinfo") as f:
        flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    return {"avx2", "fma", "bmi2"} <= set(flags)


# An AVX2 kernel reads the points of X[N, J] (C order) four j at a time and
# transposes them in registers (x86_backend.cpp, pack_by_blocks): its
# listing shows the transposition's shuffles; J % 4 and the labels' values
# are the differential test's above.
@pytest.mark.skipif(not has_avx2(), reason="needs a CPU with AVX2")
@pytest.mark.parametrize("dtype, shuffle", [("float64", "vperm2f128"), ("float32", "vmovlhps")])
def test_points_are_read_in_blocks_of_four_coordinates(tmp_path, dtype, shuffle):
    script = tmp_path / "labels.py"
    script.write_text(PROGRAM)
    args = [str(script), "13", "3", dtype, "sum"]
    expected = harness.run(harness.PYTHON3, args)
    got = harness.run(harness.NPYTHON, args, env_extra={"NPY_VECTOR_ISA": "avx2", "NPY_KERNEL_CACHE": "off",
                                                       "NPY_JIT_LOG": "output_code"})
    assert got.returncode == expected.returncode == 0, got.stderr
    assert got.stdout == expected.stdout
    chain = got.stderr[got.stderr.index("|chain|"):]
    assert shuffle in chain
