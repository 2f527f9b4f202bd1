"""protocol/codec.py: canonical encoding, strict decoding with limits, line framing, auth (no I/O)."""


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
    ],
)
def test_hostile_lines_are_not_scanned_character_by_character_in_python(line: bytes) -> None:
    # The cost of a worst-case line must stay near the C decoder's: a fixed number of Python lines, not one or
    # more per byte or per value (bench/protocol_decode.py measures the time).
    assert len(line) <= P.MAX_PEER_LINE
    assert _python_lines_run(line) < 100


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
