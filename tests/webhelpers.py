"""Helpers for the web seat's tests: a host with its web seat in a nursery, and a bare WebSocket client that sends
whatever frames a test wants (masked as a browser's) and reads the host's messages as dicts (strictly)."""

from __future__ import annotations

import json
import os
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import trio
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Pong, RejectConnection, Request, TextMessage

from cardnet.net.host import Host
from cardnet.web.server import WebSeat

from nethelpers import RawClient, strict_loads

TEXT, BINARY, CONTINUATION, CLOSE, PING, PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA


def client_frame(opcode: int, payload: bytes, *, fin: bool = True, mask: bytes | None = None) -> bytes:
    """One client frame as RFC 6455 writes it (masked), with any opcode, payload and fin bit."""
    key = os.urandom(4) if mask is None else mask
    size = len(payload)
    first = (0x80 if fin else 0) | opcode
    if size < 126:
        header = struct.pack("!BB", first, 0x80 | size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", first, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", first, 0x80 | 127, size)
    masked = bytes(b ^ key[i % 4] for i, b in enumerate(payload)) if size < 4096 else _mask(payload, key)
    return header + key + masked


def _mask(payload: bytes, key: bytes) -> bytes:
    whole = (key * (len(payload) // 4 + 1))[: len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(whole, "big")).to_bytes(len(payload), "big")


class WsClient(RawClient):
    """A WebSocket client with :class:`RawClient`'s interface: ``send`` takes a message or raw line bytes (each
    line its own text frame, sent as it is, so not-UTF-8 bytes too), ``recv`` gives the next text message."""

    def __init__(self, stream: trio.SocketStream) -> None:
        super().__init__(stream)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.messages: list[str] = []
        self.parts: list[str] = []
        self.close_code: int | None = None
        self.pongs = 0
        self.ended = False

    @classmethod
    async def connect(cls, port: int, *, origin: str | None = None, host: str | None = None) -> WsClient:
        """Open ``/ws`` on 127.0.0.1:``port``; raises ConnectionRefusedError with the HTTP status when refused."""
        client = cls(await trio.open_tcp_stream("127.0.0.1", port))
        await client.handshake(port, origin=origin, host=host)
        return client

    async def handshake(self, port: int, *, origin: str | None = None, host: str | None = None) -> None:
        """The opening handshake on a connected stream; raises ConnectionRefusedError with the HTTP status."""
        headers = [(b"Origin", origin.encode())] if origin is not None else []
        request = Request(host=host or f"127.0.0.1:{port}", target="/ws", extra_headers=headers)
        await self.stream.send_all(self.ws.send(request))
        with trio.fail_after(5):
            while True:
                data = await self.stream.receive_some(1 << 16)
                self.ws.receive_data(data or None)
                for event in self.ws.events():
                    if isinstance(event, AcceptConnection):
                        return
                    if isinstance(event, RejectConnection):
                        await self.stream.aclose()
                        raise ConnectionRefusedError(event.status_code)
                if not data:
                    raise ConnectionRefusedError(0)

    async def send(self, message: dict[str, Any] | bytes) -> None:
        if isinstance(message, dict):
            await self.send_frame(TEXT, json.dumps(message).encode())
            return
        lines = message.split(b"\n")[:-1] if message.endswith(b"\n") else [message]
        # One write, as a TCP peer's bytes would go.
        await self.stream.send_all(b"".join(client_frame(TEXT, line) for line in lines))

    async def send_frame(self, opcode: int, payload: bytes, *, fin: bool = True) -> None:
        """Send one raw frame."""
        await self.stream.send_all(client_frame(opcode, payload, fin=fin))

    async def recv_text(self, timeout: float = 5.0) -> str | None:
        """The next text message, or None once the host closed."""
        with trio.fail_after(timeout):
            # Frames that came with the handshake's answer, or with the last read, may wait in wsproto's buffer.
            self._take_events()
            while not self.messages:
                if self.ended:
                    return None
                try:
                    data = await self.stream.receive_some(1 << 16)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    data = b""
                if not data:
                    self.ended = True
                    return None
                self.ws.receive_data(data)
                self._take_events()
        return self.messages.pop(0)

    def _take_events(self) -> None:
        if self.ended:
            return
        for event in self.ws.events():
            if isinstance(event, TextMessage):
                self.parts.append(event.data)
                if event.message_finished:
                    self.messages.append("".join(self.parts))
                    self.parts = []
            elif isinstance(event, CloseConnection):
                self.close_code = event.code
                self.ended = True
            elif isinstance(event, Pong):
                self.pongs += 1

    async def recv(self, timeout: float = 5.0) -> dict[str, Any] | None:
        text = await self.recv_text(timeout)
        if text is None:
            return None
        assert not text.endswith("\n"), "a message is one line without its newline"
        return strict_loads(text.encode("ascii"))


@asynccontextmanager
async def web_seat(host: Host, page_dir: Path | None = None) -> AsyncIterator[WebSeat]:
    """The host's web seat on 127.0.0.1 (an ephemeral port) for the duration of the block."""
    seat = WebSeat(host, page_dir=page_dir)
    async with trio.open_nursery() as nursery:
        await nursery.start(seat.serve, "127.0.0.1", 0)
        yield seat
        nursery.cancel_scope.cancel()


#: The kinds of stream a peer reaches the host by: the tests of the host's guarantees run over each.
STREAM_KINDS = ("tcp", "ws")


async def open_client(host: Host, kind: str) -> RawClient:
    """A bare client connected to ``host`` over TCP or through its web seat's WebSocket (``running_host(...,
    web=True)``)."""
    if kind == "ws":
        port = host.session.web_port
        assert port is not None, "the host has no web seat: running_host(..., web=True)"
        return await WsClient.connect(port)
    return await RawClient.connect(host.port or 0)
