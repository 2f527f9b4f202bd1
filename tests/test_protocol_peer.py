"""The peer's session without sockets: handshake, hash checks, gaps, paging, answered decisions, reconnects."""

from __future__ import annotations

import json

import pytest

from cardnet import protocol as P
from cardnet.protocol import StateMessage
from cardnet.protocol.peer import ConnectionLost, PeerError, PeerSession, Reconnected, Step


def line(message: dict[str, P.Encodable]) -> bytes:
    return P.encode(message)[:-1]


TABLE = P.TableInfo(
    capabilities=P.HOST_CAPABILITIES,
    table_id="t1",
    name="test table",
    game="callpick",
    players=2,
    options={},
    seeded=True,
    password=False,
    challenge="c" * 32,
    started=False,
    game_no=0,
    seats=[],
)
WELCOME = P.Welcome(1, ("chat",), 0, "T" * 43, 10_000, 30_000, None)


def open_session(**kwargs: object) -> PeerSession:
    session = PeerSession(name="ann", **kwargs)  # type: ignore[arg-type]
    session.connection_made()
    hello = session.receive_line(line(TABLE.to_wire())).send
    assert len(hello) == 1 and json.loads(hello[0])["type"] == "hello"
    assert session.receive_line(line(WELCOME.to_wire())).send == []
    assert session.phase == "open"
    return session


def state_line(
    state_id: int,
    *,
    kind: str = "update",
    decision: P.Decision | None = None,
    to_act: list[int] | None = None,
    ack: dict[str, P.Encodable] | None = None,
    over: bool = False,
) -> bytes:
    public: dict[str, P.Encodable] = {"round": state_id}
    return line(
        P.StateMessage.wire(
            kind,
            game_no=0,
            state_id=state_id,
            state_hash=P.state_hash_of(public),
            view={"public": public, "private": None},
            to_act=to_act or [],
            decision=decision,
            over=over,
            outcome=None,
            ack=ack,
        )
    )


def test_handshake_sends_a_hello_with_the_token_and_keeps_the_new_one() -> None:
    session = PeerSession(name="ann", token="A" * 43)
    session.connection_made()
    (hello,) = session.receive_line(line(TABLE.to_wire())).send
    sent = P.parse_client_message(P.decode_line(hello[:-1]))
    assert isinstance(sent, P.Hello) and sent.token == "A" * 43 and sent.seat is None and sent.name == "ann"
    session.receive_line(line(WELCOME.to_wire()))
    assert (session.state.seat, session.state.token, session.state.connects) == (0, "T" * 43, 1)
    assert session.state.info == TABLE and session.state.capabilities == {"chat"}


def test_a_password_table_gets_a_proof_and_a_refused_hello_is_a_peer_error() -> None:
    table = P.TableInfo(**{**TABLE.__dict__, "password": True})
    with pytest.raises(PeerError) as info:
        session = PeerSession(name="ann")
        session.connection_made()
        session.receive_line(line(table.to_wire()))
    assert info.value.code == "auth_failed"
    session = PeerSession(name="ann", password="sesame")
    session.connection_made()
    (hello,) = session.receive_line(line(table.to_wire())).send
    assert json.loads(hello)["auth"] == P.auth_mac("sesame", "t1", "c" * 32)
    with pytest.raises(PeerError) as info:
        session.receive_line(line(P.HostError("table_full", "full", 0, None).to_wire()))
    assert info.value.code == "table_full"


def test_pings_are_answered_and_fatal_errors_end_the_connection_or_the_session() -> None:
    session = open_session()
    assert session.receive_line(line(P.Ping(7).to_wire())).send == [session.encode(P.Pong(7))]
    assert session.receive_line(line(P.HostError("shutting_down", "bye", 3, None).to_wire())).lost
    with pytest.raises(PeerError) as info:
        session.receive_line(line(P.HostError("replaced", "elsewhere", 3, None).to_wire()))
    assert info.value.code == "replaced"


def test_a_host_closing_the_table_on_purpose_ends_the_session_and_a_loss_does_not() -> None:
    session = open_session()
    step = session.receive_line(line(P.HostError("shutting_down", "the host is stopping", 3, None).to_wire()))
    assert step.lost and step.events == [] and session.closed_by_host
    assert session.connection_lost() == ConnectionLost("the host is stopping")
    # A stream that just ends during a game is a loss (the peer reconnects) ...
    session = open_session()
    session.receive_line(state_line(1, kind="snapshot"))
    session.host_hung_up()
    assert not session.closed_by_host
    # ... and the table closing once the game is over.
    session.receive_line(state_line(2, over=True))
    session.host_hung_up()
    assert session.closed_by_host
    # A reconnect the host refuses because it is stopping ends the session too.
    session = open_session()
    session.connection_lost()
    session.connection_made()
    session.receive_line(line(TABLE.to_wire()))
    with pytest.raises(PeerError):
        session.receive_line(line(P.HostError("shutting_down", "the host is stopping", 0, None).to_wire()))
    assert session.closed_by_host


