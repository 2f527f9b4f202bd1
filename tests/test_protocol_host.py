"""The host's session without sockets: lines and the time go in, effects come out."""

from __future__ import annotations

import json
from typing import Any

from cardnet import protocol as P
from cardnet.protocol.host import (
    Append,
    Changed,
    Close,
    Commit,
    Durable,
    Effect,
    HostOptions,
    HostSession,
    Link,
    Resync,
    Send,
)
from cardnet.table import Table, TableConfig

from netfake import fake_engine


def make_session(players: int = 2, *, durable: bool = False, **options: Any) -> HostSession:
    config = TableConfig("callpick", players, 5, seeded=True, table_id="hs")
    table = Table(config, fake_engine(), clock=lambda: 0.0)
    return HostSession(table, HostOptions(**options), durable_tokens=durable)


def sent(effects: list[Effect], link: Link) -> list[dict[str, Any]]:
    """The messages queued for ``link`` (its state messages included), decoded."""
    out: list[dict[str, Any]] = []
    for effect in effects:
        if isinstance(effect, Send) and effect.link is link:
            out.append(json.loads(effect.data))
        elif isinstance(effect, Commit):
            out += [json.loads(d.data) for d in effect.deliveries if d.data is not None and d.seat == link.seat]
    return out


def hello(name: str = "ann", **fields: Any) -> bytes:
    return P.encode({"type": "hello", "protocol": 1, "name": name, "capabilities": ["chat"], **fields})[:-1]


def join(session: HostSession, name: str, now: float = 0.0, **fields: Any) -> tuple[Link, list[Effect]]:
    link, first = session.connect(now)
    assert [m["type"] for m in sent(first, link)] == ["table"]
    return link, session.receive_line(link, hello(name, **fields), now)


def test_the_handshake_seats_a_player_and_the_full_table_starts() -> None:
    session = make_session()
    a, effects = join(session, "ann")
    assert [type(e) for e in effects][:1] == [Append]
    assert [m["type"] for m in sent(effects, a)] == ["welcome", "seats"]
    assert Resync(a) in effects and a.ready and a.seat == 0
    b, effects = join(session, "bob")
    # The second player starts the game: both get a snapshot, the new one after its welcome.
    assert [m["type"] for m in sent(effects, b)] == ["welcome", "seats", "snapshot"]
    assert [m["type"] for m in sent(effects, a)] == ["seats", "snapshot"]
    assert isinstance(effects[-1], Changed)


def test_the_first_message_must_be_a_hello_within_the_handshake_timeout() -> None:
    session = make_session(handshake_timeout=3.0)
    link, _ = session.connect(10.0)
    assert session.read_deadline(link) == 13.0
    effects = session.timed_out(link, 13.0)
    assert sent(effects, link)[0]["code"] == "handshake_timeout" and Close(link, "handshake_timeout") in effects
    other, _ = session.connect(10.0)
    effects = session.receive_line(other, P.encode({"type": "ping", "id": 1})[:-1], 10.5)
    assert sent(effects, other)[0]["code"] == "handshake_required" and other.closing == "handshake_required"
    assert session.receive_line(other, hello(), 11.0) == []


def test_a_password_table_wants_the_proof_for_its_own_challenge() -> None:
    session = make_session(password="sesame")
    link, first = session.connect(0.0)
    table = sent(first, link)[0]
    assert table["password"] is True
    wrong = session.receive_line(link, hello(auth=P.auth_mac("sesame", "hs", "0" * 32)), 0.0)
    assert sent(wrong, link)[0]["code"] == "auth_failed" and link.closing == "auth_failed"
    link, first = session.connect(0.0)
    proof = P.auth_mac("sesame", "hs", sent(first, link)[0]["challenge"])
    assert sent(session.receive_line(link, hello(auth=proof), 0.0), link)[0]["type"] == "welcome"


def test_rate_limits_count_messages_over_the_time_passed_in() -> None:
    session = make_session(msg_rate=1.0, msg_burst=3.0)
    link, _ = join(session, "ann")
    ping = P.encode({"type": "ping", "id": 1})[:-1]
    for _ in range(3):
        assert sent(session.receive_line(link, ping, 1.0), link)[0]["type"] == "pong"
    effects = session.receive_line(link, ping, 1.0)
    assert sent(effects, link)[0]["code"] == "rate_limited" and link.closing == "rate_limited"
    slow, _ = join(session, "bob")
    for t in range(10):
        assert sent(session.receive_line(slow, ping, 2.0 + t), slow)[0]["type"] == "pong"


def test_malformed_lines_are_strikes_until_the_limit() -> None:
    session = make_session(max_strikes=2)
    link, _ = join(session, "ann")
    for n in range(2):
        effects = session.receive_line(link, b"{not json", float(n))
        assert sent(effects, link)[0]["code"] == "bad_json" and link.closing is None
    effects = session.receive_line(link, b"{not json", 3.0)
    assert sent(effects, link)[0]["code"] == "too_many_errors" and link.closing == "too_many_errors"


