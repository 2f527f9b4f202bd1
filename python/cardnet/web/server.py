"""The table's web seat: one more port of a running :class:`~cardnet.net.host.Host`, serving the page over HTTP
and its WebSocket into the same host.

A WebSocket is one more kind of stream for the host (:meth:`Host.accept_stream` with a
:class:`~cardnet.web.ws.WebSocketLines`): the same session, handshake, tokens, password proof, limits and rate
limits as a TCP peer's, and the host's own connection cap. HTTP connections that are not (yet) WebSockets are
capped here (:data:`MAX_HTTP_CONNECTIONS`) and bounded in time by :mod:`cardnet.web.http`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import h11
import trio

from ..net.host import Host, JournalFailure
from ..protocol import MAX_PEER_LINE
from .assets import PageFiles
from .http import HttpConnection, Refusal
from .ws import WebSocketLines, accept_headers

__all__ = ["MAX_HTTP_CONNECTIONS", "WebSeat", "open_web_listeners", "start_web_seat"]

log = logging.getLogger("cardnet.web")

#: HTTP connections served at once (page loads; WebSockets count against the host's own cap once upgraded).
MAX_HTTP_CONNECTIONS = 64


async def open_web_listeners(addresses: Sequence[str], port: int, *, fallback: bool) -> list[trio.SocketListener]:
    """Listen on every address at ``port`` (0: any free port, the same on every address); with ``fallback``, a
    port that is taken gives way to a free one. Raises OSError when no listener can be opened."""
    try:
        return await _listen(addresses, port)
    except OSError:
        if not fallback or port == 0:
            raise
    return await _listen(addresses, 0)


async def _listen(addresses: Sequence[str], port: int) -> list[trio.SocketListener]:
    listeners: list[trio.SocketListener] = []
    try:
        for address in addresses:
            opened = await trio.open_tcp_listeners(port, host=address)
            listeners.extend(opened)
            port = int(opened[0].socket.getsockname()[1])
    except OSError:
        for listener in listeners:
            await listener.aclose()
        raise
    return listeners


class WebSeat:
    """Serves ``host``'s table to browsers: the page from ``page_dir`` (default: the one in the package) and
    ``/ws`` into the host. Its port is the host's ``web_port`` (told in the ``table`` message and the TXT record)
    while it runs."""

    def __init__(self, host: Host, *, page_dir: Path | None = None) -> None:
        self.host = host
        self.files = PageFiles(page_dir)
        self.port: int | None = None
        self._http = 0

    async def serve(
        self,
        addresses: str | Sequence[str] = "127.0.0.1",
        port: int = 0,
        *,
        fallback: bool = True,
        task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Listen on each address at ``port`` (taken: any free port, with ``fallback``) and serve until cancelled;
        ``started()`` gives the port. Raises OSError when it cannot listen."""
        listeners = await open_web_listeners(
            [addresses] if isinstance(addresses, str) else addresses, port, fallback=fallback
        )
        await self.serve_listeners(listeners, task_status=task_status)

    async def serve_listeners(
        self, listeners: list[trio.SocketListener], *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED
    ) -> None:
        """Serve on listeners already open (:func:`open_web_listeners`) until cancelled."""
        self.port = int(listeners[0].socket.getsockname()[1])
        self.host.session.web_port = self.port
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(trio.serve_listeners, self._handle, listeners)
                task_status.started(self.port)
        finally:
            self.host.session.web_port = None
            self.port = None

    async def _handle(self, stream: trio.SocketStream) -> None:
        try:
            await self._serve(stream)
        except Exception as exc:
            if _holds(exc, JournalFailure):
                # The table's journal cannot be written: the host must stop, as for a TCP peer's move.
                raise
            if not isinstance(exc, (trio.BrokenResourceError, trio.ClosedResourceError, OSError)):
                # A bug in serving one browser costs that connection, never the table it sits beside.
                log.exception("the web seat failed serving a connection")
        finally:
            await trio.aclose_forcefully(stream)

    async def _serve(self, stream: trio.SocketStream) -> None:
        http = HttpConnection(stream, self.files)
        if self._http >= MAX_HTTP_CONNECTIONS:
            await http.refuse(503, "too many connections")
            return
        self._http += 1
        try:
            upgrade = await http.serve()
            if upgrade is None:
                return
            try:
                headers = accept_headers(upgrade.request)
            except Refusal as refusal:
                await http.refuse(refusal.status, refusal.text, refusal.headers)
                return
            await http.send(h11.InformationalResponse(status_code=101, headers=headers))
        finally:
            self._http -= 1
        opts = self.host.opts
        fd = stream.socket.fileno() if os.name == "posix" else -1
        lines = WebSocketLines(
            stream, limit=MAX_PEER_LINE, rate=opts.msg_rate, burst=opts.msg_burst, trailing=upgrade.trailing, fd=fd
        )
        await self.host.accept_stream(stream, lines)


async def start_web_seat(
    nursery: trio.Nursery,
    host: Host,
    addresses: Sequence[str],
    table_port: int,
    port: int | None = None,
    *,
    previous: int | None = None,
) -> int:
    """Serve ``host``'s web seat in ``nursery`` on ``addresses`` beside the table: on ``port``, or by default on
    ``previous`` (the port a resumed table's web seat had, where its guests' pages reconnect) or the table's
    port + 1, whichever comes first, if free, else any free port; returns its port. Raises OSError when it
    cannot listen (a ``port`` asked for that is taken)."""
    wanted = port or previous or (table_port + 1 if table_port < 65535 else 0)
    listeners = await open_web_listeners(addresses, wanted, fallback=port is None)
    seat = WebSeat(host)
    return int(await nursery.start(partial(seat.serve_listeners, listeners)))


def _holds(exc: BaseException, kind: type[BaseException]) -> bool:
    """Whether ``exc`` is a ``kind``, or an exception group (a nursery's) holding one."""
    if isinstance(exc, BaseExceptionGroup):
        return exc.subgroup(kind) is not None
    return isinstance(exc, kind)
