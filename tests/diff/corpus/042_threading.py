# threading with join; results collected and printed in sorted order.
import queue
import threading

results = []
lock = threading.Lock()


def work(tid, n):
    s = sum(i * i for i in range(n))
    with lock:
        results.append((tid, n, s))


threads = [threading.Thread(target=work, args=(i, 1000 * (i + 1)), name=f"w{i}") for i in range(6)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("alive after join", [t.is_alive() for t in threads])
for r in sorted(results):
    print("result", r)

counter = 0
clock = threading.Lock()


def incr(times):
    global counter
    for _ in range(times):
        with clock:
            counter += 1


ts = [threading.Thread(target=incr, args=(5000,)) for _ in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("counter", counter)

q = queue.Queue()
out = queue.Queue()


def consumer():
    while (item := q.get()) is not None:
        out.put(item * item)


cs = [threading.Thread(target=consumer) for _ in range(3)]
for c in cs:
    c.start()
for i in range(20):
    q.put(i)
for _ in cs:
    q.put(None)
for c in cs:
    c.join()
collected = sorted(out.get() for _ in range(out.qsize()))
print("squares", collected)
ev = threading.Event()
flag = []
t = threading.Thread(target=lambda: (ev.wait(), flag.append("set seen")))
t.start()
ev.set()
t.join()
print(flag, threading.current_thread().name, threading.active_count())
