"""A browser's seat on the host's native lane: the lane reads a browser's moves (one masked text frame each) and
writes every seat's lines as text frames, so a table with a WebSocket at it stays on the fast path; every other
frame (a ping, a fragmented message, a close) stays in the socket for the web seat's reader, which answers it
as before, and play goes on in the lane.

The clients are blocking sockets driven from a worker thread, as in tests/test_net_lane.py: the lane only serves
while the host's trio run has nothing else to do."""

from __future__ import annotations

import json
import socket
import struct
from collections.abc import Callable
from typing import Any

import pytest
from wsproto import ConnectionType, WSConnection
from wsproto.connection import ConnectionState
from wsproto.events import CloseConnection, Pong, Request, TextMessage

from cardnet.table import core_engine

from nethelpers import running_host
from test_net_lane import Peer, _close, _in_thread, _options, _play, _started, _state_at
from webhelpers import CLOSE, CONTINUATION, PING, TEXT, client_frame

pytestmark = pytest.mark.trio


class WsPeer(Peer):
    """A blocking WebSocket client with :class:`Peer`'s interface: each line one masked text frame."""

    def __init__(self, port: int, name: str, role: str = "player", rcvbuf: int | None = None) -> None:
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.pongs = 0
        self.close_code: int | None = None
        self.texts: list[str] = []
        self.parts: list[str] = []
        sock = socket.socket()
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        sock.sendall(self.ws.send(Request(host=f"127.0.0.1:{port}", target="/ws")))
        self.sock = sock
        self.buffer = b""
        self.messages: list[dict[str, Any]] = []
        # The answer to the upgrade; the table message may come in the same read.
        while self.ws.state is not ConnectionState.OPEN:
            self._receive()
        # Peer's own greeting, over the WebSocket.
        self.until(lambda m: m["type"] == "table")
        hello = {"capabilities": ["chat", "index_moves", "rematch"], "name": name, "protocol": 1, "role": role,
                 "type": "hello"}  # fmt: skip
        self.send(hello)
        self.welcome = self.until(lambda m: m["type"] == "welcome")

    def send(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message, separators=(",", ":")).encode()
        self.sock.sendall(client_frame(TEXT, data))

    def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Reads messages until one satisfies ``done`` (the protocol's pings are answered); returns it."""
        while True:
            while self.texts:
                message: dict[str, Any] = json.loads(self.texts.pop(0))
                self.messages.append(message)
                if message["type"] == "ping":
                    self.send({"id": message["id"], "type": "pong"})
                if done(message):
                    return message
            self._receive()

    def _receive(self) -> None:
        """One read of the socket, its frames taken."""
        chunk = self.sock.recv(1 << 16)
        assert chunk, "the host closed the connection"
        self.ws.receive_data(chunk)
        for event in self.ws.events():
            if isinstance(event, TextMessage):
                # wsproto gives a frame in parts as its bytes arrive; the host sends each line in one frame.
                assert event.message_finished or not event.frame_finished, "a line in more than one frame"
                self.parts.append(event.data)
                if event.message_finished:
                    self.texts.append("".join(self.parts))
                    self.parts = []
            elif isinstance(event, Pong):
                self.pongs += 1
            elif isinstance(event, CloseConnection):
                self.close_code = event.code


async def test_a_table_with_browsers_at_it_is_played_by_the_lane() -> None:
    """Matchstick for 4: two browsers' seats and two TCP seats, a TCP and a WebSocket spectator. The lane plays
    the moves of both kinds of seat, and the two spectators receive the very same updates."""
    async with running_host(core_engine(), game="matchstick", players=4, host_options=_options(), web=True) as host:
        assert host.port is not None and host.session.web_port is not None
        port, web_port = host.port, host.session.web_port

        def scene() -> tuple[int, list[dict[str, Any]], list[dict[str, Any]]]:
            players = [WsPeer(web_port, "phone"), WsPeer(web_port, "tablet"), Peer(port, "ann"), Peer(port, "bob")]
            assert [p.welcome["seat"] for p in players] == [0, 1, 2, 3]
            watchers = [Peer(port, "tv", role="spectator"), WsPeer(web_port, "wall", role="spectator")]
            state = _play(players, watchers, 60, _started(players + watchers))
            _close(players + watchers)
            seen = [[m for m in w.messages if m["type"] == "update"] for w in watchers]
            return state, seen[0], seen[1]

        state, by_tcp, by_ws = await _in_thread(scene)
        assert host.table.state_id == state
        assert by_tcp == by_ws and len(by_tcp) >= 20
        lane = host.lane
        assert lane is not None
        assert lane.moves >= 30 and lane.stops.get("line", 0) == 0, (lane.moves, lane.stops)
        assert host.quick_moves >= lane.moves


async def test_frames_the_lane_leaves_are_answered_by_the_web_seat_and_play_goes_on_in_the_lane() -> None:
    """A ping, a move in two fragments, a move and a ping in one write: the lane leaves each in the socket, the
    web seat answers the ping and plays the move through the general path, and the lane plays the next ones."""
    async with running_host(core_engine(), game="matchstick", players=2, host_options=_options(), web=True) as host:
        assert host.session.web_port is not None
        web_port = host.session.web_port

        def scene() -> tuple[int, int, list[int]]:
            browsers = [WsPeer(web_port, "phone"), WsPeer(web_port, "tablet")]
            players: list[Peer] = list(browsers)
            state = _play(players, [], 10, _started(players))
            moves_before: list[int] = []
            for shape in ("ping", "fragments", "move and ping"):
                lane = host.lane
                assert lane is not None
                moves_before.append(lane.moves)
                seat = min(players[0].state()["to_act"])
                mover = browsers[seat]
                decision = mover.state()["decision"]
                move = f'{{"decision_id":{decision["id"]},"index":0,"type":"move"}}'.encode()
                if shape == "ping":
                    pongs = mover.pongs
                    mover.sock.sendall(client_frame(PING, b"hi"))
                    mover.send({"id": 5, "type": "ping"})
                    mover.until(lambda m: m["type"] == "pong")
                    assert mover.pongs == pongs + 1
                    mover.send(move)
                elif shape == "fragments":
                    mover.sock.sendall(client_frame(TEXT, move[:10], fin=False) + client_frame(CONTINUATION, move[10:]))
                else:
                    mover.sock.sendall(client_frame(TEXT, move) + client_frame(PING, b"again"))
                state += 1
                for peer in players:
                    peer.until(_state_at(state))
                state = _play(players, [], 6, state)
            # A close: answered, and the connection ends.
            browsers[0].sock.sendall(client_frame(CLOSE, struct.pack("!H", 1000)))
            with pytest.raises(AssertionError, match="closed"):
                browsers[0].until(lambda m: False)
            closed = browsers[0].close_code
            _close(players)
            return state, closed or 0, moves_before

        state, closed, moves_before = await _in_thread(scene)
        assert closed == 1000
        assert host.table.state_id >= state
        lane = host.lane
        assert lane is not None
        # The lane played on after each frame it left.
        assert moves_before == sorted(moves_before) and lane.moves > moves_before[-1] >= 5, (moves_before, lane.stops)
        assert lane.stops.get("line", 0) >= 3, lane.stops


async def test_a_browser_that_does_not_read_gets_whole_messages() -> None:
    """A browser watching whose socket is full: the lane's write of a frame to it falls short, the lane stops, and
    the host keeps the rest of the frame whole (then drops states for a snapshot) while the browsers play on."""
    options = _options(outbox_messages=4)
    async with running_host(core_engine(), game="matchstick", players=2, host_options=options, web=True) as host:
        assert host.session.web_port is not None
        web_port = host.session.web_port

        def scene() -> tuple[int, dict[str, Any]]:
            players: list[Peer] = [WsPeer(web_port, "phone"), WsPeer(web_port, "tablet")]
            watcher = WsPeer(web_port, "wall", role="spectator", rcvbuf=4096)
            state = _play(players, [], 200, _started(players))
            # Now read everything: whole messages (WsPeer checks each), ending at the current state.
            last = watcher.until(_state_at(state))
            _close([*players, watcher])
            return state, last

        state, last = await _in_thread(scene)
        assert last["state_id"] == state
        lane = host.lane
        assert lane is not None
        assert lane.moves >= 10 and lane.stops.get("backlog", 0) >= 1, (lane.moves, lane.stops)
