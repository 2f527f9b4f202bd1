"""The web seat's WebSocket (wsproto): the opening handshake, and :class:`WebSocketLines`, one protocol line a text
message, the host's :class:`~cardnet.net.lines.LineStream` for a browser.

What arrives is parsed by wsproto (unmasking, fragments, UTF-8, control frames), but for the usual frame, a whole
line in one masked text frame, which is read as the host's native lane reads it (``cardnet.native.websocket_line``,
one definition for both). What the host sends is framed here, a text frame a line without its newline, by the
native lane's framing (``cardnet.native.websocket_frame``), so that a line goes straight from the task that made it
to the socket, like a TCP line (:meth:`WebSocketLines.frame`): no task hop and no wsproto state per line.

Input a TCP peer could not send is refused the way the session refuses a bad line: a binary message gets
``bad_message`` (a strike), a message over the peer's line limit (or in more than :data:`MAX_FRAGMENTS` frames)
``line_too_long`` and the close, text that is not UTF-8 ``bad_utf8`` and, as RFC 6455 requires, the close
(code 1007). Pings are answered and limited like messages; a peer that closes is answered and let go.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import os
from collections import deque
from collections.abc import Callable

import h11
import trio
from wsproto.connection import Connection, ConnectionState, ConnectionType
from wsproto.events import BytesMessage, CloseConnection, Ping, Pong, TextMessage
from wsproto.utilities import generate_accept_token

from ..native import websocket_frame, websocket_line
from ..protocol import LineBuffer, ProtocolError
from ..protocol.host import Bucket
from .http import Refusal

__all__ = ["MAX_FRAGMENTS", "WebSocketLines", "accept_headers", "text_frame"]

#: The most frames one message may come in (a browser sends each message whole; a flood of empty
#: continuation frames would otherwise cost the host without ever growing the message).
MAX_FRAGMENTS = 128
#: How much to read at a time.
CHUNK = 1 << 16

#: The close code for each reason the host ends a connection (RFC 6455 § 7.4.1); others get 1008.
CLOSE_CODES = {
    "done": 1000,
    "gone": 1000,
    "bye": 1000,
    "shutting_down": 1001,
    "line_too_long": 1009,
    "bad_utf8": 1007,
    "internal": 1011,
}


def accept_headers(request: h11.Request) -> list[tuple[bytes, bytes]]:
    """The headers of the ``101 Switching Protocols`` that accepts ``request``'s WebSocket; raises
    :class:`~cardnet.web.http.Refusal` for a request that is not a valid one from this page.

    A browser sends the page's origin: a page from anywhere else (another site the guest has open, which would
    otherwise sit at the table in the guest's name) is refused with 403, and so is a host name that only a
    DNS lookup could have led to (a rebinding attack): the page is reached by address, ``localhost``, a bare
    machine name or an mDNS ``.local`` name. Programs that send no ``Origin`` (bots, tests) are let in.
    """
    headers: dict[bytes, bytes] = {}
    for name, value in request.headers:
        headers[bytes(name)] = headers[bytes(name)] + b", " + bytes(value) if name in headers else bytes(value)
    if b"upgrade" not in [t.strip().lower() for t in headers.get(b"connection", b"").split(b",")]:
        raise Refusal(400, "a WebSocket needs Connection: Upgrade")
    if headers.get(b"sec-websocket-version") != b"13":
        raise Refusal(426, "WebSocket version 13 only", ((b"Sec-WebSocket-Version", b"13"),))
    key = headers.get(b"sec-websocket-key", b"")
    try:
        if len(base64.b64decode(key, validate=True)) != 16:
            raise ValueError
    except (binascii.Error, ValueError):
        raise Refusal(400, "a bad Sec-WebSocket-Key") from None
    host = headers.get(b"host", b"").decode("latin-1")
    if not _reachable_name(host):
        raise Refusal(403, "reach the table by its address")
    origin = headers.get(b"origin")
    if origin is not None and origin.decode("latin-1").lower() not in (
        f"http://{host}".lower(),
        f"https://{host}".lower(),
    ):
        raise Refusal(403, "only the table's own page may open its WebSocket")
    return [
        (b"Upgrade", b"websocket"),
        (b"Connection", b"Upgrade"),
        (b"Sec-WebSocket-Accept", generate_accept_token(key)),
    ]


def _reachable_name(host: str) -> bool:
    """Whether ``host`` (a Host header: name or address, and a port) is how a guest on the LAN reaches the table."""
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 or host.startswith("[") else host
    name = name.strip("[]").lower()
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return name == "localhost" or "." not in name or name.endswith(".local")


def text_frame(line: bytes) -> bytes:
    """One unmasked, final text frame (a server's) carrying ``line`` without its trailing newline: the native
    lane's framing, byte for byte."""
    return websocket_frame(bytes(line))


class WebSocketLines:
    """A WebSocket as the host's line stream: each text message one protocol line (a trailing newline allowed).

    ``trailing`` holds what the client sent after its upgrade request. ``limit`` is the peer's line limit;
    ``rate`` and ``burst`` bound the control frames (pings, pongs) as the session bounds messages.
    """

    framed = True
    websocket = True

    def __init__(
        self,
        stream: trio.abc.Stream,
        *,
        limit: int,
        rate: float,
        burst: float,
        trailing: bytes = b"",
        fd: int = -1,
    ) -> None:
        self.stream = stream
        self.fd = fd
        self.limit = limit
        self._ws = Connection(ConnectionType.SERVER)
        self._pending: deque[bytes | ProtocolError] = deque()
        #: The start of a frame whose rest has not arrived.
        self._buffer = bytearray()
        self._parts: list[bytes] = []
        self._size = 0
        self._frames = 0
        #: A message has begun and not ended (its parts, size and frames are counted).
        self._partial = False
        self._ended = False
        #: The close code of a connection wsproto found broken (bad UTF-8, a protocol error), for the farewell.
        self._fail_code: int | None = None
        self._controls = Bucket(rate, burst, trio.current_time())
        self._send: Callable[[bytes], None] = _no_sender
        #: Read before the upgrade was answered: fed at the first read, once pongs can be sent.
        self._trailing = trailing

    @property
    def lines(self) -> LineBuffer | None:
        """None: a WebSocket's bytes are frames, not raw lines (the native lane leaves the frames it does not play
        in the socket, for :meth:`read_line`)."""
        return None

    @property
    def lane_ready(self) -> bool:
        """Whether the native lane may read the socket now: a descriptor, an open WebSocket, and nothing read and
        not yet taken (no line or error pending, no part of a frame or of a message)."""
        idle = not (self._pending or self._buffer or self._partial or self._trailing or self._ended)
        return idle and self.fd >= 0 and self._ws.state is ConnectionState.OPEN

    def attach(self, send_control: Callable[[bytes], None]) -> None:
        """Pongs and the closing handshake go out through the host's ordered writes."""
        self._send = send_control

    async def read_line(self) -> bytes | None:
        """The next text message as a line; None once the peer closed (or the connection broke)."""
        pending = self._pending
        if self._trailing:
            data, self._trailing = self._trailing, b""
            self._feed(data)
        while not pending:
            if self._ended:
                return None
            if self.fd < 0:
                chunk = bytes(await self.stream.receive_some(CHUNK))
            else:
                await trio.lowlevel.wait_readable(self.fd)
                try:
                    chunk = os.read(self.fd, CHUNK)
                except BlockingIOError:
                    continue  # a spurious wake: wait again
            if not chunk:
                self._ended = True
                return None
            self._feed(chunk)
        item = pending.popleft()
        if isinstance(item, ProtocolError):
            raise item
        return item

    def _feed(self, data: bytes) -> None:
        """Split what arrived into whole frames: the usual one (a whole text message in one masked frame) is
        read here, any other goes to wsproto whole; a part of a frame waits for the rest."""
        if self._buffer:
            data = bytes(self._buffer) + data
            self._buffer.clear()
        at, size = 0, len(data)
        while at < size and not self._ended:
            end = self._frame_end(data, at)
            if end < 0:
                self._buffer += data[at:]
                return
            if data[at] == 0x81 and data[at + 1] & 0x80 and not self._partial:
                self._text_frame(data, at, end)
            else:
                self._wsproto(data[at:end])
            at = end

    def _frame_end(self, data: bytes, at: int) -> int:
        """Where the frame starting at ``at`` ends; -1 while it is not whole. A frame announcing more than the
        peer's line limit ends the connection before its payload is read (``line_too_long``), and one whose
        header wsproto refuses goes to wsproto at once."""
        if len(data) - at < 2:
            return -1
        size, start = data[at + 1] & 0x7F, at + 2
        if size == 126:
            if len(data) - at < 4:
                return -1
            size, start = int.from_bytes(data[at + 2 : at + 4], "big"), at + 4
        elif size == 127:
            if len(data) - at < 10:
                return -1
            size, start = int.from_bytes(data[at + 2 : at + 10], "big"), at + 10
        if data[at] & 0x08:
            # A control frame: wsproto checks its size (125 at most) and the rest.
            if size > 125:
                return start
        elif size > self.limit:
            self._fail(ProtocolError("line_too_long", f"message longer than {self.limit} bytes"))
            return len(data)
        end = start + size + (4 if data[at + 1] & 0x80 else 0)
        return end if end <= len(data) else -1

    def _text_frame(self, data: bytes, at: int, end: int) -> None:
        """A whole text message in one masked frame, read as the native lane reads it; what the lane would not
        take (text that is not UTF-8 or not one line, a length not in its shortest form) goes to wsproto, which
        answers it as it should."""
        frame = data[at:end]
        line = websocket_line(frame, self.limit)
        if line is None:
            self._wsproto(frame)
        else:
            self._pending.append(line[:-1])

    def _wsproto(self, frame: bytes) -> None:
        """A whole frame through wsproto (control frames, fragments, binary messages, anything broken)."""
        self._ws.receive_data(frame)
        for event in self._ws.events():
            if self._ended:
                break
            if isinstance(event, TextMessage):
                self._message_part(event.data.encode(), event.frame_finished, event.message_finished, text=True)
            elif isinstance(event, BytesMessage):
                self._message_part(bytes(event.data), event.frame_finished, event.message_finished, text=False)
            elif isinstance(event, Ping):
                if self._control():
                    self._send(self._ws.send(event.response()))
            elif isinstance(event, Pong):
                self._control()
            elif isinstance(event, CloseConnection):
                self._closed(event)

    def _message_part(self, data: bytes, frame_done: bool, message_done: bool, *, text: bool) -> None:
        if message_done and not self._partial:
            # The usual case: a whole message in one frame.
            line = data
            if len(line) > self.limit:
                return self._fail(ProtocolError("line_too_long", f"message longer than {self.limit} bytes"))
        else:
            self._size += len(data)
            self._frames += frame_done
            if self._size > self.limit:
                return self._fail(ProtocolError("line_too_long", f"message longer than {self.limit} bytes"))
            if self._frames > MAX_FRAGMENTS:
                return self._fail(ProtocolError("line_too_long", f"message in more than {MAX_FRAGMENTS} frames"))
            if text:
                self._parts.append(data)
            self._partial = not message_done
            if not message_done:
                return None
            line = b"".join(self._parts)
            self._parts, self._size, self._frames = [], 0, 0
        if not text:
            self._pending.append(ProtocolError("bad_message", "a binary message: protocol lines are text messages"))
        else:
            self._line(line)
        return None

    def _line(self, line: bytes) -> None:
        """A whole text message: one line, a trailing newline taken off."""
        if line.endswith(b"\n"):
            line = line[:-1]
            if b"\n" in line:
                self._pending.append(ProtocolError("bad_message", "one protocol line a message"))
            else:
                self._pending.append(line)
        elif b"\n" in line:
            self._pending.append(ProtocolError("bad_message", "one protocol line a message"))
        else:
            self._pending.append(line)

    def _control(self) -> bool:
        """Count a ping or pong against the peer's rate; past it, the connection ends (``rate_limited``)."""
        if self._controls.take(trio.current_time()):
            return True
        self._fail(ProtocolError("rate_limited", "too many WebSocket pings"))
        return False

    def _closed(self, event: CloseConnection) -> None:
        self._ended = True
        if self._ws.state is ConnectionState.REMOTE_CLOSING:
            # The peer closes: answer, and the connection ends like a TCP connection at its end of stream.
            self._send(self._ws.send(event.response()))
            return
        # wsproto found the input broken (the connection is still open on our side): tell the peer why, then close.
        self._fail_code = event.code
        code = "bad_utf8" if event.code == 1007 else "bad_message"
        self._pending.append(ProtocolError(code, f"a broken WebSocket frame: {event.reason or event.code}"))

    def _fail(self, error: ProtocolError) -> None:
        """Input that ends the connection: the error is the last thing read."""
        self._pending.append(error)
        self._ended = True

    def frame(self, line: bytes) -> bytes:
        """A host line as one text frame."""
        return text_frame(line)

    def farewell(self, reason: str) -> bytes:
        """The closing handshake's first frame, with the code for ``reason`` (none once the peer closed)."""
        if self._ws.state not in (ConnectionState.OPEN, ConnectionState.REMOTE_CLOSING):
            return b""
        code = self._fail_code or CLOSE_CODES.get(reason, 1008)
        return self._ws.send(CloseConnection(code=code, reason=reason[:100]))


def _no_sender(data: bytes) -> None:
    """Before :meth:`WebSocketLines.attach`: nothing can be written yet."""
    raise RuntimeError("the WebSocket is not attached to its host")
