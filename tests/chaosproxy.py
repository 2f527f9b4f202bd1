"""A misbehaving link in user space (this machine's kernel has no ``netem``): a TCP proxy between one peer and
the host that adds latency and jitter, splits chunks into single bytes, throttles bandwidth, stalls a direction
for a while, holds a connection half-open (open, silent, never closed) and resets connections in the middle of a
line. Faults are chosen per connection (:attr:`ChaosProxy.faults_for`), so a peer's first connection can die and
its reconnect run clean; the proxy counts what it did (:class:`Injected`).

Used by tests/test_net_chaos.py and bench/net_chaos.py.
"""

from __future__ import annotations

import random
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

import trio


@dataclass(frozen=True)
class Faults:
    """What one connection suffers. Times are seconds from the connection's start."""

    latency: float = 0.0
    #: Added to ``latency``: uniform in 0..jitter for every chunk.
    jitter: float = 0.0
    #: The share of chunks written one byte at a time.
    single_bytes: float = 0.0
    #: Bytes per second in each direction (None: as fast as the socket goes).
    bandwidth: float | None = None
    #: Every ``stall_every`` seconds (on average) one direction stops for ``stall_for`` seconds.
    stall_every: float | None = None
    stall_for: float = 0.0
    #: From this time on nothing is forwarded either way, and the connection is never closed (half-open).
    hold_after: float | None = None
    #: At this time the connection is reset (RST both ways) after half of the chunk being forwarded.
    reset_after: float | None = None


@dataclass
class Injected:
    """What the proxy did, over all its connections."""

    connections: int = 0
    resets: int = 0
    holds: int = 0
    stalls: int = 0
    split_chunks: int = 0
    bytes: int = 0
    #: Connections that ended because of a fault the proxy injected (reset or hold).
    killed: int = 0
    delays: list[float] = field(default_factory=list)


@dataclass
class _Connection:
    start: float
    held: trio.Event = field(default_factory=trio.Event)
    reset: bool = False


def _abort(stream: trio.SocketStream) -> None:
    """Close with an RST (SO_LINGER 0) rather than a FIN: what a crashed router or peer looks like."""
    try:
        stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    stream.socket.close()


class ChaosProxy:
    """Listens on 127.0.0.1 and forwards each connection to ``target`` with the faults ``faults_for(n)`` gives
    its ``n``-th connection (0 first). Run :meth:`serve` in a nursery (``nursery.start`` returns the port)."""

    def __init__(self, target_port: int, faults_for: Callable[[int], Faults], seed: int = 0) -> None:
        self.target_port = target_port
        self.faults_for = faults_for
        self.rng = random.Random(seed)
        self.injected = Injected()
        self.port = 0

    async def serve(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            task_status.started(self.port)
            await trio.serve_listeners(self._connection, listeners, handler_nursery=nursery)

    async def _connection(self, client: trio.SocketStream) -> None:
        n = self.injected.connections
        self.injected.connections += 1
        faults = self.faults_for(n)
        try:
            upstream = await trio.open_tcp_stream("127.0.0.1", self.target_port)
        except OSError:
            await client.aclose()
            return
        conn = _Connection(trio.current_time())
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._pump, client, upstream, faults, conn, nursery.cancel_scope)
                nursery.start_soon(self._pump, upstream, client, faults, conn, nursery.cancel_scope)
                if faults.hold_after is not None:
                    await trio.sleep(faults.hold_after)
                    conn.held.set()
                    self.injected.holds += 1
                    self.injected.killed += 1
            if conn.reset:
                _abort(client)
                _abort(upstream)
            elif conn.held.is_set():
                # Half-open: neither side hears anything, nor a close; the peer's own liveness check must notice.
                await trio.sleep_forever()
        finally:
            # Also when the proxy stops: the sockets are closed, not left to the garbage collector.
            client.socket.close()
            upstream.socket.close()

    async def _pump(
        self,
        src: trio.SocketStream,
        dst: trio.SocketStream,
        faults: Faults,
        conn: _Connection,
        done: trio.CancelScope,
    ) -> None:
        rng = self.rng
        start, held = conn.start, conn.held
        next_stall = None if faults.stall_every is None else start + rng.expovariate(1 / faults.stall_every)
        try:
            while True:
                data = await src.receive_some(65536)
                if not data or held.is_set():
                    if held.is_set():
                        await trio.sleep_forever()
                    done.cancel()
                    return
                now = trio.current_time()
                if next_stall is not None and now >= next_stall and faults.stall_every is not None:
                    self.injected.stalls += 1
                    await trio.sleep(faults.stall_for)
                    next_stall = trio.current_time() + rng.expovariate(1 / faults.stall_every)
                delay = faults.latency + faults.jitter * rng.random()
                if delay:
                    self.injected.delays.append(delay)
                    await trio.sleep(delay)
                if held.is_set():
                    await trio.sleep_forever()
                if faults.reset_after is not None and trio.current_time() - start >= faults.reset_after:
                    if conn.reset:
                        return  # the other direction is resetting this connection already
                    conn.reset = True
                    await dst.send_all(data[: max(1, len(data) // 2)])
                    self.injected.resets += 1
                    self.injected.killed += 1
                    done.cancel()
                    return
                await self._write(dst, data, faults)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            done.cancel()

    async def _write(self, dst: trio.SocketStream, data: bytes, faults: Faults) -> None:
        self.injected.bytes += len(data)
        if faults.single_bytes and self.rng.random() < faults.single_bytes:
            self.injected.split_chunks += 1
            for i in range(len(data)):
                await dst.send_all(data[i : i + 1])
                await trio.sleep(0)
            return
        if faults.bandwidth is None:
            await dst.send_all(data)
            return
        # Throttled: pieces of a twentieth of a second's worth, each followed by that twentieth.
        piece = max(1, int(faults.bandwidth / 20))
        for i in range(0, len(data), piece):
            await dst.send_all(data[i : i + piece])
            await trio.sleep(0.05)
