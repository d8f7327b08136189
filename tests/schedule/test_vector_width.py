"""Kernels use the widest vector instructions this CPU has (as
/proc/cpuinfo lists them), unless NPY_VECTOR_ISA caps them: a kernel built
narrower still gives NumPy's results, so only this test can tell."""
import pytest

import harness

PROGRAM = """
import numpy as np
import npython
def f(x):
    return (x * 2.0 + 1.0).sum()
print(f(np.arange(100_000, dtype=np.float64)), npython.host()["vector_isa"])
"""


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def widest():
    flags = cpu_flags()
    if {"avx512f", "avx512dq", "avx512bw", "avx512vl", "bmi2"} <= flags:
        return "avx512", "x86-64 AVX-512"
    if {"avx2", "fma", "bmi2"} <= flags:
        return "avx2", "x86-64 AVX2"
    return "sse2", "x86-64 SSE2"


@pytest.mark.parametrize("cap", [None, "sse2"])
def test_kernels_use_the_widest_vectors(tmp_path, cap):
    script = tmp_path / "width.py"
    script.write_text(PROGRAM)
    env = {"NPY_JIT_LOG": "output_code", "NPY_KERNEL_CACHE": "off"}
    if cap:
        env["NPY_VECTOR_ISA"] = cap
    got = harness.run(harness.NPYTHON, [str(script)], env_extra=env)
    assert got.returncode == 0, got.stderr
    isa, backend = ("sse2", "x86-64 SSE2") if cap else widest()
    assert got.stdout.split()[-1] == isa
    assert f"kernel ({backend}," in got.stderr
