# The eval breaker: an asynchronous exception stops a busy thread, and a
# signal handler runs in the main thread's loop.
import ctypes
import os
import signal
import threading

import numpy as np  # so that npython's default policy evaluates this file


class Stop(Exception):
    pass


state = {}
started = threading.Event()


def worker():
    try:
        started.set()
        n = 0
        while True:
            n += 1
    except Stop:
        state["stopped"] = True


t = threading.Thread(target=worker)
t.start()
started.wait()
ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(t.ident), ctypes.py_object(Stop))
t.join(30)
print("worker stopped:", state.get("stopped", False), "alive:", t.is_alive())

received = []
signal.signal(signal.SIGUSR1, lambda signum, frame: received.append(signum))
os.kill(os.getpid(), signal.SIGUSR1)
total = 0
for i in range(100_000):
    total += i
print("handler ran:", received == [signal.SIGUSR1], total, np.int64(total) % 7)
