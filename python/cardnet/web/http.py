"""The web seat's HTTP side of one connection (h11): the page's static files, and the way to ``/ws``.

Only ``GET`` and ``HEAD`` are answered, with bounded requests: a head over :data:`MAX_HEAD` bytes gets 431, a
request with a body 413, another method 405, a path that can name no file 400, anything not served 404, and
a malformed request 400 (each with a one-line text body, then the connection closes). A client that takes
longer than :data:`REQUEST_TIMEOUT` to send a request is dropped. Every response carries
:data:`SECURITY_HEADERS`: the page may run only its own scripts (no inline script, no ``eval``) and talk only
to its own host.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import h11
import trio

from .assets import BadPath, PageFiles

__all__ = [
    "MAX_HEAD",
    "REQUEST_TIMEOUT",
    "SECURITY_HEADERS",
    "HttpConnection",
    "Refusal",
    "Upgrade",
]

log = logging.getLogger("cardnet.web")

#: The largest request head (request line and headers) in bytes: a browser's is well under 2 KB here.
MAX_HEAD = 8 * 1024
#: Seconds a client has to send a whole request head (a client that trickles bytes is dropped).
REQUEST_TIMEOUT = 10.0
#: Seconds a kept-alive connection may wait for its next request.
IDLE_TIMEOUT = 15.0
#: Requests on one connection before it is closed (a browser opens another).
MAX_REQUESTS = 200
#: How much to read at a time.
CHUNK = 1 << 14
#: After a refusal, how long and how much of the client's further input is read and dropped before closing.
LINGER_TIME = 1.0
LINGER_BYTES = 1 << 20

#: The page runs its own files only: no inline script or style, no eval, no other origin, no framing.
#: ``connect-src 'self'`` covers the page's WebSocket to the same host and port (CSP level 3; Chromium, Firefox).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"Content-Security-Policy", CONTENT_SECURITY_POLICY.encode()),
    (b"X-Content-Type-Options", b"nosniff"),
    (b"Referrer-Policy", b"no-referrer"),
    (b"X-Frame-Options", b"DENY"),
    (b"Cross-Origin-Opener-Policy", b"same-origin"),
)
#: A file may be kept, but must be checked with the host before each use (a new version of cardnet may serve
#: another page at the same address); the check costs a 304 without the body.
CACHE_CONTROL = b"no-cache"

#: The path of the WebSocket endpoint.
WS_PATH = b"/ws"


@dataclass(frozen=True)
class Upgrade:
    """A request for ``/ws`` that asks for a WebSocket: the server decides, then takes over the stream."""

    request: h11.Request
    #: What the client sent after the request head (the start of its WebSocket frames).
    trailing: bytes
    #: The connection's h11 state, for sending the server's answer to the upgrade.
    conn: h11.Connection


class Refusal(Exception):
    """An HTTP request refused with ``status``, a one-line ``text`` and any ``headers`` the status calls for."""

    def __init__(self, status: int, text: str, headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
        super().__init__(f"{status} {text}")
        self.status = status
        self.text = text
        self.headers = headers


class HttpConnection:
    """One HTTP connection: requests answered from ``files`` until it ends, or a ``/ws`` upgrade is asked for."""

    def __init__(self, stream: trio.abc.Stream, files: PageFiles) -> None:
        self.stream = stream
        self.files = files
        self.conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD)
        #: The method of the request being answered (a response to HEAD has no body).
        self.method = b"GET"

    async def serve(self) -> Upgrade | None:
        """Answer requests until the client is done (None) or asks for the WebSocket (the :class:`Upgrade`)."""
        for count in range(MAX_REQUESTS):
            try:
                with trio.fail_after(REQUEST_TIMEOUT if count == 0 else IDLE_TIMEOUT):
                    event = await self._next_event()
                if not isinstance(event, h11.Request):
                    return None  # the client closed the connection
                with trio.fail_after(REQUEST_TIMEOUT):
                    upgrade = await self._answer(event, last=count == MAX_REQUESTS - 1)
            except Refusal as refusal:
                await self.refuse(refusal.status, refusal.text, refusal.headers)
                return None
            except h11.RemoteProtocolError as exc:
                await self.refuse(exc.error_status_hint, _reason(exc.error_status_hint))
                return None
            except trio.TooSlowError:
                return None
            if upgrade is not None:
                return upgrade
            if self.conn.our_state is not h11.DONE or self.conn.their_state is not h11.DONE:
                return None
            self.conn.start_next_cycle()
            self.method = b"GET"
        return None

    async def _next_event(self) -> object:
        """The next h11 event (or ``h11.PAUSED``), reading as needed."""
        while True:
            event = self.conn.next_event()
            if event is not h11.NEED_DATA:
                return event
            self.conn.receive_data(bytes(await self.stream.receive_some(CHUNK)))

    async def _answer(self, request: h11.Request, last: bool) -> Upgrade | None:
        """Check the request and answer it; the :class:`Upgrade` for a WebSocket request, left unanswered."""
        self.method = request.method
        if request.http_version not in (b"1.0", b"1.1"):
            raise Refusal(505, "HTTP/1.1 only")
        if request.method not in (b"GET", b"HEAD"):
            raise Refusal(405, "only GET and HEAD")
        for name, value in request.headers:
            if name == b"content-length" and value.strip() != b"0" or name == b"transfer-encoding":
                raise Refusal(413, "no request body is accepted")
        # A request without a body is complete once its head is read.
        event = await self._next_event()
        if not isinstance(event, h11.EndOfMessage):
            raise Refusal(400, "unexpected request data")
        path = request.target.split(b"?", 1)[0]
        if path == WS_PATH:
            if request.method != b"GET" or not _asks_upgrade(request):
                raise Refusal(426, "this is the table's WebSocket: open it as one", ((b"Upgrade", b"websocket"),))
            # What the client sent after its request: the start of its frames.
            trailing, _ = self.conn.trailing_data
            return Upgrade(request, trailing, self.conn)
        try:
            asset = self.files.find(request.target)
        except BadPath as exc:
            raise Refusal(400, str(exc)) from None
        if asset is None:
            raise Refusal(404, "not found")
        headers = [*SECURITY_HEADERS, (b"Cache-Control", CACHE_CONTROL), (b"ETag", asset.etag.encode())]
        if last:
            headers.append((b"Connection", b"close"))
        if _header(request, b"if-none-match") == asset.etag.encode():
            await self._send(h11.Response(status_code=304, headers=headers))
            await self._send(h11.EndOfMessage())
            return None
        headers += [(b"Content-Type", asset.content_type.encode()), (b"Content-Length", str(len(asset.body)).encode())]
        await self._send(h11.Response(status_code=200, headers=headers))
        if request.method == b"GET":
            await self._send(h11.Data(data=asset.body))
        await self._send(h11.EndOfMessage())
        return None

    async def refuse(self, status: int, text: str, extra: tuple[tuple[bytes, bytes], ...] = ()) -> None:
        """Answer ``status`` with ``text`` (and ``extra`` headers), when the connection can still take a response;
        the connection is to be closed after it."""
        if self.conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            return
        body = (text + "\n").encode()
        headers = [
            *SECURITY_HEADERS,
            (b"Content-Type", b"text/plain; charset=utf-8"),
            (b"Content-Length", str(len(body)).encode()),
            (b"Connection", b"close"),
            (b"Cache-Control", b"no-store"),
            *extra,
        ]
        if status == 405:
            headers.append((b"Allow", b"GET, HEAD"))
        try:
            with trio.move_on_after(REQUEST_TIMEOUT):
                await self._send(h11.Response(status_code=status, headers=headers, reason=_reason(status).encode()))
                if self.method != b"HEAD":
                    await self._send(h11.Data(data=body))
                await self._send(h11.EndOfMessage())
            await self._linger()
        except (h11.LocalProtocolError, trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return

    async def _linger(self) -> None:
        """Half-close, then read and drop what the client still sends, briefly: closing a socket with unread input
        resets the connection, and the client would lose the answer it has not read yet."""
        if not isinstance(self.stream, trio.abc.HalfCloseableStream):
            return
        await self.stream.send_eof()
        dropped = 0
        with trio.move_on_after(LINGER_TIME):
            while dropped < LINGER_BYTES:
                chunk = await self.stream.receive_some(CHUNK)
                if not chunk:
                    return
                dropped += len(chunk)

    async def send(self, event: h11.Event) -> None:
        """Write an HTTP event (a response's head, data or end)."""
        await self._send(event)

    async def _send(self, event: h11.Event) -> None:
        data = self.conn.send(event)
        if data:
            await self.stream.send_all(data)


def _header(request: h11.Request, name: bytes) -> bytes | None:
    for key, value in request.headers:
        if key == name:
            return bytes(value)
    return None


def _asks_upgrade(request: h11.Request) -> bool:
    upgrade = _header(request, b"upgrade") or b""
    return b"websocket" in [token.strip().lower() for token in upgrade.split(b",")]


def _reason(status: int) -> str:
    return {
        400: "Bad Request",
        403: "Forbidden",
        404: "Not Found",
        405: "Method Not Allowed",
        408: "Request Timeout",
        413: "Content Too Large",
        426: "Upgrade Required",
        431: "Request Header Fields Too Large",
        503: "Service Unavailable",
        505: "HTTP Version Not Supported",
    }.get(status, "Error")
