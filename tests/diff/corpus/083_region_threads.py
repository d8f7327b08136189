"""Recorded NumPy work in several threads at once: each threading.Thread
computes in its own function (element-wise chains, reductions, in-place
updates of its own array, errstate inside the thread, an error
caught inside the thread), results are collected, joined and printed in a
fixed order; a thread pool maps a function over chunks of one array."""
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

N = 60_000
results = {}
lock = threading.Lock()


def chain_worker(tid, scale):
    x = np.linspace(-1, 1, N) * scale
    y = np.sin(x) * np.cos(x) + x * x
    for _ in range(5):
        y = y * 0.9 + np.sqrt(np.abs(y))
    s = y.sum()
    m = y.max()
    with lock:
        results[("chain", tid)] = (repr(s), repr(m), y.dtype.name)


def reduce_worker(tid):
    m = (np.arange(300 * 200, dtype=np.float32).reshape(300, 200) % 17) * (tid + 1)
    col = m.mean(axis=0)
    row = m.sum(axis=1)
    z = (m - col) / (row[:, None] + 1)
    with lock:
        results[("reduce", tid)] = (repr(z.sum()), repr(col[:2]), repr(row[-1]), z.dtype.name)


def inplace_worker(tid, arr):
    before = arr * 2
    arr += tid
    arr *= 3
    with lock:
        results[("inplace", tid)] = (repr(before[:2]), repr(arr[:2]), repr(arr.sum()))


def warning_worker(tid):
    x = np.linspace(-1, 1, N + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = 1.0 / x
        s = np.log(x)
    with np.errstate(invalid="ignore"):  # (catch_warnings is not thread-safe)
        q = np.sqrt(x)
    try:
        with np.errstate(all="raise"):
            bad = np.arccos(x * 3)
            out = repr(bad.sum())
    except FloatingPointError as e:
        out = f"FloatingPointError: {e}"
    try:
        np.ones((3, 4)) + (x[:5] * 2)
    except ValueError as e:
        err = str(e)
    with lock:
        results[("warn", tid)] = (repr(int(np.isinf(r).sum())), repr(int(np.isnan(s).sum())), repr(int(np.isnan(q).sum())), out, err)


def chunk_norm(chunk):
    c = chunk * 2 - 1
    return float(np.sqrt((c * c).sum())), c.dtype.name


def main():
    threads = [threading.Thread(target=chain_worker, args=(i, 1.0 + i)) for i in range(3)]
    threads += [threading.Thread(target=reduce_worker, args=(i,)) for i in range(2)]
    arrays = [np.arange(N, dtype=np.int64) for _ in range(2)]
    threads += [threading.Thread(target=inplace_worker, args=(i, arrays[i])) for i in range(2)]
    threads += [threading.Thread(target=warning_worker, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    # the main thread works too while the others run
    own = np.cos(np.linspace(0, 10, N)) * 3
    own_sum = (own * own).sum()
    for t in threads:
        t.join()
    for key in sorted(results):
        print(key, results[key])
    print("caller arrays", [repr(a[:3]) for a in arrays])
    print("main thread", repr(own_sum))
    big = np.linspace(0, 1, 8 * 25_000)
    with ThreadPoolExecutor(max_workers=4) as pool:
        norms = list(pool.map(chunk_norm, np.split(big, 8)))
    print("pool", norms)
    print("threads alive", [t.is_alive() for t in threads])


main()


def thread_exception():
    def bad():
        a = np.ones(N) * 2
        a.reshape(7, -1)

    errors = []
    orig = threading.excepthook

    def hook(args):
        errors.append((args.exc_type.__name__, str(args.exc_value)))

    threading.excepthook = hook
    t = threading.Thread(target=bad)
    t.start()
    t.join()
    threading.excepthook = orig
    print("thread error", errors)


thread_exception()
