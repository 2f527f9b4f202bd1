"""protocol/messages.py: every message typed, parsed strictly and built in one place (no I/O)."""

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardnet import protocol as P
from cardnet.protocol import ProtocolError, Raw

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-P.MAX_INT, P.MAX_INT) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


def hello(**fields: object) -> dict[str, object]:
    return {"type": "hello", "protocol": 1, "name": "ann", **fields}


def test_parse_hello_and_defaults() -> None:
    msg = P.parse_client_message(hello(capabilities=["chat"], seat=1))  # type: ignore[arg-type]
    assert msg == P.Hello(protocol=1, name="ann", role="player", capabilities=("chat",), seat=1)


@pytest.mark.parametrize(
    "obj",
    [
        {"protocol": 1, "name": "x"},
        hello(name=""),
        hello(name="a" * 33),
        hello(name="tab\there"),
        hello(protocol="1"),
        hello(role="referee"),
        hello(capabilities="chat"),
        hello(capabilities=["Chat!"]),
        hello(seat=-1),
        hello(seat=True),
        hello(token="short"),
        hello(auth="zz"),
        # A trailing newline must not slip past the patterns (a name with one could forge lines in a text UI).
        hello(name="ann\n"),
        hello(token="A" * 43 + "\n"),
        hello(auth="0" * 64 + "\n"),
        hello(capabilities=["chat\n"]),
        {"type": "move", "decision_id": 1},
        {"type": "move", "decision_id": 1, "index": 0, "move": {}},
        {"type": "move", "decision_id": "1", "index": 0},
        {"type": "move", "decision_id": 1, "move": [1]},
        {"type": "move", "decision_id": 1, "index": 0, "ref": 1.0},
        {"type": "move", "decision_id": 1, "index": 0, "ref": "r" * 65},
        {"type": "chat"},
        {"type": "legal", "decision_id": 1},
        {"type": "legal", "decision_id": 1, "offset": 0, "limit": 0},
        {"type": "legal", "decision_id": 1, "offset": 0, "limit": P.LEGAL_PAGE + 1},
        {"type": "ping"},
        {"type": 7},
    ],
)
def test_parse_refuses_malformed_messages(obj: dict[str, object]) -> None:
    with pytest.raises(ProtocolError) as info:
        P.parse_client_message(obj)  # type: ignore[arg-type]
    assert info.value.code == "bad_message"
    assert not info.value.fatal


def test_unknown_type_is_its_own_error() -> None:
    with pytest.raises(ProtocolError) as info:
        P.parse_client_message({"type": "teleport"})
    assert info.value.code == "unknown_type"


@pytest.mark.parametrize(
    "message",
    [
        P.Hello(1, "ann", "spectator", ("chat",), None, "t" * 43, "a" * 64, "me/1"),
        P.Move(4, {"type": "pick", "card": 3}, None, 9),
        P.Move(4, None, 2, "r1"),
        P.Chat("hi"),
        P.SnapshotRequest(),
        P.LegalRequest(4, 0, 10, "page"),
        P.Rematch(),
        P.Ping(5),
        P.Pong(5),
        P.Bye(),
    ],
)
def test_client_messages_round_trip(message: P.ClientMessage) -> None:
    wire = P.decode_line(P.encode(message.to_wire())[:-1])
    assert P.parse_client_message(wire) == message


def test_unknown_fields_are_ignored_for_forward_compatibility() -> None:
    assert P.parse_client_message({"type": "ping", "id": 1, "future": {"x": 1}}) == P.Ping(1)


def test_state_message_round_trip_and_hash() -> None:
    public: dict[str, P.Encodable] = {"round": 1, "name": "Zoë"}
    view = Raw(P.canonical({"public": public, "private": {"hand": [1]}}))
    msg = P.StateMessage.wire(
        "update",
        game_no=0,
        state_id=7,
        state_hash=P.state_hash_of(public),
        view=view,
        to_act=[1],
        decision=P.Decision(3, Raw('[{"type":"x"}]'), 1, None),
        over=False,
        outcome=None,
        events=Raw("[]"),
        ack={"decision_id": 2, "ref": 1},
    )
    line = P.encode(msg)
    parsed = P.StateMessage.parse(json.loads(line))
    assert parsed.hash_ok()
    assert (parsed.state_id, parsed.decision_id, parsed.legal, parsed.ack) == (
        7,
        3,
        [{"type": "x"}],
        {"decision_id": 2, "ref": 1},
    )
    assert line == P.encode(json.loads(line))  # what the host sends is canonical


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(["update", "snapshot"]),
    ids=st.tuples(st.integers(0, 2**40), st.integers(0, 2**40), st.integers(0, 2**40), st.integers(0, 5000)),
    deadline=st.none() | st.integers(0, 10**7),
    paged=st.booleans(),
    decided=st.booleans(),
    over=st.booleans(),
    to_act=st.lists(st.integers(0, 7), max_size=3, unique=True),
    ack=st.none()
    | st.fixed_dictionaries({"decision_id": st.integers(0, 2**40), "ref": st.none() | st.integers() | st.text()}),
    events=st.none() | st.just('[{"seat":1,"type":"pass"}]'),
    state_hash=st.sampled_from(["ab" * 32, 'not "hex" \u00e9']),
)
def test_the_spliced_state_line_is_the_encoded_message(
    kind: str,
    ids: tuple[int, int, int, int],
    deadline: int | None,
    paged: bool,
    decided: bool,
    over: bool,
    to_act: list[int],
    ack: dict[str, P.Encodable] | None,
    events: str | None,
    state_hash: str,
) -> None:
    """``StateMessage.line`` (the host's per-move path) writes exactly the bytes of ``encode(wire(...))``."""
    game_no, state_id, decision_id, count = ids
    view = P.canonical({"private": None, "public": {"round": 1, "name": "Zo\u00eb"}})
    legal = None if paged else Raw('[{"type":"x"}]')
    decision = P.Decision(decision_id, legal, count, deadline) if decided else None
    outcome = '{"kind":"draw"}' if over else None
    common: dict[str, Any] = dict(
        game_no=game_no, state_id=state_id, state_hash=state_hash, to_act=sorted(to_act), decision=decision, over=over
    )
    wire = P.StateMessage.wire(
        kind,
        view=Raw(view),
        outcome=None if outcome is None else Raw(outcome),
        events=None if events is None else Raw(events),
        ack=ack,
        **common,
    )
    assert P.StateMessage.line(kind, view=view, outcome=outcome, events=events, ack=ack, **common) == P.encode(wire)


