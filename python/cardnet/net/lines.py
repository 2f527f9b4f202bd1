"""The trio layer's line streams: a stream's bytes as protocol lines, in and out, with a hard limit.

The host serves every connection through a :class:`LineStream`: newline-delimited lines over TCP, memory streams
and any other byte stream (:class:`LineReader`), or one WebSocket text message a line (``cardnet.web.ws``). The
session code never knows which: a WebSocket peer is one more kind of stream for the same host.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Protocol

import trio

from ..protocol import LineBuffer

__all__ = ["CHUNK", "LineReader", "LineStream"]

#: How much to ask the stream for at a time.
CHUNK = 1 << 16


class LineStream(Protocol):
    """How one connection's bytes carry protocol lines, as the host sees it.

    The host owns the underlying trio stream (it writes the wire bytes and closes it); a line stream reads lines
    from it and says how each line the host sends is put on the wire.
    """

    #: The socket's descriptor for direct reads and writes; -1 for a stream without one.
    fd: int
    #: Whether each line travels as a WebSocket text message (the native lane then reads and writes it as one
    #: frame) rather than as raw bytes ending with a newline.
    websocket: bool

    @property
    def lines(self) -> LineBuffer | None:
        """The buffer of raw newline-delimited bytes read and not yet taken, which the native lane may take over
        and hand back; None when the stream's bytes are not raw lines (the lane leaves what it does not play of
        them in the socket)."""

    @property
    def lane_ready(self) -> bool:
        """Whether the native lane may read the socket now: nothing read waits here to be taken (no buffered
        bytes, no message half read)."""

    @property
    def framed(self) -> bool:
        """Whether a line must pass through :meth:`frame` before it is written (False: its bytes go as they are)."""

    async def read_line(self) -> bytes | None:
        """The next line without its newline; None at the end of the stream.

        Raises :class:`~cardnet.protocol.ProtocolError` for input the session must hear about: fatal ones
        (``line_too_long``) end the connection, the others are refused like a bad line.
        """

    def frame(self, line: bytes) -> bytes:
        """The wire bytes of one outgoing line (which ends with its newline)."""

    def farewell(self, reason: str) -> bytes:
        """The wire bytes to write before the host closes the connection for ``reason`` (may be empty)."""

    def attach(self, send_control: Callable[[bytes], None]) -> None:
        """Give the stream the host's ordered way to write wire bytes of its own (a WebSocket's pongs and closing
        handshake), before the first :meth:`read_line`."""


class LineReader:
    """Reads newline-delimited lines from a stream through a :class:`~cardnet.protocol.LineBuffer` (host and peer
    alike): the :class:`LineStream` of TCP, Unix sockets and memory streams.

    For a TCP stream, the host passes the socket's descriptor (``fd``): it then waits for the socket to be
    readable and reads it directly, one read a wake, instead of the stream's read-then-yield-then-read-again (a
    scheduler pass and a syscall less on every line of a move). The stream stays the owner of the socket.
    """

    framed = False
    websocket = False

    def __init__(self, stream: trio.abc.ReceiveStream, limit: int, fd: int = -1) -> None:
        self.stream = stream
        self.lines: LineBuffer = LineBuffer(limit)
        self.fd = fd

    @property
    def lane_ready(self) -> bool:
        """Whether no bytes read wait in the line buffer."""
        return self.lines.empty

    async def read_line(self) -> bytes | None:
        """The next line without its newline; None at a clean end of stream.

        Raises ``ProtocolError("line_too_long")`` as soon as a line exceeds the limit.
        """
        lines, fd = self.lines, self.fd
        line = lines.next_line()
        while line is None:
            if fd < 0:
                chunk: bytes | bytearray = await self.stream.receive_some(CHUNK)
            else:
                await trio.lowlevel.wait_readable(fd)
                try:
                    chunk = os.read(fd, CHUNK)
                except BlockingIOError:
                    continue  # a spurious wake: wait again
            if not chunk:
                return None
            line = lines.take(chunk)
        return line

    def frame(self, line: bytes) -> bytes:
        """A line goes on the wire as it is."""
        return line

    def farewell(self, reason: str) -> bytes:
        """Nothing: closing the stream is the whole goodbye."""
        return b""

    def attach(self, send_control: Callable[[bytes], None]) -> None:
        """Nothing to attach: a line stream writes nothing of its own."""
