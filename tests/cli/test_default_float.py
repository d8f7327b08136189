"""NPY_DEFAULT_FLOAT: float32 makes the program's creation calls that name no
dtype and would give float64 give float32; everything else keeps NumPy's
types. The expected types below are NumPy's rules with that one change."""
import harness

PROGRAM = """
import numpy as np

def main():
    n = 5000
    made = {
        "zeros": np.zeros(n), "ones": np.ones((3, 4)), "empty": np.empty(7),
        "identity": np.identity(3), "eye": np.eye(3, 4, 1), "full float": np.full(n, 1.5),
        "full int": np.full(n, 2), "full named": np.full(3, 1.5, np.float64),
        "arange int": np.arange(10), "arange float": np.arange(0.0, 1.0, 0.25),
        "arange named": np.arange(3, dtype=float), "linspace": np.linspace(0, 1, 5),
        "linspace complex": np.linspace(0j, 1, 3), "zeros named": np.zeros(4, dtype=np.float64),
        "zeros int": np.zeros(4, "i8"), "zeros_like": np.zeros_like(np.ones(3, np.float64)),
        "mixed": np.zeros(n) + np.arange(n) * 0.5, "linspace float16": np.linspace(0, 1, 7, dtype=np.float16),
    }
    for name, value in made.items():
        print(name, value.dtype)
    print("values", np.arange(0.0, 1.0, 0.25).tolist(), float(np.ones(n).sum()))

main()
"""

FLOAT32 = {"zeros", "ones", "empty", "identity", "eye", "full float", "arange float", "linspace"}


def types(stdout):
    lines = [l.rsplit(" ", 1) for l in stdout.splitlines() if not l.startswith("values")]
    return {name: dtype for name, dtype in lines}


def test_float32_default_changes_only_creation_without_dtype(tmp_path):
    script = tmp_path / "creation.py"
    script.write_text(PROGRAM)
    default = harness.run(harness.PYTHON3, [str(script)])
    assert default.returncode == 0, default.stderr
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_DEFAULT_FLOAT": "float32"})
    assert got.returncode == 0, got.stderr
    expected = types(default.stdout)
    for name in FLOAT32:
        assert expected[name] == "float64"
        expected[name] = "float32"
    assert types(got.stdout) == expected
    assert got.stdout.splitlines()[-1] == default.stdout.splitlines()[-1]


def test_float64_is_numpys_default(tmp_path):
    script = tmp_path / "creation.py"
    script.write_text(PROGRAM)
    default = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_DEFAULT_FLOAT": "float64"})
    assert got.returncode == 0, got.stderr
    assert got.stdout == default.stdout


def test_other_values_are_refused():
    got = harness.run(harness.NPYTHON, ["-c", "pass"], env_extra={"NPY_DEFAULT_FLOAT": "float16"})
    assert got.returncode == 2
    assert "NPY_DEFAULT_FLOAT must be float64|float32, not 'float16'" in got.stderr