def test_the_spliced_state_line_keeps_the_line_limit() -> None:
    with pytest.raises(ValueError, match="line limit"):
        P.StateMessage.line(
            "update",
            game_no=0,
            state_id=1,
            state_hash="0" * 64,
            view="[" + "1," * 40 + "1]",
            to_act=[],
            decision=None,
            over=False,
            outcome=None,
            limit=50,
        )


def test_error_message_shape() -> None:
    msg = P.HostError("stale_decision", "gone", state_id=4, decision_id=None, ref=2).to_wire()
    assert msg == {
        "type": "error",
        "code": "stale_decision",
        "reason": "gone",
        "fatal": False,
        "state_id": 4,
        "decision_id": None,
        "ref": 2,
    }


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_only_ever_raise_protocol_errors(data: bytes) -> None:
    try:
        P.parse_client_message(P.decode_line(data))
    except ProtocolError as exc:
        assert exc.code in P.ERROR_CODES


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["hello", "move", "chat", "snapshot", "legal", "rematch", "ping", "pong", "bye"]),
    st.dictionaries(
        st.sampled_from(
            [
                "protocol",
                "name",
                "role",
                "capabilities",
                "seat",
                "token",
                "auth",
                "decision_id",
                "move",
                "index",
                "text",
                "id",
                "ref",
                "offset",
                "limit",
            ]
        ),
        json_values,
        max_size=6,
    ),
)
def test_messages_with_arbitrary_fields_are_typed_or_refused(kind: str, fields: dict[str, object]) -> None:
    try:
        msg = P.parse_client_message({"type": kind, **fields})  # type: ignore[dict-item]
    except ProtocolError as exc:
        assert exc.code == "bad_message"
    else:
        assert P.parse_client_message(msg.to_wire()) == msg  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "message",
    [
        P.TableInfo(
            ("chat",),
            "t1",
            "ann's table",
            "fistful",
            2,
            {"length": "short"},
            False,
            True,
            "c" * 32,
            True,
            1,
            [P.seat_entry(0, "human", "ann", True, False)],
        ),
        P.TableInfo(("chat",), "t2", "web", "matchstick", 4, {}, False, False, "c" * 32, False, 0, [], web=8081),
        P.Welcome(1, ("chat", "rematch"), 0, "T" * 43, 10_000, 30_000, 60_000),
        P.HostError("illegal_move", "not now", 4, 17, ref="r1", detail="plus_one"),
        P.HostError("shutting_down", "bye", 4, None),
        P.LegalPage(17, 4096, 5000, [{"type": "pass"}]),
        P.ChatMessage(None, "eve", True, "hello"),
        P.SeatsChanged([P.seat_entry(1, "bot", "normal bot", True, False)], False),
        P.SeatsChanged([P.seat_entry(0, "human", "ann", False, True)], True, spectators=3),
        P.RematchVotes(2, [0, 1]),
        P.Ping(3),
        P.Pong(3),
    ],
)
def test_host_messages_round_trip(message: P.HostMessage) -> None:
    wire = P.decode_line(P.encode(message.to_wire())[:-1])
    assert P.parse_host_message(wire) == message


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "welcome", "seat": "zero"},
        {"type": "error", "code": 3, "reason": "x"},
        {"type": "legal", "decision_id": 1, "offset": 0, "count": 1, "moves": {}},
        {"type": "seats", "seats": None},
        {"type": "seats", "seats": [], "spectators": -1},
        {"type": "seats", "seats": [], "spectators": "2"},
        {"type": "rematch", "game_no": 0, "votes": ["a"]},
        {"type": "update", "game_no": 0, "state_id": 1, "hash": "h", "view": [], "to_act": []},
        {"type": "table", "versions": [1], "challenge": "c"},
        {"type": "table", "versions": [1], "challenge": "c", "table_id": "t", "web": 0},
        {"type": "table", "versions": [1], "challenge": "c", "table_id": "t", "web": 70000},
        {"type": "table", "versions": [1], "challenge": "c", "table_id": "t", "web": "8081"},
        {"kind": "ping"},
    ],
)
def test_malformed_host_messages_are_refused(obj: dict[str, P.JSONValue]) -> None:
    with pytest.raises(ProtocolError) as info:
        P.parse_host_message(obj)
    assert info.value.code == "bad_message"


