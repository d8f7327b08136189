"""NPY_KERNEL_CACHE: kernels a run compiles are kept on disk and the next run
loads them; a file that fails a check is not run, and the results are
always python3's."""
import json
import os
import stat
import struct
import subprocess
import time

import pytest

import harness

PROGRAM = """
import numpy as np
rng = np.random.default_rng(0)
X = rng.standard_normal((4096, 2))
means = np.array([[0.0, 0.0], [1.0, 1.0]])
labels = np.argmin(np.linalg.norm(X - means[:, None], axis=2), axis=0)
A = rng.standard_normal((512, 64))
B = rng.standard_normal((512, 64))
pairs = np.sum(A[:, :, None] * B[:, None, :], axis=(-2, -1))
rows = (A * 2.0 + B).sum(axis=1)
waves = np.sin(A).sum()
with np.errstate(over="ignore"):
    big = np.exp(np.linspace(-800, 800, 4096))  # |x| > 708: libm's lanes
print(np.bincount(labels).tolist(), pairs[:3].tolist(), rows[:3].tolist(), f"{waves:.6f}",
      int(np.isinf(big).sum()), int((big == 0).sum()))
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    path = tmp_path_factory.mktemp("program") / "kernels.py"
    path.write_text(PROGRAM)
    if harness.run(harness.NPYTHON, ["-c", "import npython; print(npython.host()['vector_isa'])"]).stdout.strip() == "sse2":
        pytest.skip("no vector ISA the x86 backend uses on this machine")
    return str(path)


def run(program, cache, tmp_path, **env):
    stats_file = tmp_path / "stats.json"
    got = harness.run(harness.NPYTHON, [program],
                      env_extra={"NPY_KERNEL_CACHE": str(cache), "NPY_JIT_STATS": str(stats_file), **env})
    assert got.returncode == 0, got.stderr
    assert got.stdout == harness.run(harness.PYTHON3, [program]).stdout
    return json.loads(stats_file.read_text())


def kernel_files(cache):
    return sorted((cache / "kernels").glob("*.kernel"))


def test_a_second_run_loads_what_the_first_compiled(program, tmp_path):
    cache = tmp_path / "cache"
    first = run(program, cache, tmp_path)
    files = kernel_files(cache)
    assert first["jit.kernels_loaded"] == 0
    # Every kernel, sin's too: its calls to libm go through slots the loading
    # process fills in.
    assert first["jit.kernels_compiled"] == len(files) >= 4
    assert stat.S_IMODE((cache / "kernels").stat().st_mode) == 0o700
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    # No half-written file is left.
    assert [f.name for f in (cache / "kernels").iterdir() if f.suffix != ".kernel"] == []

    second = run(program, cache, tmp_path)
    assert second["jit.kernels_loaded"] == len(files)
    assert second["jit.kernels_compiled"] == 0
    assert second["jit.disk_cache_rejected"] == 0


def damage(path, how):
    data = bytearray(path.read_bytes())
    if how == "flip":
        data[-20] ^= 0x01  # in the code, just before the checksum
    elif how == "truncate":
        data = data[: len(data) // 2]
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["flip", "truncate"])
def test_a_damaged_file_is_compiled_again(program, tmp_path, how):
    cache = tmp_path / "cache"
    run(program, cache, tmp_path)
    files = kernel_files(cache)
    for f in files:
        damage(f, how)
    again = run(program, cache, tmp_path)
    assert again["jit.kernels_loaded"] == 0
    assert again["jit.disk_cache_rejected"] == len(files)
    # ... and stored again, whole.
    assert run(program, cache, tmp_path)["jit.kernels_loaded"] == len(files)


def fnv1a(data):
    h = 14695981039346656037
    for byte in data:
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def read_kernel_file(path):
    """(key, facts, code) of a kernel file: the magic, the build ID, the
    key, the facts and the code, each with its length, then the checksum."""
    data = path.read_bytes()
    at = 8
    fields = []
    for _ in range(2):
        (size,) = struct.unpack_from("<Q", data, at)
        fields.append(data[at + 8:at + 8 + size])
        at += 8 + size
    (count,) = struct.unpack_from("<Q", data, at)
    facts = list(struct.unpack_from(f"<{count}q", data, at + 8))
    return data[:at], fields[1].decode(), facts, data[at + 8 + 8 * count:-8]


def write_kernel_file(path, head, facts, code):
    body = head + struct.pack(f"<Q{len(facts)}q", len(facts), *facts) + code
    path.write_bytes(body + struct.pack("<Q", fnv1a(body)))


# A file whose checksum matches but whose facts do not say how to call its
# kernel: each fact forged in turn (a Kernel's: lanes, lane bytes, uses
# index, leaf sums, streaming stores, row results, notes ties, paired
# function's offset; a chain kernel's: points).
@pytest.mark.parametrize("fact, value", [(0, 0), (1, 0), (0, 1), (1, 3), (0, -8), (2, 2), (3, 1), (3, 0), (4, 7), (5, 1),
                                         (6, 1), (7, 1 << 40), (7, -2), ("points", 0), ("points", 1), ("points", -4)])
def test_a_file_whose_facts_are_forged_is_compiled_again(program, tmp_path, fact, value):
    cache = tmp_path / "cache"
    run(program, cache, tmp_path)
    forged = 0
    for f in kernel_files(cache):
        head, key, facts, code = read_kernel_file(f)
        chain = "|chain|" in key
        at = 0 if chain else fact
        if chain != (fact == "points") or facts[at] == value:
            continue
        facts[at] = value
        write_kernel_file(f, head, facts, code)
        forged += 1
    assert forged
    again = run(program, cache, tmp_path)
    assert again["jit.disk_cache_rejected"] == forged
    assert again["jit.kernels_loaded"] == len(kernel_files(cache)) - forged


def test_a_file_under_another_kernels_name_is_not_run(program, tmp_path):
    cache = tmp_path / "cache"
    run(program, cache, tmp_path)
    files = kernel_files(cache)
    contents = [f.read_bytes() for f in files]
    for f, other in zip(files, contents[1:] + contents[:1]):
        f.write_bytes(other)
    swapped = run(program, cache, tmp_path)
    assert swapped["jit.kernels_loaded"] == 0
    assert swapped["jit.disk_cache_rejected"] == len(files)


def test_files_or_a_directory_others_may_write_are_not_used(program, tmp_path):
    cache = tmp_path / "cache"
    run(program, cache, tmp_path)
    files = kernel_files(cache)
    files[0].chmod(0o620)
    one_open = run(program, cache, tmp_path)
    assert one_open["jit.kernels_loaded"] == len(files) - 1
    assert one_open["jit.disk_cache_rejected"] == 1

    (cache / "kernels").chmod(0o755)
    shared = run(program, cache, tmp_path)
    assert shared["jit.kernels_loaded"] == 0
    assert shared["jit.disk_cache_rejected"] == 0


def test_off_keeps_nothing_and_logging_compiles(program, tmp_path):
    cache = tmp_path / "cache"
    off = run(program, "off", tmp_path, HOME=str(tmp_path), XDG_CACHE_HOME=str(cache))
    assert off["jit.kernels_loaded"] == 0 and not cache.exists()
    assert not (tmp_path / ".cache").exists()

    run(program, cache, tmp_path)
    logged = harness.run(harness.NPYTHON, [program],
                         env_extra={"NPY_KERNEL_CACHE": str(cache), "NPY_JIT_LOG": "output_code"})
    # Every kernel is listed, so every kernel was compiled: a loaded one has no listing.
    assert logged.stderr.count("[npython:output_code] kernel (") == off["jit.kernels_compiled"]


@pytest.mark.parametrize("spelling", ["OFF", "Off", "0", "false", "FALSE", "no", "No"])
def test_every_usual_spelling_of_off_keeps_nothing(tmp_path, spelling):
    got = harness.run(harness.NPYTHON, ["-c", "import numpy as np; print((np.arange(5000.0) * 2 + 1).sum())"],
                      cwd=tmp_path, env_extra={"NPY_KERNEL_CACHE": spelling, "HOME": str(tmp_path / "home"),
                                               "XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert got.returncode == 0, got.stderr
    assert got.stdout == "25000000.0\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("relative", ["cache", "./cache", "OF"])
def test_a_relative_directory_is_refused(tmp_path, relative):
    got = harness.run(harness.NPYTHON, ["-c", "print('ran')"], cwd=tmp_path,
                      env_extra={"NPY_KERNEL_CACHE": relative})
    assert got.returncode == 2
    assert got.stdout == ""
    assert got.stderr == f"npython: NPY_KERNEL_CACHE must be ABSOLUTE_DIR|off, not '{relative}'\n"
    assert list(tmp_path.iterdir()) == []


def test_the_default_directory_follows_xdg_cache_home(program, tmp_path):
    cache_home = tmp_path / "xdg"
    # Empty, as unset: the default (the suite sets a cache of its own).
    got = harness.run(harness.NPYTHON, [program], env_extra={
        "HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(cache_home), "NPY_KERNEL_CACHE": ""})
    assert got.returncode == 0, got.stderr
    assert kernel_files(cache_home / "npython")
    assert not (tmp_path / "home").exists()


DAY = 24 * 3600


def test_a_writing_run_tidies_the_directory(program, tmp_path):
    cache = tmp_path / "cache"
    run(program, cache, tmp_path)
    kernels = cache / "kernels"
    files = kernel_files(cache)
    now = time.time()
    # A crashed writer's half file, an old build's kernel, a kernel loaded
    # two days ago, and a file that is not the cache's.
    partial, fresh_partial = kernels / ".writing-99999-0", kernels / ".writing-99999-1"
    stale = kernels / "00000000000000ab.kernel"
    foreign = kernels / "README"
    for f in (partial, fresh_partial, stale, foreign):
        f.write_bytes(b"x")
        f.chmod(0o600)
    os.utime(partial, (now - 3600, now - 3600))
    os.utime(stale, (now - 40 * DAY, now - 40 * DAY))
    os.utime(files[0], (now - 2 * DAY, now - 2 * DAY))
    files[1].unlink()  # compiled and written again: a writing run

    again = run(program, cache, tmp_path)
    assert again["jit.kernels_loaded"] == len(files) - 1
    left = {f.name for f in kernels.iterdir()}
    assert partial.name not in left and stale.name not in left
    assert {fresh_partial.name, foreign.name, files[0].name, files[1].name} <= left
    # Loading refreshed the kernel's time.
    assert files[0].stat().st_mtime > now - 60

    # A run that writes nothing lists nothing.
    stale.write_bytes(b"x")
    os.utime(stale, (now - 40 * DAY, now - 40 * DAY))
    run(program, cache, tmp_path)
    assert stale.exists()


def make_files(directory, names, age):
    """Empty files, private, `age` seconds old."""
    when = time.time() - age
    for name in names:
        fd = os.open(directory / name, os.O_WRONLY | os.O_CREAT, 0o600)
        os.write(fd, b"x")
        os.utime(fd, (when, when))
        os.close(fd)


def disk_bytes(path):
    return path.stat().st_blocks * 512


MAX_CACHE_BYTES = 64 << 20

WAIT_FOR_FILE = """
deadline = time.monotonic() + 60
while not os.path.exists(os.environ["WAIT_FOR"]) and time.monotonic() < deadline:
    time.sleep(0.01)
