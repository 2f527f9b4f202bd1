"""The one line reader of the trio layer: a stream's bytes, split into protocol lines with a hard limit."""

from __future__ import annotations

import os

import trio

from ..protocol import LineBuffer

#: How much to ask the stream for at a time.
CHUNK = 1 << 16


class LineReader:
    """Reads lines from a stream through a :class:`~cardnet.protocol.LineBuffer` (host and peer alike).

    For a TCP stream, the host passes the socket's descriptor (``fd``): it then waits for the socket to be
    readable and reads it directly, one read a wake, instead of the stream's read-then-yield-then-read-again (a
    scheduler pass and a syscall less on every line of a move). The stream stays the owner of the socket.
    """

    def __init__(self, stream: trio.abc.ReceiveStream, limit: int, fd: int = -1) -> None:
        self.stream = stream
        self.lines = LineBuffer(limit)
        self.fd = fd

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
