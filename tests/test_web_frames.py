"""The WebSocket line stream reads every way a client may cut its messages alike: whole frames (read by the web
seat itself) and fragments, pings between them, any split of the bytes into reads (wsproto's path), give the same
lines in the same order."""

from __future__ import annotations

import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st

from cardnet.web.ws import WebSocketLines

from webhelpers import CONTINUATION, PING, TEXT, client_frame

#: A message: JSON-ish text, any Unicode (several bytes a character), a trailing newline or not.
messages = st.lists(st.text(min_size=0, max_size=300).map(lambda t: '{"t":' + repr(t) + "}"), min_size=1, max_size=6)


def frames_of(text: str, cuts: list[int], ping: bool) -> bytes:
    """One message as a client may send it: whole, or cut into fragments at ``cuts`` (byte offsets, which may
    fall inside a character), with a ping after the first fragment."""
    data = text.encode()
    points = sorted({c % (len(data) + 1) for c in cuts} - {0, len(data)})
    if not points:
        return client_frame(TEXT, data)
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)])]
    out = client_frame(TEXT, pieces[0], fin=False)
    if ping:
        out += client_frame(PING, b"hi")
    for n, piece in enumerate(pieces[1:], 1):
        out += client_frame(CONTINUATION, piece, fin=n == len(pieces) - 1)
    return out


async def read_all(wire: bytes, reads: list[int]) -> tuple[list[bytes], int]:
    """Send ``wire`` to a WebSocketLines in reads of the given sizes (each read by the stream before the next
    is sent); the lines it gives and the pongs it wrote."""
    client, server = trio.testing.memory_stream_pair()
    lines = WebSocketLines(server, limit=1 << 16, rate=1000.0, burst=1000.0)
    pongs: list[bytes] = []
    lines.attach(pongs.append)
    out: list[bytes] = []

    async def reader() -> None:
        while (line := await lines.read_line()) is not None:
            out.append(line)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(reader)
        at = 0
        for size in [*reads, len(wire)]:
            if at >= len(wire):
                break
            await client.send_all(wire[at : at + size])
            at += size
            await trio.testing.wait_all_tasks_blocked()
        await client.aclose()
    return out, len(pongs)


@settings(max_examples=120, deadline=None)
@given(
    texts=messages,
    cuts=st.lists(st.lists(st.integers(0, 2000), max_size=4), min_size=6, max_size=6),
    newline=st.booleans(),
    ping=st.booleans(),
    reads=st.lists(st.integers(1, 700), max_size=12),
)
def test_every_cut_of_the_messages_gives_the_same_lines(
    texts: list[str], cuts: list[list[int]], newline: bool, ping: bool, reads: list[int]
) -> None:
    sent = [text + ("\n" if newline else "") for text in texts]
    wire = b"".join(frames_of(text, cut, ping) for text, cut in zip(sent, cuts))
    got, pongs = trio.run(read_all, wire, reads)
    assert got == [text.encode() for text in texts]
    fragmented = sum(
        1 for text, cut in zip(sent, cuts) if {c % (len(text.encode()) + 1) for c in cut} - {0, len(text.encode())}
    )
    assert pongs == (fragmented if ping else 0)