"""


def test_the_kernels_blocks_on_disk_stay_within_the_bound_as_they_are_written(program, tmp_path):
    cache = tmp_path / "cache"
    run(program, cache, tmp_path)
    kernels = cache / "kernels"
    files = kernel_files(cache)
    # One-byte kernels, an hour old, each taking a block: tiny by their
    # sizes, over the bound by their blocks.
    make_files(kernels, ["ff00000000000000.kernel"], 3600)
    block = disk_bytes(kernels / "ff00000000000000.kernel")
    fillers = [f"ff{i:014x}.kernel" for i in range(1, MAX_CACHE_BYTES // block + 500)]
    make_files(kernels, fillers, 3600)
    files[0].unlink()  # compiled and written again: a writing run
    waiting = tmp_path / "waiting.py"
    waiting.write_text(open(program).read() + "import os, time\n" + WAIT_FOR_FILE)

    got = harness.run(harness.NPYTHON, [str(waiting)],
                      env_extra={"NPY_KERNEL_CACHE": str(cache), "WAIT_FOR": str(files[0])})
    assert got.returncode == 0, got.stderr
    assert all(f.exists() for f in files)
    on_disk = sum(disk_bytes(f) for f in kernels.glob("*.kernel"))
    assert MAX_CACHE_BYTES // 2 < on_disk <= MAX_CACHE_BYTES


def test_the_exit_does_not_wait_for_a_tidy(program, tmp_path):
    kernels = tmp_path / "cache" / "kernels"
    kernels.mkdir(parents=True, mode=0o700)
    # An old build's kernels, thousands of them: every one to be removed.
    make_files(kernels, [f"ee{i:014x}.kernel" for i in range(30000)], 40 * DAY)
    ending = tmp_path / "ending.py"
    # The writer is removing files when the program ends.
    ending.write_text(open(program).read() + "import time\ntime.sleep(0.3)\nprint(time.time())\n")
    env = harness.base_env()
    env["NPY_KERNEL_CACHE"] = str(tmp_path / "cache")
    got = subprocess.run([harness.NPYTHON, str(ending)], env=env, capture_output=True, text=True, timeout=120)
    ended = time.time()
    assert got.returncode == 0, got.stderr
    exit_seconds = ended - float(got.stdout.split()[-1])
    harness.report(f"exit with a tidy under way: {exit_seconds:.3f} s")
    assert exit_seconds < 0.5


SWAP = """
import os
kernels = os.path.join(os.environ["NPY_KERNEL_CACHE"], "kernels")
os.rename(kernels, kernels + ".moved")
os.symlink(os.environ["ELSEWHERE"], kernels)
"""


def test_a_directory_swapped_for_a_link_mid_run_changes_nothing(program, tmp_path):
    # As another user could where the parent is writable by all: the
    # directory renamed away and a link to another one put in its place,
    # after npython opened it.
    cache, elsewhere = tmp_path / "cache", tmp_path / "elsewhere"
    assert harness.run(harness.NPYTHON, ["-c", "pass"], env_extra={"NPY_KERNEL_CACHE": str(cache)}).returncode == 0
    elsewhere.mkdir(mode=0o700)
    stale = "00000000000000ab.kernel"  # what a tidy deletes
    make_files(elsewhere, [stale], 40 * DAY)
    make_files(cache / "kernels", [stale], 40 * DAY)
    swapping = tmp_path / "swapping.py"
    swapping.write_text(SWAP + open(program).read())

    got = harness.run(harness.NPYTHON, [str(swapping)],
                      env_extra={"NPY_KERNEL_CACHE": str(cache), "ELSEWHERE": str(elsewhere)})
    assert got.returncode == 0, got.stderr
    assert got.stdout == harness.run(harness.PYTHON3, [program]).stdout
    assert [f.name for f in elsewhere.iterdir()] == [stale]
    moved = cache / "kernels.moved"
    assert len(list(moved.glob("*.kernel"))) >= 4 and not (moved / stale).exists()
