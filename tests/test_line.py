"""The line-mode loop's wording: seat names for the renderer and refusals in a player's words."""

from __future__ import annotations

import io
from typing import cast

import trio

from cardnet import protocol as P
from cardnet.net.peer import ConnectionLost, HostError, Peer, Reconnected, Reconnecting
from cardnet.protocol import JSONValue, StateMessage
from cardnet.protocol.peer import PeerSession
from cardnet.ui.line import PlainGame, refusal_text, seat_names

from test_protocol_peer import TABLE, WELCOME, line, open_session, state_line


def seat(index: int, name: str | None, kind: str = "human") -> JSONValue:
    return {"seat": index, "name": name, "kind": kind, "connected": True, "auto": False}


def test_seat_names_call_the_player_you_and_tell_equal_names_apart() -> None:
    seats = [seat(0, "ann"), seat(1, "random bot", "bot"), seat(2, "hard bot", "bot"), seat(3, None, "open")]
    # Built-in players are named one way in every client: their seat and their level.
    assert seat_names(seats, 0) == ["You", "Bot 1 · random", "Bot 2 · hard", "Seat 3"]
    # A spectator has no "You"; two players of one name get their seats.
    twins = [seat(0, "player"), seat(1, "player"), seat(2, "normal bot", "bot")]
    assert seat_names(twins, None) == ["player (seat 0)", "player (seat 1)", "Bot 2 · normal"]
    assert seat_names(twins, 0) == ["You", "player", "Bot 2 · normal"]


def test_refusals_are_explained_in_player_words() -> None:
    def error(code: str, reason: str) -> HostError:
        return HostError(code, reason, 3, None)

    assert refusal_text(error("stale_decision", "decision 12 is not open; yours is 14")).startswith("too late")
    assert refusal_text(error("wrong_seat", "decision 4 belongs to seat 1")) == "it is not your turn"
    # The core's own reason for a move the rules refuse is already in words.
    assert refusal_text(error("illegal_move", "a 7 cannot show 2")) == "a 7 cannot show 2"


class SessionPeer:
    """What :class:`PlainGame` uses of a peer: its session, and moves that go through it (nothing is sent)."""

    def __init__(self, session: PeerSession) -> None:
        self.session = session
        self.failure = None

    async def move(self, decision_id: int, move: JSONValue | None = None, *, index: int | None = None) -> int:
        return self.session.move(decision_id, move, index)[0]


def test_the_line_ui_keeps_no_answered_decisions_of_its_own() -> None:
    session = open_session()
    decision = P.Decision(16, P.Raw('[{"type":"a"},{"type":"b"}]'), 2, None)

    def delivered(data: bytes) -> StateMessage:
        (state,) = session.receive_line(data).events
        assert isinstance(state, StateMessage)
        return state

    async def main() -> None:
        peer = cast(Peer, SessionPeer(session))
        ui = PlainGame(peer, "callpick", 0, 2, io.StringIO(), io.StringIO(), solo=False)
        assert not hasattr(ui, "answered")
        state = delivered(state_line(1, kind="snapshot", decision=decision, to_act=[0]))
        await ui.on_state(state)
        assert await ui.try_move("2", state)
        assert ui.pending is not None and not session.needs_answer(state)
        # A snapshot on the same connection (the peer resynchronised) leaves our move on its way: not asked twice.
        await ui.on_state(delivered(state_line(2, kind="snapshot", decision=decision, to_act=[0])))
        assert ui.pending is not None
        # After a reconnect the session re-opens the decision (the host may never have read the move): asked again.
        session.connection_lost()
        session.connection_made()
        session.receive_line(line(TABLE.to_wire()))
        session.receive_line(line(WELCOME.to_wire()))
        again = delivered(state_line(3, kind="snapshot", decision=decision, to_act=[0]))
        await ui.on_state(again)
        assert ui.pending is None and ui.open is again and session.needs_answer(again)

    trio.run(main)


def test_seats_say_how_many_watch_when_they_change_and_when_asked() -> None:
    session = open_session()
    out = io.StringIO()

    async def main() -> None:
        ui = PlainGame(cast(Peer, SessionPeer(session)), "callpick", 0, 2, io.StringIO(), out, solo=False)
        seats = [seat(0, "ann"), seat(1, None, "open")]
        # Before the host says (an older host), the line names the seats only.
        await ui.on_event(P.SeatsChanged(seats, False))
        await ui.on_event(P.SeatsChanged(seats, False, spectators=2))
        await ui.on_line("seats")
        await ui.on_event(P.SeatsChanged(seats, False, spectators=0))

    trio.run(main)
    assert out.getvalue().splitlines() == [
        "Seats: 0: you, 1: (open)",
        "Seats: 0: you, 1: (open); 2 watching",
        "Seats: 0: you, 1: (open); 2 watching",
        "Seats: 0: you, 1: (open); nobody watching",
    ]


class Terminal(io.StringIO):
    """Output that says it is a terminal, and what such a terminal would show (the few escapes line mode uses)."""

    def isatty(self) -> bool:
        return True

    def screen(self) -> list[str]:
        rows, row, col = [""], 0, 0
        text = self.getvalue()
        i = 0
        while i < len(text):
            if text.startswith("\x1b[1A", i):
                row, i = max(0, row - 1), i + 4
            elif text.startswith("\x1b[K", i):
                rows[row] = rows[row][:col]
                i += 3
            elif text[i] == "\r":
                col, i = 0, i + 1
            elif text[i] == "\n":
                row, col, i = row + 1, 0, i + 1
                rows += [""] * (row + 1 - len(rows))
            else:
                rows[row] = rows[row][:col] + text[i] + rows[row][col + 1 :]
                col, i = col + 1, i + 1
        return rows


def test_reconnect_attempts_update_one_line_and_a_rejoined_player_sees_the_table_at_once() -> None:
    session = open_session()
    out = Terminal()

    async def main() -> None:
        ui = PlainGame(cast(Peer, SessionPeer(session)), "callpick", 0, 2, io.StringIO(), out, solo=False)
        ui._table_owed = False
        await ui.on_event(ConnectionLost("connection reset", False))
        for attempt in (1, 2, 3):
            await ui.on_event(Reconnecting(attempt, 0.5 * attempt, "connection refused"))
        await ui.on_event(Reconnected(4))
        # The snapshot after the reconnect: not this seat's turn, yet the table is drawn at once.
        session.connection_lost()
        session.connection_made()
        session.receive_line(line(TABLE.to_wire()))
        session.receive_line(line(WELCOME.to_wire()))
        (state,) = session.receive_line(state_line(4, kind="snapshot", to_act=[1])).events
        assert isinstance(state, StateMessage)
        await ui.on_state(state)
        assert ui.open is None

    trio.run(main)
    shown = [row for row in out.screen() if row]
    # The cause, then one line the attempts rewrote in place, which says the connection is back.
    assert shown[:2] == [
        "Lost the connection to the host (connection reset); reconnecting...",
        "Reconnected to the host.",
    ]
    assert not any("attempt" in row for row in shown)
    assert len(shown) > 1, "the table follows the reconnect at once"
