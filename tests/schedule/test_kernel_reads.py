"""How kernels read and hold values, seen in their listings
(NPY_JIT_LOG=output_code), besides giving python3's bits:

- inputs whose elements lie two items apart along the innermost dimension
  (a complex array's parts, x[::2], a column of an (n, 2) array) are read
  where they lie by AVX2 and AVX-512 kernels, whose key marks such an input
  `e`; SSE2 kernels take them packed by the driver;
- AVX-512 kernels keep compares (of floats, and of integers signed or
  unsigned), the logic on them and the blends they choose in k registers,
  widening none into lanes where no use needs lanes."""
import re

import pytest

import harness
from test_compiled_ops import PROGRAM, run_compiled
from test_vector_width import widest

EVERY_OTHER_EXPRESSIONS = [
    "z.real * 2 + z.imag",
    "z2.imag[:, 3:] - z2.real[:, :-3]",
    "np.abs(z[:19_997]) > 1",
    "x[::2] + y[1::2]",
    "x[:19_987:2] * 3 - y[:9_994]",
    "x.reshape(100, 200)[:, ::2] * y.reshape(100, 200)[:, 1::2]",
    "j.reshape(-1, 2)[:, 1] * 3 - i[::2]",
    "(u[1::2] >> np.uint64(3)) ^ v[:10_000]",
    "i32[::2] + i32[1::2]",
    "(u32[1:19_990:2] >> 3) * v32[:9_995]",
]

MASK_EXPRESSIONS = {
    "np.where((x > 0) & (y < 1) | np.isnan(y), x, y)": ["kandw", "korw"],
    "(x > y) != ~(y >= 0)": ["kxorw", "knotw", "vmovdqu8"],
    "np.where((j > 3) & (u < v) | (i32 != 0), x, y)": ["vpcmpq", "vpcmpuq", "kandw", "korw"],
}

KERNEL_LINE = re.compile(r"\[npython:output_code\] kernel \(([^,]+),")


def kernels(stderr):
    """The listings in `stderr`: (key line, the code's lines) per kernel."""
    found = []
    for line in stderr.splitlines():
        if not line.startswith("[npython:output_code]"):
            continue
        if KERNEL_LINE.match(line):
            found.append((line, []))
        elif line.startswith("[npython:output_code] schedule of") or "as a loop nest" in line:
            found.append(None)
        elif found and found[-1] is not None:
            found[-1][1].append(line)
    return [k for k in found if k is not None]


def listing(tmp_path, program, isa):
    env = {"COUNTS_FILE": str(tmp_path / "counts.json"), "NPY_JIT_LOG": "output_code",
           "NPY_KERNEL_CACHE": "off"}
    if isa:
        env["NPY_VECTOR_ISA"] = isa
    got = harness.run(harness.NPYTHON, [str(tmp_path / "program.py")], env_extra=env)
    assert got.returncode == 0, got.stderr
    return kernels(got.stderr)


@pytest.mark.parametrize("isa", [None, "avx2", "sse2"])
@pytest.mark.parametrize("expression", EVERY_OTHER_EXPRESSIONS)
def test_inputs_two_items_apart_read_where_they_lie(tmp_path, expression, isa):
    if isa is None and widest()[0] == "sse2":
        pytest.skip("this CPU's kernels are SSE2 ones")
    program = PROGRAM.replace("EXPRESSION", expression)
    run_compiled(tmp_path, program, isa)
    keys = [key for key, _ in listing(tmp_path, program, isa)]
    read_where_they_lie = [key for key in keys if re.search(r";in\d+:\w+e;", key)]
    if isa == "sse2":
        assert not read_where_they_lie, keys
    else:
        assert read_where_they_lie, keys


@pytest.mark.parametrize("expression", list(MASK_EXPRESSIONS))
def test_avx512_masks_stay_in_k_registers(tmp_path, expression):
    if widest()[0] != "avx512":
        pytest.skip("no AVX-512 on this CPU")
    program = PROGRAM.replace("EXPRESSION", expression)
    run_compiled(tmp_path, program)
    code = [lines for key, lines in listing(tmp_path, program, None) if "greater" in key]
    assert len(code) == 1, code
    text = "\n".join(code[0])
    for instruction in MASK_EXPRESSIONS[expression]:
        assert instruction in text, text
    assert "vpmovm2" not in text and "vpmovq2m" not in text, text
