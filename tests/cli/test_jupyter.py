"""A Jupyter kernel that runs under npython: `npython -m ipykernel install`
writes a kernel spec that starts npython, and the cells that kernel runs
are npython's (the JIT on, their NumPy work compiled into regions), with
python3's results."""
import json
import os
import subprocess

import jupyter_client.manager

import harness

CELL = """
import sys, numpy as np, npython
def energy(a):
    return ((a * 2.0 + 1.0) ** 2).sum()
print(npython.jit_enabled(), repr(energy(np.arange(100_000.0))), npython.stats()["jit.regions"] >= 1)
"""


def test_kernel_cells_run_under_npython(tmp_path):
    prefix = tmp_path / "prefix"
    installed = subprocess.run([harness.NPYTHON, "-m", "ipykernel", "install", "--prefix", str(prefix),
                                "--name", "npython-test"], capture_output=True, text=True, env=harness.base_env())
    assert installed.returncode == 0, installed.stderr
    spec_dir = prefix / "share" / "jupyter" / "kernels" / "npython-test"
    spec = json.loads((spec_dir / "kernel.json").read_text())
    assert spec["argv"][0] == harness.NPYTHON

    os.environ["JUPYTER_PATH"] = str(prefix / "share" / "jupyter")
    try:
        manager, client = jupyter_client.manager.start_new_kernel(kernel_name="npython-test")
    finally:
        del os.environ["JUPYTER_PATH"]
    printed = []
    try:
        reply = client.execute_interactive(
            CELL, timeout=120,
            output_hook=lambda msg: printed.append(msg["content"]["text"]) if msg["msg_type"] == "stream" else None)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert reply["content"]["status"] == "ok"
    reference = subprocess.run([harness.PYTHON3, "-c", "import numpy as np\n"
                                "print(repr(((np.arange(100_000.0) * 2.0 + 1.0) ** 2).sum()))"],
                               capture_output=True, text=True, check=True).stdout.strip()
    assert "".join(printed) == f"True {reference} True\n"