def test_a_move_commits_its_record_and_acknowledges_only_the_mover() -> None:
    session = make_session()
    a, _ = join(session, "ann")
    b, _ = join(session, "bob")
    decision = session.table.decisions[0]
    stale = session.receive_line(a, P.encode(P.Move(decision.id + 16, index=0, ref=1).to_wire())[:-1], 1.0)
    assert sent(stale, a)[0]["code"] == "stale_decision" and session.table.state_id == 1
    effects = session.receive_line(a, P.encode(P.Move(decision.id, index=0, ref=7).to_wire())[:-1], 1.0)
    (commit,) = [e for e in effects if isinstance(e, Commit)]
    assert [r["kind"] for r in commit.records] == ["move"] and not commit.game_over
    mine, theirs = sent(effects, a)[0], sent(effects, b)[0]
    assert mine["ack"] == {"decision_id": decision.id, "ref": 7} and "ack" not in theirs
    assert mine["state_id"] == theirs["state_id"] == 2


def test_a_token_resumes_the_seat_and_replaces_the_old_connection() -> None:
    session = make_session()
    a, effects = join(session, "ann")
    token = sent(effects, a)[0]["token"]
    again, effects = join(session, "ann", token=token)
    assert sent(effects, a)[0]["code"] == "replaced" and Close(a, "replaced") in effects
    assert again.seat == 0 and sent(effects, again)[0]["token"] is None
    bad, effects = join(session, "eve", token="x" * 43)
    assert sent(effects, bad)[0]["code"] == "bad_token"


def test_a_durable_token_is_welcomed_only_after_the_journal() -> None:
    session = make_session(durable=True)
    link, effects = join(session, "ann")
    assert isinstance(effects[0], Append) and effects[-1] == Durable(link) and not link.ready
    assert sent(effects, link) == []
    welcome = session.welcome(link)
    assert sent(welcome, link)[0]["type"] == "welcome" and link.ready


def test_chat_goes_to_those_who_asked_for_it_at_its_own_rate() -> None:
    session = make_session(chat_rate=0.0, chat_burst=1.0)
    a, _ = join(session, "ann")
    b, _ = join(session, "bob", capabilities=[])
    chat = P.encode(P.Chat("hi").to_wire())[:-1]
    effects = session.receive_line(a, chat, 1.0)
    assert sent(effects, a) == [{"type": "chat", "seat": 0, "name": "ann", "spectator": False, "text": "hi"}]
    assert sent(effects, b) == []
    assert sent(session.receive_line(a, chat, 2.0), a)[0]["code"] == "chat_rate"
    assert sent(session.receive_line(b, chat, 2.0), b)[0]["code"] == "chat_disabled"


def test_an_absent_player_is_replaced_by_a_builtin_after_the_seat_timeout() -> None:
    session = make_session(seat_timeout=5.0)
    a, _ = join(session, "ann")
    b, _ = join(session, "bob")
    effects = session.disconnected(a, 10.0)
    assert sent(effects, b)[0]["seats"][0]["connected"] is False
    effects, deadlines = session.check_absent(12.0)
    assert effects == [] and deadlines == [15.0]
    effects, deadlines = session.check_absent(15.0)
    assert deadlines == [] and session.table.seats[0].auto
    assert sent(effects, b)[0]["seats"][0]["auto"] is True


def test_a_connected_player_that_goes_silent_times_out_after_its_last_line() -> None:
    session = make_session(idle_timeout=30.0)
    link, _ = join(session, "ann", now=100.0)
    session.receive_line(link, P.encode(P.Ping(1).to_wire())[:-1], 110.0)
    assert session.read_deadline(link) == 140.0
    assert session.timed_out(link, 139.0) == [] and link.closing is None
    effects = session.timed_out(link, 140.0)
    assert sent(effects, link)[0]["code"] == "idle_timeout" and Close(link, "idle_timeout") in effects


def test_legal_pages_slice_the_open_decision() -> None:
    session = make_session()
    a, _ = join(session, "ann")
    b, _ = join(session, "bob")
    decision = session.table.decisions[0]
    request = P.LegalRequest(decision.id, 1, 1, ref="p")
    (page,) = sent(session.receive_line(a, P.encode(request.to_wire())[:-1], 1.0), a)
    assert page == {
        "type": "legal",
        "decision_id": decision.id,
        "offset": 1,
        "count": decision.count,
        "moves": json.loads(decision.legal_json)[1:2],
    }
    refused = sent(session.receive_line(b, P.encode(request.to_wire())[:-1], 1.0), b)
    assert refused[0]["code"] == "wrong_seat" and refused[0]["ref"] == "p"


def test_spectators_watch_within_their_room_and_cannot_vote_or_move() -> None:
    session = make_session(max_spectators=1)
    eve, effects = join(session, "eve", role="spectator")
    assert eve.spectator and eve.seat is None and sent(effects, eve)[0]["seat"] is None
    full, effects = join(session, "zed", role="spectator")
    assert sent(effects, full)[0]["code"] == "table_full"
    rematch = P.encode(P.Rematch().to_wire())[:-1]
    assert sent(session.receive_line(eve, rematch, 1.0), eve)[0]["code"] == "spectator"
    move = P.encode(P.Move(16, index=0).to_wire())[:-1]
    assert sent(session.receive_line(eve, move, 1.0), eve)[0]["code"] == "spectator"


