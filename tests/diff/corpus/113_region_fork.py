# Processes forked after regions ran on several threads (the kernels'
# thread team lives only in the parent): os.fork and a multiprocessing pool
# of forked workers compute regions of their own, big enough to share out.
import multiprocessing
import os

import numpy as np


def total(n):
    x = np.arange(n, dtype=np.float64)
    return float(np.sum(x * 0.5 + 1.0))


def main():
    print("parent first", total(1 << 17))
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.write(write_end, repr(total(1 << 16)).encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as f:
        print("forked child", f.read())
    os.waitpid(pid, 0)
    with multiprocessing.get_context("fork").Pool(2) as pool:
        print("pool", pool.map(total, [5000, 1 << 16, 100000]))
    print("parent after", total(1 << 17))


if __name__ == "__main__":
    main()