def test_unknown_host_messages_are_ignored_and_garbage_is_a_protocol_error() -> None:
    session = open_session()
    assert session.receive_line(b'{"type":"future","x":1}') == Step()
    with pytest.raises(P.ProtocolError):
        session.receive_line(b"not json")


def test_answered_decisions_reopen_on_a_refusal_and_after_a_reconnect() -> None:
    session = open_session()
    decision = P.Decision(16, P.Raw('[{"type":"a"},{"type":"b"}]'), 2, None)
    (state,) = session.receive_line(state_line(1, kind="snapshot", decision=decision, to_act=[0])).events
    assert isinstance(state, StateMessage) and session.needs_answer(state)
    ref, data = session.move(16, index=1)
    assert json.loads(data) == {"type": "move", "decision_id": 16, "index": 1, "ref": ref}
    assert not session.needs_answer(state)
    refused = session.receive_line(line(P.HostError("illegal_move", "no", 1, 16, ref=ref).to_wire())).events
    assert [type(e) for e in refused] == [P.HostError] and session.needs_answer(state)
    session.move(16, index=0)
    assert not session.needs_answer(state)
    # The connection drops before the host acknowledged: the snapshot of the new connection re-opens it.
    session.connection_lost()
    session.connection_made()
    session.receive_line(line(TABLE.to_wire()))
    session.receive_line(line(WELCOME.to_wire()))
    (again,) = session.receive_line(state_line(1, kind="snapshot", decision=decision, to_act=[0])).events
    assert isinstance(again, StateMessage) and session.needs_answer(again)


def test_a_long_legal_list_is_paged_before_the_state_is_delivered() -> None:
    session = open_session()
    moves: list[P.JSONValue] = [{"type": "m", "n": n} for n in range(5)]
    step = session.receive_line(state_line(1, kind="snapshot", decision=P.Decision(16, None, 5, None), to_act=[0]))
    assert step.events == [] and step.send == [session.encode(P.LegalRequest(16, 0))]
    step = session.receive_line(line(P.LegalPage(16, 0, 5, moves[:3]).to_wire()))
    assert step.events == [] and step.send == [session.encode(P.LegalRequest(16, 3))]
    (state,) = session.receive_line(line(P.LegalPage(16, 3, 5, moves[3:]).to_wire())).events
    assert isinstance(state, StateMessage) and state.legal == moves


def test_reconnect_backoff_grows_and_gives_up() -> None:
    session = PeerSession(name="ann", max_backoff=0.4, give_up_after=10)
    assert session.connected() is None  # the first connection is no reconnection
    attempts = [session.reconnect_delay(float(t), OSError("down")) for t in range(4)]
    delays = [a.delay for a in attempts]
    assert [a.attempt for a in attempts] == [1, 2, 3, 4] and attempts[0].reason == "down"
    assert delays[0] < 0.15 + 1e-9 and all(d <= 0.4 * 1.5 for d in delays) and delays[2] > delays[0]
    with pytest.raises(PeerError) as info:
        session.reconnect_delay(11.0, OSError("down"))
    assert info.value.code == "connect_failed"
    assert session.connected() == Reconnected(4)
    assert session.reconnect_delay(20.0, OSError("down")).delay < 0.15 + 1e-9


def test_a_lost_connection_says_why() -> None:
    session = open_session()
    assert session.connection_lost() == ConnectionLost("the host closed the connection")
    session = open_session()
    session.receive_line(line(P.HostError("shutting_down", "the host is stopping", 3, None).to_wire()))
    assert session.connection_lost() == ConnectionLost("the host is stopping")
    session = open_session()
    session.host_silent(30.0)
    # Silence is told apart from a drop: the host may merely hang, holding the connection open.
    assert session.connection_lost() == ConnectionLost("no word from the host for 30 s", silent=True)
    # The next connection starts with no such verdict.
    session.connection_made()
    assert session.connection_lost() == ConnectionLost("the host closed the connection", silent=False)


def test_peer_asks_for_a_snapshot_on_a_gap_or_a_bad_hash() -> None:
    session = PeerSession(name="p")
    asked: list[int] = []
    public: dict[str, P.JSONValue] = {"round": 0}
    snapshot_request = session.encode(P.SnapshotRequest())

    def state(state_id: int, good: bool = True, kind: str = "update") -> StateMessage:
        return StateMessage(
            kind=kind,
            game_no=0,
            state_id=state_id,
            hash=P.state_hash_of(public) if good else "0" * 64,
            view={"public": public, "private": None},
            to_act=[],
            decision_id=None,
            legal=[],
            count=0,
            paged=False,
            deadline_ms=None,
            over=False,
            outcome=None,
        )

    def on_state(message: StateMessage) -> None:
        step = Step()
        session.on_state(message, step)
        asked.extend(1 for line in step.send if line == snapshot_request)

    on_state(state(1, kind="snapshot"))
    on_state(state(2))
    assert asked == [] and session.state.last is not None and session.state.last.state_id == 2
    on_state(state(4))
    assert asked == [1] and session.state.gaps == 1 and session.state.last.state_id == 4
    on_state(state(5, good=False))
    assert asked == [1, 1] and session.state.hash_mismatches == 1 and session.state.last.state_id == 4
