# Eight threads running Python code at once; results gathered and printed in
# a fixed order.
import threading

import numpy as np  # so that npython's default policy evaluates this file


def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def work(index, results, lock):
    total = 0
    for n in range(1 + index * 2000, 1 + (index + 1) * 2000):
        total += collatz_steps(n)
    squares = {k: k * k for k in range(index * 10, index * 10 + 10)}
    try:
        raise ValueError(index)
    except ValueError as e:
        caught = e.args[0]
    with lock:
        results[index] = (total, sum(squares.values()), caught)


results = {}
lock = threading.Lock()
threads = [threading.Thread(target=work, args=(i, results, lock)) for i in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
for i in sorted(results):
    print(i, results[i])
print("vector check", int(np.array([r[0] for r in results.values()]).sum()))
