# async/await with asyncio.run: coroutines, gather, tasks, queues (deterministic order).
import asyncio

events = []


async def worker(name, n):
    total = 0
    for i in range(n):
        events.append(f"{name}{i}")
        total += i
        await asyncio.sleep(0)
    return f"{name}:{total}"


async def producer(q, items):
    for it in items:
        await q.put(it)
        events.append(f"put {it}")
    await q.put(None)


async def consumer(q, out):
    while (item := await q.get()) is not None:
        out.append(item * 10)
        events.append(f"got {item}")


async def failing():
    await asyncio.sleep(0)
    raise ValueError("task failed")


async def agen(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i * i


async def main():
    results = await asyncio.gather(worker("a", 3), worker("b", 2), worker("c", 1))
    print("gather", results)
    print("interleaving", events)
    events.clear()
    q = asyncio.Queue(maxsize=2)
    out = []
    await asyncio.gather(producer(q, [1, 2, 3, 4]), consumer(q, out))
    print("queue out", out)
    print("queue events", events)
    t = asyncio.create_task(worker("t", 2))
    print("task result", await t, t.done())
    res = await asyncio.gather(failing(), worker("z", 1), return_exceptions=True)
    print("return_exceptions", [r if isinstance(r, str) else repr(r) for r in res])
    try:
        await asyncio.wait_for(failing(), timeout=10)
    except ValueError as e:
        print("caught", e)
    print("async gen", [v async for v in agen(5)])
    async with asyncio.TaskGroup() as tg:
        t1 = tg.create_task(worker("g", 2))
        t2 = tg.create_task(worker("h", 3))
    print("taskgroup", t1.result(), t2.result())
    return "main done"


print(asyncio.run(main()))
