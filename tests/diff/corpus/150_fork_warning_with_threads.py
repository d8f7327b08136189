# os.fork() from a process with a thread of the program's own, after
# regions ran on the kernel threads: under CPython 3.12 npython warns that
# the process is multi-threaded as python3 does (npython's own threads keep
# the warning away only where the program has no other thread; whether
# python3 itself counts NumPy's BLAS threads then depends on how it reads
# /proc, so that case is not compared here); 3.11 never warns.
import os
import threading
import warnings

import numpy as np

warnings.simplefilter("always", DeprecationWarning)


def fork_and_wait(label):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        x = np.linspace(0.0, 1.0, 1 << 16)
        os.write(write_end, repr(float(np.sum(x * x))).encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as f:
        print(label, f.read())
    os.waitpid(pid, 0)


x = np.arange(1 << 17, dtype=np.float64)
print("parent", float(np.sum(x * 0.5 + 1.0)))
go = threading.Event()
worker = threading.Thread(target=go.wait)
worker.start()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", DeprecationWarning)
    fork_and_wait("with a thread")
print("warnings with a thread", [str(w.category.__name__) for w in caught])
go.set()
worker.join()
