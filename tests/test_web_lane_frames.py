"""The native lane's WebSocket framing (rust/py/src/host/websocket.rs) against wsproto's: every line the lane
frames decodes with wsproto to the same line, and every client frame the lane reads itself is one wsproto parses
to the same line; anything else (fragments, control frames, binary, unmasked, broken, too long, two lines, not
UTF-8, two frames at once, half a frame) the lane leaves to the web seat's reader."""

from __future__ import annotations

import struct

from hypothesis import example, given, settings
from hypothesis import strategies as st
from wsproto.connection import Connection, ConnectionType
from wsproto.events import BytesMessage, CloseConnection, Ping, TextMessage

from cardnet.native import websocket_frame, websocket_line
from cardnet.web.ws import text_frame

from webhelpers import BINARY, CLOSE, CONTINUATION, PING, TEXT, client_frame

LIMIT = 1000

#: A line of text: any Unicode (several bytes a character), with or without its newline.
texts = st.text(st.characters(exclude_characters="\n", exclude_categories=["Cs"]), max_size=300)


def wsproto_messages(data: bytes, side: ConnectionType) -> list[object]:
    """What wsproto makes of ``data`` received by an open connection on ``side``: each whole message's text (or
    bytes), or the event that is not a message (a ping, a close, a failure)."""
    connection = Connection(side)
    connection.receive_data(data)
    out: list[object] = []
    text: list[str] = []
    binary: list[bytes] = []
    for event in connection.events():
        if isinstance(event, TextMessage):
            text.append(event.data)
            if event.message_finished:
                out.append("".join(text))
                text = []
        elif isinstance(event, BytesMessage):
            binary.append(bytes(event.data))
            if event.message_finished:
                out.append(b"".join(binary))
                binary = []
        else:
            out.append(event)
    if text or binary:
        out.append(("unfinished", text, binary))
    return out


@settings(max_examples=200, deadline=None)
@given(texts, st.booleans(), st.integers(0, 70_000))
@example("", True, 0)
def test_every_line_the_lane_frames_is_that_line_for_wsproto(text: str, newline: bool, pad: int) -> None:
    line = text.encode() + (b"x" * pad if pad in (125, 126, 65_535, 65_536) else b"") + (b"\n" if newline else b"")
    wire = websocket_frame(line)
    assert wire == text_frame(line)
    assert wsproto_messages(wire, ConnectionType.CLIENT) == [line.removesuffix(b"\n").decode()]


@settings(max_examples=300, deadline=None)
@given(texts, st.booleans(), st.binary(min_size=4, max_size=4))
def test_a_browsers_text_message_is_read_by_the_lane_as_wsproto_reads_it(text: str, newline: bool, key: bytes) -> None:
    payload = text.encode() + (b"\n" if newline else b"")
    frame = client_frame(TEXT, payload, mask=key)
    read = websocket_line(frame, LIMIT)
    if len(payload) > LIMIT:
        assert read is None
        return
    assert read == text.encode() + b"\n"
    assert wsproto_messages(frame, ConnectionType.SERVER) == [payload.decode()]


def _frame(opcode: int, payload: bytes, fin: bool, masked: bool, length_form: int, rsv: int, key: bytes) -> bytes:
    """A frame with every header field chosen, the length in any of its three forms (wsproto refuses a longer
    form than needed)."""
    size = len(payload)
    first = (0x80 if fin else 0) | rsv << 4 | opcode
    mask_bit = 0x80 if masked else 0
    if length_form == 0 and size < 126:
        header = struct.pack("!BB", first, mask_bit | size)
    elif length_form <= 1 and size < 1 << 16:
        header = struct.pack("!BBH", first, mask_bit | 126, size)
    else:
        header = struct.pack("!BBQ", first, mask_bit | 127, size)
    if not masked:
        return header + payload
    return header + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


#: One header field of a browser's usual frame changed (or none), so that half the cases are near the usual one.
changes = st.sampled_from(["none", "opcode", "fin", "mask", "length form", "rsv", "cut short", "more"])


@settings(max_examples=600, deadline=None)
@given(
    change=changes,
    opcode=st.sampled_from([BINARY, CONTINUATION, PING, CLOSE, 0x3, 0xB]),
    payload=st.one_of(texts.map(str.encode), st.binary(max_size=200)),
    rsv=st.integers(1, 7),
    key=st.binary(min_size=4, max_size=4),
    cut=st.integers(1, 14),
)
def test_any_frame_is_read_by_the_lane_only_when_wsproto_reads_it_as_one_line(
    change: str, opcode: int, payload: bytes, rsv: int, key: bytes, cut: int
) -> None:
    # A length in a longer form than it needs.
    longer = 1 if len(payload) < 126 else 2
    frame = _frame(
        opcode if change == "opcode" else TEXT,
        payload,
        change != "fin",
        change != "mask",
        longer if change == "length form" else 0,
        rsv if change == "rsv" else 0,
        key,
    )
    data = frame[:-cut] if change == "cut short" else frame + frame[:cut] if change == "more" else frame
    read = websocket_line(data, LIMIT)
    if read is None:
        # Left to the web seat: never the usual frame of one line of UTF-8 text.
        text = payload.removesuffix(b"\n")
        assert change != "none" or b"\n" in text or not _utf8(payload), data
        return
    # The lane's line: the only message wsproto finds in the bytes, one line, its newline taken off.
    assert change == "none"
    parsed = wsproto_messages(data, ConnectionType.SERVER)
    assert parsed == [payload.decode()], (data, parsed)
    assert read == payload.removesuffix(b"\n") + b"\n" and b"\n" not in payload.removesuffix(b"\n")


def _utf8(data: bytes) -> bool:
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True


def test_what_the_lane_leaves_is_what_the_web_seat_must_answer() -> None:
    """The usual shapes the lane leaves to the web seat: none is one whole masked text frame of one line."""
    move = b'{"decision_id":1,"index":0,"type":"move"}'
    left = {
        "fragment": client_frame(TEXT, move, fin=False),
        "ping": client_frame(PING, b"hi"),
        "close": client_frame(CLOSE, struct.pack("!H", 1000)),
        "binary": client_frame(BINARY, move),
        "unmasked": b"\x81" + bytes([len(move)]) + move,
        "two frames": client_frame(TEXT, move) * 2,
        "half a frame": client_frame(TEXT, move)[:-1],
        "two lines": client_frame(TEXT, move + b"\n" + move),
        "not UTF-8": client_frame(TEXT, b"\xff" + move),
        "too long": client_frame(TEXT, b"x" * (LIMIT + 1)),
    }
    for name, data in left.items():
        assert websocket_line(data, LIMIT) is None, name
    assert websocket_line(client_frame(TEXT, move), LIMIT) == move + b"\n"
    assert websocket_line(client_frame(TEXT, b"x" * LIMIT), LIMIT) == b"x" * LIMIT + b"\n"
    # wsproto agrees that these are not one text message.
    for name in ("ping", "close", "binary"):
        (event,) = wsproto_messages(left[name], ConnectionType.SERVER)
        assert isinstance(event, (Ping, CloseConnection, bytes)), name
    assert not any(isinstance(e, BytesMessage) for e in wsproto_messages(left["fragment"], ConnectionType.SERVER))
