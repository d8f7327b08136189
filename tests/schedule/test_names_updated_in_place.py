"""An in-place operator on an array only one name holds, and a masked store
into one only a local names, record a new value under that name: a loop of
such updates is one region. Where anything else sees the array (another
name, a view, a weak reference) the update writes it at once, as NumPy
does. Each program matches python3; the log shows which way each went."""
import harness

PROGRAM = """
import hashlib, weakref
import numpy as np
rng = np.random.default_rng(4)
x = rng.standard_normal(100_000)

def updates(a, steps):
    b = a.copy()
    r = a.copy()
    for i in range(steps):
        b += 1.0  # in place
        b *= 0.5  # in place
        r[b > 0.9] = i  # masked
    return b, r

def alias(a):
    b = a.copy()
    c = b
    b += 1.0  # at once
    return c

def view(a):
    b = a.copy()
    v = b[::2]
    b += 1.0  # at once
    return v

def weak(a):
    b = a.copy()
    k = weakref.ref(b)
    b += 1.0  # at once
    return k() is b, b

def masked_alias(a):
    r = a.copy()
    s = r
    r[a > 0] = 0.0  # stored
    return s

def digest(*arrays):
    return hashlib.sha1(b"".join(np.ascontiguousarray(q).tobytes() for q in arrays)).hexdigest()

print("updates", digest(*updates(x, 6)))
print("alias", digest(alias(x)))
print("view", digest(view(x)))
same, b = weak(x)
print("weak", same, digest(b))
print("masked alias", digest(masked_alias(x)))
"""


def lines_marked(program, mark):
    return [n for n, text in enumerate(program.splitlines(), 1) if text.endswith("# " + mark)]


def test_updates_of_arrays_one_name_holds_stay_in_the_region(tmp_path):
    script = tmp_path / "updates.py"
    script.write_text(PROGRAM)
    expected = harness.run(harness.PYTHON3, [str(script)])
    got = harness.run(harness.NPYTHON, [str(script)], env_extra={"NPY_JIT_LOG": "fallback,regions"})
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout)
    log = got.stderr.splitlines()
    at_once = "an in-place operator on an array the program holds writes that array at once"
    eager_lines = {int(line.split("updates.py:")[1].split(":")[0]) for line in log if at_once in line}
    assert eager_lines == set(lines_marked(PROGRAM, "at once")), log
    # The loop's six iterations: one region, materialized where updates
    # returns its tuple, with every update in it.
    in_loop = [line for line in log if "region of" in line and "BUILD_TUPLE" in line]
    assert len(in_loop) == 1 and int(in_loop[0].split("region of ")[1].split()[0]) >= 6 * 4, log
    # The aliased array's masked store ends the region there and runs NumPy's.
    (stored,) = lines_marked(PROGRAM, "stored")
    assert any(f"updates.py:{stored}: stored into" in line for line in log), log
