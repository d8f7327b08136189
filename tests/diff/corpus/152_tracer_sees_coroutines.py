# A tracer started inside a running function sees a coroutine's `async for`
# as under python3: each finished __anext__ is one `exception` event (under
# CPython 3.12 a frame hook left set while tracing made it two), lines and
# returns in order. The NumPy work around it is what installs npython's
# frame hook.
import sys

import numpy as np


class Letters:
    def __init__(self, text):
        self._it = iter(text)

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return next(self._it)
        except StopIteration:
            raise StopAsyncIteration


async def spell(text, weights):
    total = 0.0
    async for letter in Letters(text):
        total += float(weights[ord(letter) % len(weights)])
    return total


def run_traced(coroutine, events):
    first = spell.__code__.co_firstlineno

    def tracer(frame, event, arg):
        code = frame.f_code
        where = code.co_name if code is not spell.__code__ else frame.f_lineno - first
        events.append((where, event, type(arg).__name__ if event == "exception" else None))
        return tracer

    sys.settrace(tracer)
    try:
        coroutine.send(None)
    except StopIteration as done:
        result = done.value
    finally:
        sys.settrace(None)
    return result


weights = np.arange(1.0, 8.0) ** 2
events = []
result = run_traced(spell("abcab", weights), events)
print(repr(result))
for event in events:
    print(event)
print(repr(float((weights * 3).sum())))
