"""Richards-style operating-system scheduler simulation.

Models a tiny priority-driven kernel in the manner of Martin Richards'
benchmark: an idle task, a worker task, two handler tasks and two device
tasks exchange work and device packets through per-task queues, and a
scheduler repeatedly runs the highest-priority runnable task.  Each run
drives the idle task for IDLE_COUNT ticks; the program performs ITERATIONS
independent runs and prints the packet-queue and hold counts (which must be
the same for every run) plus their totals.
"""

ITERATIONS = 100
IDLE_COUNT = 10000

# Task identities.
ID_IDLE = 1
ID_WORKER = 2
ID_HANDLER_A = 3
ID_HANDLER_B = 4
ID_DEVICE_A = 5
ID_DEVICE_B = 6

# Packet kinds.
KIND_DEVICE = 0
KIND_WORK = 1

# Task state bits.
HAS_PACKET = 1
WAITING = 2
HELD = 4

BUFFER_LEN = 4
LOW15 = 0x7FFF
ALPHABET = "0ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Packet(object):
    __slots__ = ("next", "owner", "kind", "count", "buf")

    def __init__(self, next_packet, owner, kind):
        self.next = next_packet
        self.owner = owner
        self.kind = kind
        self.count = 0
        self.buf = [0] * BUFFER_LEN


def chain(count, owner, kind):
    """A queue of `count` fresh packets addressed to `owner`."""
    head = None
    for _ in range(count):
        head = Packet(head, owner, kind)
    return head


def enqueue(packet, head):
    """Append packet at the tail of the queue starting at head; new head."""
    packet.next = None
    if head is None:
        return packet
    node = head
    while node.next is not None:
        node = node.next
    node.next = packet
    return head


class Task(object):
    """A task control block; subclasses define step()."""

    def __init__(self, kernel, ident, priority, queue, state):
        self.kernel = kernel
        self.ident = ident
        self.priority = priority
        self.queue = queue
        self.state = state
        self.link = kernel.task_list
        kernel.task_list = self
        kernel.table[ident] = self

    def runnable(self):
        state = self.state
        if state & HELD:
            return False
        if state & WAITING:
            return bool(state & HAS_PACKET)
        return True

    def take_packet(self):
        """Remove the first queued packet, if the task was waiting for it."""
        if self.state == WAITING | HAS_PACKET:
            packet = self.queue
            self.queue = packet.next
            self.state = HAS_PACKET if self.queue is not None else 0
            return packet
        return None

    def step(self, packet):
        raise NotImplementedError


class IdleTask(Task):
    def __init__(self, kernel, ticks):
        Task.__init__(self, kernel, ID_IDLE, 0, None, 0)
        self.seed = 1
        self.ticks = ticks

    def step(self, packet):
        kernel = self.kernel
        self.ticks -= 1
        if self.ticks == 0:
            return kernel.hold_current()
        seed = self.seed
        if seed & 1:
            self.seed = ((seed >> 1) & LOW15) ^ 0xD008
            return kernel.release(ID_DEVICE_B)
        self.seed = (seed >> 1) & LOW15
        return kernel.release(ID_DEVICE_A)


class WorkerTask(Task):
    def __init__(self, kernel, queue):
        Task.__init__(self, kernel, ID_WORKER, 1000, queue, WAITING | HAS_PACKET)
        self.target = ID_HANDLER_A
        self.letter = 0

    def step(self, packet):
        kernel = self.kernel
        if packet is None:
            return kernel.wait_current()
        if self.target == ID_HANDLER_A:
            self.target = ID_HANDLER_B
        else:
            self.target = ID_HANDLER_A
        packet.owner = self.target
        packet.count = 0
        buf = packet.buf
        letter = self.letter
        for i in range(BUFFER_LEN):
            letter += 1
            if letter > 26:
                letter = 1
            buf[i] = ALPHABET[letter]
        self.letter = letter
        return kernel.send(packet)


class HandlerTask(Task):
    def __init__(self, kernel, ident, priority, queue):
        Task.__init__(self, kernel, ident, priority, queue, WAITING | HAS_PACKET)
        self.work = None
        self.devices = None

    def step(self, packet):
        kernel = self.kernel
        if packet is not None:
            if packet.kind == KIND_WORK:
                self.work = enqueue(packet, self.work)
            else:
                self.devices = enqueue(packet, self.devices)
        work = self.work
        if work is not None:
            pos = work.count
            if pos >= BUFFER_LEN:
                self.work = work.next
                return kernel.send(work)
            device = self.devices
            if device is not None:
                self.devices = device.next
                device.count = work.buf[pos]
                work.count = pos + 1
                return kernel.send(device)
        return kernel.wait_current()


class DeviceTask(Task):
    def __init__(self, kernel, ident, priority):
        Task.__init__(self, kernel, ident, priority, None, WAITING)
        self.pending = None

    def step(self, packet):
        kernel = self.kernel
        if packet is None:
            pending = self.pending
            if pending is None:
                return kernel.wait_current()
            self.pending = None
            return kernel.send(pending)
        self.pending = packet
        return kernel.hold_current()


class Kernel(object):
    def __init__(self):
        self.task_list = None
        self.table = [None] * 7
        self.current = None
        self.queue_count = 0
        self.hold_count = 0

    # Operations used by the running task; each returns the next task.

    def hold_current(self):
        self.hold_count += 1
        task = self.current
        task.state |= HELD
        return task.link

    def wait_current(self):
        task = self.current
        task.state |= WAITING
        return task

    def release(self, ident):
        task = self.table[ident]
        task.state &= ~HELD
        if task.priority > self.current.priority:
            return task
        return self.current

    def send(self, packet):
        target = self.table[packet.owner]
        self.queue_count += 1
        packet.next = None
        packet.owner = self.current.ident
        if target.queue is None:
            target.queue = packet
            target.state |= HAS_PACKET
            if target.priority > self.current.priority:
                return target
        else:
            target.queue = enqueue(packet, target.queue)
        return self.current

    def run(self):
        task = self.task_list
        while task is not None:
            if task.runnable():
                self.current = task
                task = task.step(task.take_packet())
            else:
                task = task.link


def simulate(idle_count):
    kernel = Kernel()
    IdleTask(kernel, idle_count)
    WorkerTask(kernel, chain(2, 0, KIND_WORK))
    HandlerTask(kernel, ID_HANDLER_A, 2000, chain(3, ID_DEVICE_A, KIND_DEVICE))
    HandlerTask(kernel, ID_HANDLER_B, 3000, chain(3, ID_DEVICE_B, KIND_DEVICE))
    DeviceTask(kernel, ID_DEVICE_A, 4000)
    DeviceTask(kernel, ID_DEVICE_B, 5000)
    kernel.run()
    return kernel.queue_count, kernel.hold_count


def main():
    results = [simulate(IDLE_COUNT) for _ in range(ITERATIONS)]
    first = results[0]
    for r in results:
        if r != first:
            raise SystemExit("inconsistent results: %r vs %r" % (r, first))
    print("qpkt_count=%d hold_count=%d" % first)
    print("iterations=%d total_qpkt=%d total_hold=%d" % (
        ITERATIONS,
        sum(r[0] for r in results),
        sum(r[1] for r in results),
    ))


if __name__ == "__main__":
    main()
