"""Kernels on a CPU without AVX: programs of the differential corpus run under
python3 and under npython on QEMU's user-mode emulation of a Nehalem CPU
(SSE4.2, no AVX), and must print the same (NumPy's own results differ
between CPUs: it picks its loops by the CPU's features too). npython finds no AVX there and makes
SSE2 kernels; an AVX instruction left in one would stop the program (QEMU
raises SIGILL for it). On QEMU's `-cpu max`, which has AVX2, the same
program gets AVX kernels. scripts/test.sh sets NPYTHON_REQUIRE_QEMU, so that
there a missing QEMU fails these tests rather than skipping them."""
import os
import shutil
from pathlib import Path

import pytest

import harness

CORPUS = Path(__file__).resolve().parent.parent / "diff" / "corpus"
QEMU = shutil.which("qemu-x86_64")

# Kernels of every kind: k-means (a reduction chain), fitness sums of int8, trigonometry,
# stencils into the array they read, element-wise ufuncs and operators, edge
# semantics (rounding, NaNs, -0.0), NEP 50 promotion, reductions and leaf
# sums, shifts, integer extremes, argmin/argmax, arange, FP warnings.
PROGRAMS = [
    "001_kmeans_step_f64.py", "002_kmeans_step_f32.py", "003_ga_sum_fitness.py",
    "005_ga_trig_fitness.py", "013_np_heat_stencil.py", "066_region_elementwise_operators.py",
    "067_region_ufunc_calls.py", "068_region_nep50_promotion.py", "069_region_reductions.py",
    "077_region_fp_warnings.py", "084_region_numpy_edge_semantics.py", "102_region_shifts.py",
    "106_region_integer_extremes.py", "107_region_argmin_argmax.py", "108_region_arange.py",
    "112_region_leaf_sums.py", "135_assign_reads_target.py",
]


def run_emulated(cpu, interpreter, args, env_extra=None):
    assert QEMU is not None, "qemu-x86_64 is not installed (scripts/install_deps.sh installs it)"
    # npython starts itself again once to set libgomp's spin count, unless it
    # is set; that second start would leave QEMU and run natively.
    env = {"GOMP_SPINCOUNT": "10000", **(env_extra or {})}
    # NumPy's OpenBLAS picks its kernels from CPUID, which QEMU's Nehalem
    # model answers so that OpenBLAS takes it for a Haswell on some hosts
    # (an AMD EPYC here) and dies of an AVX2 instruction as NumPy loads:
    # under python3 and npython alike. Named, it takes Nehalem's.
    if cpu == "Nehalem":
        env["OPENBLAS_CORETYPE"] = "Nehalem"
    got = harness.run(QEMU, ["-cpu", cpu, interpreter, *args], cwd=CORPUS, env_extra=env, timeout=600)
    return harness.Outcome(got.returncode, harness.normalise(got.stdout, interpreter),
                           harness.normalise(got.stderr, interpreter))


needs_qemu = pytest.mark.skipif(
    QEMU is None and not os.environ.get("NPYTHON_REQUIRE_QEMU"),
    reason="qemu-x86_64 is not installed (scripts/install_deps.sh installs it)")


@needs_qemu
@pytest.mark.parametrize("program", PROGRAMS)
def test_program_matches_python3_without_avx(program):
    expected = run_emulated("Nehalem", harness.PYTHON3, [program])
    # python3 itself must run there, or equal outputs would say nothing.
    assert expected.returncode >= 0, expected.stderr
    got = run_emulated("Nehalem", harness.NPYTHON, [program])
    assert got.stdout == expected.stdout
    assert got.stderr == expected.stderr
    assert got.returncode == expected.returncode


@needs_qemu
@pytest.mark.parametrize("cpu, kernels", [("Nehalem", ["x86-64 SSE2"]),
                                          ("max", ["x86-64 AVX2", "x86-64 AVX-512"])])
def test_kernels_are_the_cpus_widest(cpu, kernels):
    got = run_emulated(cpu, harness.NPYTHON, ["001_kmeans_step_f64.py"], {"NPY_JIT_LOG": "output_code"})
    assert got.returncode == 0, got.stderr
    made = {line.split("kernel (")[1].split(",")[0] for line in got.stderr.splitlines()
            if "] kernel (" in line}
    assert len(made) == 1 and made <= set(kernels), made
