# Writes into an array that pending work reads, made by code npython does
# not run itself: a generator's body (CPython runs it: next(), a for loop,
# list()), an ndarray subclass's in-place operator (np.ma), a C method of
# another type writing memory an array views (array.array.reverse), and
# another thread, released by a lock's methods. The pending work is
# computed first, as NumPy computed it at its own line. Arrays of 4,096
# elements: npython records work on them.
import array
import threading

import numpy as np


def generator_writes():
    a = np.ones(4096)

    def reset():
        a[:] = 5
        yield 1
        a[:] = 7
        yield 2

    g = reset()
    b = a * 2
    next(g)
    c = a + 1
    for _ in g:
        pass
    d = a - 1
    values = [a * 3 for _ in list(reset())]
    print(b[:3], c[:3], d[:3], values[0][:3])


def subclass_in_place():
    a = np.ones(4096)
    s = a.view(np.ma.MaskedArray)
    b = a * 2
    s += 5
    print(b[:3], a[:3])


def array_module_buffer():
    buffer = array.array("d", range(4096))
    a = np.frombuffer(buffer, dtype=np.float64)
    b = a * 2
    buffer.reverse()
    print(b[:3], a[:3])


def another_thread():
    a = np.ones(4096)
    go, done = threading.Lock(), threading.Lock()
    go.acquire()
    done.acquire()

    def writer():
        go.acquire()
        a[:] = 0
        done.release()

    worker = threading.Thread(target=writer)
    worker.start()
    b = a * 2
    go.release()
    done.acquire()
    worker.join()
    print(b[:3], a[:3])


generator_writes()
subclass_in_place()
array_module_buffer()
another_thread()
