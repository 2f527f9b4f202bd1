"""The one line reader of the trio layer: a stream's bytes, split into protocol lines with a hard limit."""

from __future__ import annotations

import trio

from ..protocol import LineBuffer

#: How much to ask the stream for at a time.
CHUNK = 1 << 16


class LineReader:
    """Reads lines from a stream through a :class:`~cardnet.protocol.LineBuffer` (host and peer alike)."""

    def __init__(self, stream: trio.abc.ReceiveStream, limit: int) -> None:
        self.stream = stream
        self.lines = LineBuffer(limit)

    async def read_line(self) -> bytes | None:
        """The next line without its newline; None at a clean end of stream.

        Raises ``ProtocolError("line_too_long")`` as soon as a line exceeds the limit.
        """
        while (line := self.lines.next_line()) is None:
            chunk = await self.stream.receive_some(CHUNK)
            if not chunk:
                return None
            self.lines.feed(chunk)
        return line
