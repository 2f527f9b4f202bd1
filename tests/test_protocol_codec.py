"""codec.py (re-exported by cardnet.protocol): canonical encoding, strict decoding with limits, line framing, auth (no I/O)."""

import itertools
import json

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


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_canonical_matches_sorted_compact_ascii_json(value: object) -> None:
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    assert P.canonical(value) == expected  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=5))
def test_decode_inverts_encode(value: dict[str, object]) -> None:
    line = P.encode(value, P.MAX_PEER_LINE)  # type: ignore[arg-type]
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert P.decode_line(line[:-1]) == value


def test_raw_fragments_are_spliced_verbatim() -> None:
    msg: dict[str, P.Encodable] = {"b": Raw('{"x":[1,2]}'), "a": 1}
    assert P.canonical(msg) == '{"a":1,"b":{"x":[1,2]}}'


def test_non_ascii_is_escaped_like_the_core() -> None:
    assert P.canonical({"name": "Zoë ☃"}) == '{"name":"Zo\\u00eb \\u2603"}'


def test_floats_and_non_string_keys_are_refused() -> None:
    with pytest.raises(TypeError):
        P.canonical({"x": 1.5})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        P.canonical({1: 2})  # type: ignore[dict-item]


def test_encode_enforces_the_line_limit() -> None:
    with pytest.raises(ValueError):
        P.encode({"t": "x" * 100}, limit=50)


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"\xff\xfe", "bad_utf8"),
        (b"{not json", "bad_json"),
        (b"[1,2]", "bad_json"),
        (b'{"a":1.5}', "bad_json"),
        (b'{"a":NaN}', "bad_json"),
        (b'{"a":1,"a":2}', "bad_json"),
        (b'{"a":' + str(2**60).encode() + b"}", "bad_json"),
        (b"[" * 5000 + b"]" * 5000, "bad_json"),
        (b'{"a":' + b"[" * 40 + b"]" * 40 + b"}", "bad_json"),
        (b"x" * (P.MAX_PEER_LINE + 1), "line_too_long"),
    ],
)
def test_decode_refuses_bad_lines(line: bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as info:
        P.decode_line(line)
    assert info.value.code == code


def _deep(depth: int, leaf: bytes = b"0") -> bytes:
    return b'{"a":' + b"[" * (depth - 1) + leaf + b"]" * (depth - 1) + b"}"


def test_depth_and_integer_limits_hold_wherever_they_are_broken() -> None:
    assert P.decode_line(_deep(P.MAX_DEPTH))["a"] is not None
    too_deep = [
        _deep(P.MAX_DEPTH + 1),
        # One deep branch among many shallow siblings, and objects nested in lists.
        b'{"a":[' + b"[]," * 100 + b"[" * P.MAX_DEPTH + b"]" * P.MAX_DEPTH + b"]}",
        b'{"a":' + b'[{"b":' * 20 + b"1" + b"}]" * 20 + b"}",
        b"[" * 40000,
    ]
    for line in too_deep:
        with pytest.raises(ProtocolError) as info:
            P.decode_line(line)
        assert info.value.code == "bad_json", line[:60]
    big = str(P.MAX_INT + 1).encode()
    for line in (_deep(5, big), _deep(5, b"-" + big), b'{"s":"' + b"[" * 50 + b'","n":[[' + big + b"]]}"):
        with pytest.raises(ProtocolError) as info:
            P.decode_line(line)
        assert info.value.code == "bad_json", line[:60]
    # Brackets and long digit runs inside strings are only text; the largest integers are fine.
    edge = str(P.MAX_INT).encode()
    assert P.decode_line(_deep(P.MAX_DEPTH, edge))["a"] is not None
    assert P.decode_line(_deep(3, b"-" + edge))["a"] == [[-P.MAX_INT]]
    assert P.decode_line(b'{"s":"' + b"[{" * 1000 + big + b'"}')["s"] == "[{" * 1000 + big.decode()
    assert P.decode_line(b'{"a":[true,false,null,' + edge + b"]}")["a"] == [True, False, None, P.MAX_INT]


def _python_lines_run(line: bytes) -> int:
    """How many lines of protocol.py's Python code run while decoding ``line`` (0 would be pure C)."""
    import sys
    from types import FrameType
    from typing import Any

    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if frame.f_code.co_filename != P.__file__:
            return None
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        P.decode_line(line)
    except ProtocolError:
        pass
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize(
    "line",
    [
        b'{"a":"' + b"[" * (P.MAX_PEER_LINE - 10) + b'"}',
        b"[" * P.MAX_PEER_LINE,
        b"[" * (P.MAX_PEER_LINE // 2) + b"]" * (P.MAX_PEER_LINE // 2),
        b'{"a":[' + b"[]," * (P.MAX_PEER_LINE // 3 - 4) + b"[]]}",
        b'{"s":"' + b"[" * 40 + b'","a":[' + b"9007199254740991," * (P.MAX_PEER_LINE // 17 - 4) + b"0]}",
        b'{"a":"' + b"\\ud83d\\ude00" * (P.MAX_PEER_LINE // 12 - 1) + b'"}',
        b'{"a":[' + b'"\\ud83d\\ude00",' * (P.MAX_PEER_LINE // 15 - 1) + b'"\\udc00"]}',
    ],
)
def test_hostile_lines_are_not_scanned_character_by_character_in_python(line: bytes) -> None:
    # The cost of a worst-case line must stay near the C decoder's: a fixed number of Python lines, not one or
    # more per byte or per value (bench/protocol_decode.py measures the time).
    assert len(line) <= P.MAX_PEER_LINE
    assert _python_lines_run(line) < 100


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"hello","protocol":1,"name":"\\udc00evil"}',
        b'{"type":"chat","text":"\\ud800"}',
        b'{"type":"chat","text":"\\ud83dx"}',
        b'{"type":"chat","text":"\\ude00\\ud83d"}',
        b'{"type":"chat","text":"ok","\\uDBFF":1}',
        b'{"type":"move","decision_id":1,"move":{"cards":[{"x":"\\ud800"}]}}',
    ],
)
def test_decode_refuses_escapes_that_are_not_unicode(line: bytes) -> None:
    # A lone surrogate cannot be written in UTF-8, so strict decoders (serde_json, the core's json_loads) refuse
    # any line carrying one: accepting it would let one peer break every other peer's reader.
    with pytest.raises(ProtocolError) as info:
        P.decode_line(line)
    assert info.value.code == "bad_json"
    assert not info.value.fatal


def test_decode_accepts_surrogate_pairs_and_escaped_backslashes() -> None:
    assert P.decode_line(b'{"t":"\\ud83d\\ude00"}') == {"t": "\U0001f600"}
    assert P.decode_line(b'{"t":"\\\\ud800"}') == {"t": "\\ud800"}


def test_canonical_never_writes_a_lone_surrogate() -> None:
    assert P.canonical("\U0001f600") == '"\\ud83d\\ude00"'
    for text in ("\udc00evil", "\ud800", {"\udfff": 1}):
        with pytest.raises(ValueError):
            P.canonical(text)


def test_a_negative_index_parses_so_the_table_can_call_it_invalid() -> None:
    # PROTOCOL.md section 5: an index outside 0..count-1 is invalid_move, decided where count is known.
    assert P.parse_client_message({"type": "move", "decision_id": 3, "index": -1}) == P.Move(3, None, -1)


@pytest.mark.parametrize("obj", [{}, {"type": None}, {"type": 7}, {"type": ["move"]}])
def test_a_missing_or_non_string_type_is_bad_message(obj: dict[str, object]) -> None:
    with pytest.raises(ProtocolError) as info:
        P.parse_client_message(obj)  # type: ignore[arg-type]
    assert info.value.code == "bad_message"


def test_decode_tolerates_whitespace_and_crlf() -> None:
    assert P.decode_line(b'{ "type" : "ping", "id" : 3 }\r') == {"type": "ping", "id": 3}


def test_chat_text_rules() -> None:
    assert P.check_chat_text("hello") == "hello"
    for bad, code in (("", "chat_too_long"), ("x" * 501, "chat_too_long"), ("a\nb", "bad_message")):
        with pytest.raises(ProtocolError) as info:
            P.check_chat_text(bad)
        assert info.value.code == code


def test_auth_mac_is_bound_to_table_and_challenge() -> None:
    mac = P.auth_mac("sesame", "t1", "c1")
    assert P.check_auth("sesame", "t1", "c1", mac)
    assert not P.check_auth("sesame", "t2", "c1", mac)
    assert not P.check_auth("sesame", "t1", "c2", mac)
    assert not P.check_auth("other", "t1", "c1", mac)
    assert "sesame" not in mac


def test_line_buffer_splits_and_limits() -> None:
    lines = P.LineBuffer(8)
    lines.feed(b'{"a":1}\n{"b"')
    assert lines.next_line() == b'{"a":1}' and lines.next_line() is None
    lines.feed(b":2}\n")
    assert lines.next_line() == b'{"b":2}' and lines.next_line() is None
    lines.feed(b"123456789")  # over the limit before any newline arrives
    with pytest.raises(ProtocolError) as info:
        lines.next_line()
    assert info.value.code == "line_too_long"
    whole = P.LineBuffer(4)
    whole.feed(b"12345\n")
    with pytest.raises(ProtocolError):
        whole.next_line()


def _split_all(chunks: list[bytes], limit: int, take: bool) -> list[bytes | str]:
    """Every line (or the error code that ended reading) from ``chunks``, through take() or feed() + next_line()."""
    lines = P.LineBuffer(limit)
    out: list[bytes | str] = []
    try:
        for chunk in chunks:
            if take:
                line = lines.take(chunk)
            else:
                lines.feed(chunk)
                line = lines.next_line()
            while line is not None:
                out.append(line)
                line = lines.next_line()
    except ProtocolError as exc:
        out.append(exc.code)
    return out


@given(st.lists(st.binary(max_size=12).map(lambda b: b.replace(b"\n", b"") + b"\n"), max_size=6),
       st.lists(st.integers(0, 30), max_size=8), st.integers(1, 10))  # fmt: skip
def test_take_splits_as_feed_then_next_line(lines: list[bytes], cuts: list[int], limit: int) -> None:
    stream = b"".join(lines)
    bounds = sorted({0, len(stream), *(c for c in cuts if c < len(stream))})
    chunks = [stream[a:b] for a, b in itertools.pairwise(bounds)]
    assert _split_all(chunks, limit, take=True) == _split_all(chunks, limit, take=False)
    # One line a chunk (a peer's usual reads): each line, up to the first one over the limit.
    expected: list[bytes | str] = []
    for line in lines:
        expected.append(line[:-1] if len(line) - 1 <= limit else "line_too_long")
        if len(line) - 1 > limit:
            break
    assert _split_all(lines, limit, take=True) == expected