def test_a_seats_message_from_a_host_that_counts_no_spectators_still_parses() -> None:
    # Hosts before the spectator count sent no such field: peers take the seats and know no count.
    older = {"type": "seats", "seats": [P.seat_entry(0, "open", None, False, False)], "started": False}
    seats = P.parse_host_message(older)  # type: ignore[arg-type]
    assert isinstance(seats, P.SeatsChanged) and seats.spectators is None and seats.to_wire() == older


def test_the_web_port_is_sent_only_with_a_web_seat_and_null_reads_as_none() -> None:
    table: dict[str, P.JSONValue] = {"type": "table", "versions": [1], "challenge": "c", "table_id": "t"}
    info = P.TableInfo.parse(table)
    assert info.web is None and "web" not in info.to_wire()
    assert P.TableInfo.parse(table | {"web": None}).web is None
    assert P.TableInfo.parse(table | {"web": 8081}).to_wire()["web"] == 8081


def test_unknown_host_messages_are_left_for_newer_peers() -> None:
    assert P.parse_host_message({"type": "fairness_commitment", "hash": "00"}) is None


def _full_parse(line: bytes) -> object:
    try:
        return P.parse_client_message(P.decode_line(line))
    except ProtocolError as exc:
        return exc.code


MOVE_LINES = [
    b'{"decision_id":17,"index":3,"type":"move"}',
    b'{"decision_id":0,"index":-0,"ref":null,"type":"move"}',
    b'{"decision_id":999999999999999,"index":-999999999999999,"ref":-12,"type":"move"}',
    b'{"decision_id":17,"index":3,"ref":"a b-:~!","type":"move"}',
    b'{"decision_id":17,"index":3,"ref":"' + b"x" * 64 + b'","type":"move"}',
    b'{"decision_id":17,"index":3,"ref":"","type":"move"}',
    # Any key order and JSON spacing, as any encoder writes: the shortcut is the core's (cardnet.native).
    b'{"decision_id":1,"index":3,"type":"move"}\r',
    b'{"decision_id":1, "index":3,"type":"move"}',
    b'{"index":3,"decision_id":1,"type":"move"}',
    b'{ "type": "move", "ref": 5, "index": -2, "decision_id": 8 }',
]
NOT_FAST = [
    b'{"decision_id":17,"index":3,"ref":"' + b"x" * 65 + b'","type":"move"}',  # ref too long: bad_message
    b'{"decision_id":9007199254740992,"index":3,"type":"move"}',  # past 2**53-1: bad_json
    b'{"decision_id":-1,"index":3,"type":"move"}',  # out of range: bad_message
    b'{"decision_id":01,"index":3,"type":"move"}',  # not JSON
    b'{"decision_id":1,"index":3.0,"type":"move"}',  # a float: bad_json
    b'{"decision_id":1,"index":3,"ref":true,"type":"move"}',  # bad_message
    b'{"decision_id":1,"index":3,"ref":"\\u00e9","type":"move"}',  # valid, escaped: the full path takes it
    b'{"decision_id":1,"index":3,"type":"move","x":1}',
    b'{"decision_id":1,"index":3,"type":"move"}{}',
    b'{"decision_id":1,"index":3,"index":4,"type":"move"}',  # duplicate key: bad_json
]


@pytest.mark.parametrize("line", MOVE_LINES)
def test_the_move_line_fast_path_agrees_with_the_full_parse(line: bytes) -> None:
    assert P.parse_move_line(line) == _full_parse(line)


@pytest.mark.parametrize("line", NOT_FAST)
def test_every_other_line_takes_the_full_path(line: bytes) -> None:
    assert P.parse_move_line(line) is None


@given(
    decision_id=st.integers(-(2**54), 2**54),
    index=st.integers(-(2**54), 2**54),
    ref=st.none() | st.integers(-(2**54), 2**54) | st.text(max_size=70),
)
@settings(max_examples=300, deadline=None)
def test_the_fast_path_never_disagrees(decision_id: int, index: int, ref: int | str | None) -> None:
    """Whatever the fast path accepts, the full path makes the same move of; what it passes on is not its call."""
    for wire in (
        {"type": "move", "decision_id": decision_id, "index": index},
        {"type": "move", "decision_id": decision_id, "index": index, "ref": ref},
    ):
        line = json.dumps(wire, sort_keys=True, separators=(",", ":")).encode()
        fast = P.parse_move_line(line)
        if fast is not None:
            assert fast == _full_parse(line)