def seats_counts(effects: list[Effect], link: Link) -> list[int]:
    """The spectator counts of the ``seats`` messages queued for ``link``."""
    return [m["spectators"] for m in sent(effects, link) if m["type"] == "seats"]


def test_every_peer_hears_how_many_spectators_watch_as_they_come_and_go() -> None:
    session = make_session()
    ann, effects = join(session, "ann")
    assert seats_counts(effects, ann) == [0]
    eve, effects = join(session, "eve", role="spectator")
    # The newcomer counts itself; the player hears the same number.
    assert seats_counts(effects, ann) == [1] and seats_counts(effects, eve) == [1]
    zed, effects = join(session, "zed", role="spectator")
    assert seats_counts(effects, ann) == seats_counts(effects, eve) == seats_counts(effects, zed) == [2]
    # A spectator leaving on purpose, then one whose connection drops: each time everyone left hears it.
    effects = session.receive_line(eve, P.encode(P.Bye().to_wire())[:-1], 1.0)
    assert Close(eve, "bye") in effects
    effects = session.disconnected(eve, 1.0)
    assert seats_counts(effects, ann) == seats_counts(effects, zed) == [1] and not sent(effects, eve)
    effects = session.disconnected(zed, 2.0)
    assert seats_counts(effects, ann) == [0]
    # A spectator that never finished its handshake was never counted: its going changes nothing.
    half, _ = session.connect(3.0)
    assert session.disconnected(half, 3.0) == []
    bob, effects = join(session, "bob")
    assert seats_counts(effects, bob) == [0] and session.spectator_count() == 0
    # When the host stops, the spectators it sends away are not counted down to those also being sent away.
    last, _ = join(session, "last", 4.0, role="spectator")
    session.shutdown()
    assert session.disconnected(last, 5.0) == []


def test_a_player_saying_bye_is_replaced_at_once() -> None:
    session = make_session(seat_timeout=60.0)
    a, _ = join(session, "ann")
    b, _ = join(session, "bob")
    effects = session.receive_line(a, P.encode(P.Bye().to_wire())[:-1], 5.0)
    assert Close(a, "bye") in effects
    session.disconnected(a, 5.0)
    effects, deadlines = session.check_absent(5.0)
    assert session.table.seats[0].auto and deadlines == []
    assert sent(effects, b)[0]["type"] == "seats"


def test_a_bye_still_replaces_at_once_when_the_absent_seats_are_checked_before_its_disconnect() -> None:
    # The host may look at absent seats between the bye and the connection's end (any change at the table wakes
    # that check): the bye must not be forgotten for the seat still being marked connected.
    session = make_session(seat_timeout=60.0)
    a, _ = join(session, "ann")
    join(session, "bob")
    session.receive_line(a, P.encode(P.Bye().to_wire())[:-1], 5.0)
    _, deadlines = session.check_absent(5.0)
    assert not session.table.seats[0].auto and deadlines == []
    session.disconnected(a, 5.0)
    session.check_absent(5.0)
    assert session.table.seats[0].auto


def test_shutdown_tells_everyone_and_closes_every_connection() -> None:
    session = make_session()
    a, _ = join(session, "ann")
    waiting, _ = session.connect(0.0)
    effects = session.shutdown()
    for link in (a, waiting):
        assert sent(effects, link)[0]["code"] == "shutting_down" and Close(link, "shutting_down") in effects
    late, _ = session.connect(1.0)
    assert sent(session.receive_line(late, hello("bob"), 1.0), late)[0]["code"] == "shutting_down"


def test_a_move_repeated_after_a_reconnect_is_acknowledged_by_a_snapshot_not_applied_again() -> None:
    session = make_session()
    a, effects = join(session, "ann")
    token = sent(effects, a)[0]["token"]
    join(session, "bob")
    decision = session.table.decisions[0]
    move = P.encode(P.Move(decision.id, index=0, ref=1).to_wire())[:-1]
    session.receive_line(a, move, 1.0)
    state_id = session.table.state_id
    # The ack never arrived: the connection dropped, and the peer comes back and repeats its move.
    session.disconnected(a, 2.0)
    again, _ = join(session, "ann", now=3.0, token=token)
    effects = session.receive_line(again, move, 3.0)
    assert effects == [Resync(again, {"decision_id": decision.id, "ref": 1})] and session.table.state_id == state_id
    # A move acknowledged on this very connection is simply stale when repeated.
    mine = session.table.decisions[0]  # after the call, every seat picks
    fresh = P.encode(P.Move(mine.id, index=0, ref=2).to_wire())[:-1]
    assert any(isinstance(e, Commit) for e in session.receive_line(again, fresh, 4.0))
    assert sent(session.receive_line(again, fresh, 4.0), again)[0]["code"] == "stale_decision"
