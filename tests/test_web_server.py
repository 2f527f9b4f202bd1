"""The web seat's HTTP side: the page's files with the right headers, and every malformed or hostile request a
clear 4xx or a close, while the table plays on. The WebSocket's own cases are in tests/test_web_socket.py."""

from __future__ import annotations

import json

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from cardnet.web import http as web_http
from cardnet.web import server as web_server
from cardnet.web.assets import BadPath, PageFiles

from nethelpers import RawClient, running_host
from netfake import fake_engine
from webhelpers import WsClient, web_seat

pytestmark = pytest.mark.trio

INDEX = b"<!doctype html><title>cardnet</title><script type=module src=app.mjs></script>\n"
APP = b"export const seat = 0;\n"


@pytest.fixture
def page(tmp_path: Path) -> Path:
    """A page of the test's own, with a subfolder, a hidden file, a type not served and a link out of it."""
    root = tmp_path / "page"
    (root / "cards").mkdir(parents=True)
    (root / "index.html").write_bytes(INDEX)
    (root / "app.mjs").write_bytes(APP)
    (root / "cards" / "seven.svg").write_bytes(b"<svg xmlns='http://www.w3.org/2000/svg'/>")
    (root / "style.css").write_bytes(b"body{margin:0}")
    (root / ".hidden.js").write_bytes(b"secret")
    (root / "notes.py").write_bytes(b"print('not served')")
    (tmp_path / "outside.txt").write_bytes(b"outside the page")
    os.symlink(tmp_path / "outside.txt", root / "escape.txt")
    return root


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes
    #: Whether the server closed the connection after this reply.
    closed: bool


async def exchange(port: int, request: bytes, *, head: bool = False, until_closed: bool = False) -> Reply:
    """Send raw request bytes and read one reply (bounded in time); ``until_closed``: then wait for the server to
    close the connection."""
    async with await trio.open_tcp_stream("127.0.0.1", port) as stream:
        await stream.send_all(request)
        data = bytearray()
        closed = False
        with trio.fail_after(5):
            while True:
                chunk = await stream.receive_some(1 << 16)
                if not chunk:
                    closed = True
                    break
                data += chunk
                top, sep, rest = bytes(data).partition(b"\r\n\r\n")
                size = _length(top)
                if sep and (head or (size is not None and len(rest) >= size)):
                    break
            if until_closed and not closed:
                closed = await stream.receive_some(1 << 16) == b""
        return _reply(bytes(data), closed)


def _length(top: bytes) -> int | None:
    for line in top.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return None


def _reply(data: bytes, closed: bool) -> Reply:
    top, _, body = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Reply(int(lines[0].split()[1]), headers, body, closed)


def get(path: str, *headers: str, method: str = "GET") -> bytes:
    extra = "".join(f"{h}\r\n" for h in headers)
    return f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode()


def assert_secure(reply: Reply) -> None:
    csp = reply.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "connect-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert reply.headers["x-content-type-options"] == "nosniff"
    assert reply.headers["referrer-policy"] == "no-referrer"


async def test_the_page_and_its_files_are_served_with_their_types_and_headers(page: Path) -> None:
    async with running_host(fake_engine()) as host, web_seat(host, page) as seat:
        assert seat.port is not None
        index = await exchange(seat.port, get("/"))
        assert (index.status, index.body) == (200, INDEX)
        assert index.headers["content-type"] == "text/html; charset=utf-8"
        assert index.headers["cache-control"] == "no-cache"
        assert_secure(index)
        for path, kind, body in [
            ("/app.mjs", "text/javascript; charset=utf-8", APP),
            ("/app.mjs?v=2", "text/javascript; charset=utf-8", APP),
            ("/cards/seven.svg", "image/svg+xml", None),
            ("/style.css", "text/css; charset=utf-8", None),
            ("/index.html", "text/html; charset=utf-8", INDEX),
        ]:
            reply = await exchange(seat.port, get(path))
            assert reply.status == 200 and reply.headers["content-type"] == kind, path
            assert body is None or reply.body == body
            assert_secure(reply)
        head = await exchange(seat.port, get("/", method="HEAD"), head=True)
        assert head.status == 200 and head.body == b"" and head.headers["content-length"] == str(len(INDEX))
        # A browser that has the file asks with its tag and gets 304 without the body.
        cached = await exchange(seat.port, get("/", f"If-None-Match: {index.headers['etag']}"), head=True)
        assert (cached.status, cached.body) == (304, b"")


async def test_a_game_s_rules_are_served_as_json_beside_any_page(page: Path) -> None:
    async with running_host(fake_engine()) as host, web_seat(host, page) as seat:
        assert seat.port is not None
        rules = await exchange(seat.port, get("/rules/cherki.json"))
        assert rules.status == 200 and rules.headers["content-type"] == "application/json"
        assert rules.body.startswith(b'{"game":"cherki","rules":[{"tag":"h1","children":["Cherki"]}')
        assert_secure(rules)
        finnish = await exchange(seat.port, get("/rules/fi/cherki.json"))
        assert finnish.status == 200 and finnish.body.startswith(b'{"game":"cherki","rules":[')
        assert finnish.body != rules.body
        assert_secure(finnish)
        for path in ("/rules/poker.json", "/rules/cherki.md", "/rules/", "/rules/de/cherki.json", "/rules/fi/x.json"):
            assert (await exchange(seat.port, get(path))).status == 404, path
        assert (await exchange(seat.port, get("/rules/../index.html"))).status == 400


async def test_the_page_s_words_are_served_per_language_from_the_catalogs(page: Path) -> None:
    async with running_host(fake_engine()) as host, web_seat(host, page) as seat:
        assert seat.port is not None
        words = await exchange(seat.port, get("/words/fi.json"))
        assert words.status == 200 and words.headers["content-type"] == "application/json"
        assert_secure(words)
        table = json.loads(words.body)
        # The Finnish catalog's own words (msgctxt "web"), a counted noun with Finnish's two forms.
        assert table["Join"] == "Liity" and table["Watch"] == "Katso"
        assert table["{n} card"] == ["{n} kortti", "{n} korttia"]
        assert json.loads((await exchange(seat.port, get("/words/id.json"))).body)["{n} card"] == ["{n} kartu"]
        for path in ("/words/de.json", "/words/fi.po", "/words/", "/words/fi"):
            assert (await exchange(seat.port, get(path))).status == 404, path
        assert (await exchange(seat.port, get("/words/../index.html"))).status == 400


async def test_a_connection_is_kept_alive_for_the_next_request(page: Path) -> None:
    async with running_host(fake_engine()) as host, web_seat(host, page) as seat:
        assert seat.port is not None
        async with await trio.open_tcp_stream("127.0.0.1", seat.port) as stream:
            await stream.send_all(get("/app.mjs") + get("/style.css"))
            data = b""
            with trio.fail_after(5):
                while data.count(b"HTTP/1.1 200") < 2 or not data.endswith(b"body{margin:0}"):
                    data += await stream.receive_some(1 << 16)


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (get("/missing.js"), 404),
        (get("/cards/"), 404),  # a folder: no listing
        (get("/cards"), 404),
        (get("/.hidden.js"), 404),
        (get("/notes.py"), 404),  # a type not served
        (get("/escape.txt"), 404),  # a link out of the page's folder
        (get("/../outside.txt"), 400),
        (get("/cards/../../outside.txt"), 400),
        (get("/%2e%2e/outside.txt"), 400),
        (get("/%2E%2E/outside.txt"), 400),
        (get("/cards%2f..%2f..%2foutside.txt"), 400),
        (get("/..%5coutside.txt"), 400),
        (get("/cards\\..\\..\\outside.txt"), 400),
        (get("/index.html%00.txt"), 400),
        (get("/%ff.js"), 400),
        (get("http://127.0.0.1/index.html"), 400),  # not a path
        (get("/", method="POST"), 405),
        (get("/", method="PUT"), 405),
        (get("/", method="DELETE"), 405),
        (get("/", method="OPTIONS"), 405),
        (get("/", method="BREW"), 405),
        (get("/", "Content-Length: 100000000"), 413),
        (get("/", "Transfer-Encoding: chunked"), 413),
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 20_000 + b"\r\n\r\n", 431),
        (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Many: y\r\n" * 2000 + b"\r\n", 431),
        (b"NOT A REQUEST\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", 400),
        (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", 505),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(64) + b"\r\n\r\n", 400),  # a TLS hello
        (get("/ws"), 426),  # the WebSocket's path without an upgrade
    ],
)
async def test_bad_requests_get_a_clear_refusal_and_the_table_plays_on(
    page: Path, request_bytes: bytes, status: int
) -> None:
    async with running_host(fake_engine()) as host, web_seat(host, page) as seat:
        assert seat.port is not None
        player = await RawClient.connect(host.port or 0)
        assert (await player.join("a"))["type"] == "welcome"
        reply = await exchange(seat.port, request_bytes, until_closed=True)
        assert reply.status == status and reply.closed
        assert reply.body.endswith(b"\n") and b"\n" not in reply.body[:-1] and len(reply.body) < 100
        assert reply.headers["content-type"] == "text/plain; charset=utf-8"
        assert_secure(reply)
        if status == 405:
            assert reply.headers["allow"] == "GET, HEAD"
        assert (await exchange(seat.port, get("/"))).status == 200
        await player.send({"type": "ping", "id": 3})
        assert (await player.recv_type("pong"))["id"] == 3


async def test_request_paths_are_checked_before_any_file_is_touched(tmp_path: Path) -> None:
    files = PageFiles(tmp_path)
    assert files.segments(b"/") == [] and files.segments(b"/a/b.js?x=../..") == ["a", "b.js"]
    assert files.segments(b"/caf%C3%A9.txt") == ["café.txt"]
    for bad in [b"/..", b"/a/./b", b"/%2e/x", b"/a\\b", b"/a%00", b"/%c3", b"*", b"/a%0a.js"]:
        with pytest.raises(BadPath):
            files.segments(bad)


async def test_a_client_that_trickles_its_request_is_dropped(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_http, "REQUEST_TIMEOUT", 0.3)
    async with running_host(fake_engine()) as host, web_seat(host, page) as seat:
        assert seat.port is not None
        async with await trio.open_tcp_stream("127.0.0.1", seat.port) as slow:
            await slow.send_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
            with trio.fail_after(3):
                assert await slow.receive_some(100) == b""
        assert (await exchange(seat.port, get("/"))).status == 200


async def test_http_connections_are_capped(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_server, "MAX_HTTP_CONNECTIONS", 2)
    async with running_host(fake_engine()) as host, web_seat(host, page) as seat:
        assert seat.port is not None
        idle = [await trio.open_tcp_stream("127.0.0.1", seat.port) for _ in range(2)]
        await trio.sleep(0.1)
        assert (await exchange(seat.port, get("/"))).status == 503
        for stream in idle:
            await stream.aclose()
        with trio.fail_after(3):
            while (await exchange(seat.port, get("/"))).status != 200:
                await trio.sleep(0.05)


async def test_the_web_port_is_in_the_table_message_while_the_seat_runs(page: Path) -> None:
    async with running_host(fake_engine()) as host:
        first = await RawClient.connect(host.port or 0)
        assert "web" not in ((await first.recv()) or {})
        async with web_seat(host, page) as seat:
            told = await RawClient.connect(host.port or 0)
            assert ((await told.recv()) or {})["web"] == seat.port
        after = await RawClient.connect(host.port or 0)
        assert "web" not in ((await after.recv()) or {})


@pytest.mark.parametrize(
    ("origin", "host_header", "status"),
    [
        ("http://evil.example", None, 403),  # another site open in the guest's browser
        ("null", None, 403),
        (None, "evil.example:80", 403),  # a name only DNS (rebinding) could lead here
        ("http://evil.example:80", "evil.example:80", 403),
    ],
)
async def test_a_websocket_from_another_page_is_refused(
    page: Path, origin: str | None, host_header: str | None, status: int
) -> None:
    async with running_host(fake_engine()) as host, web_seat(host, page) as seat:
        assert seat.port is not None
        with pytest.raises(ConnectionRefusedError) as refused:
            await WsClient.connect(seat.port, origin=origin, host=host_header)
        assert refused.value.args[0] == status
        own = f"http://127.0.0.1:{seat.port}"
        client = await WsClient.connect(seat.port, origin=own)
        assert ((await client.recv()) or {})["type"] == "table"
        for name in (f"localhost:{seat.port}", f"cardhost.local:{seat.port}", f"cardhost:{seat.port}", "[::1]:80"):
            other = await WsClient.connect(seat.port, origin=f"http://{name}", host=name)
            assert ((await other.recv()) or {})["type"] == "table"


async def test_a_websocket_upgrade_with_a_bad_key_or_version_is_refused(page: Path) -> None:
    async with running_host(fake_engine()) as host, web_seat(host, page) as seat:
        assert seat.port is not None
        upgrade = ("Connection: Upgrade", "Upgrade: websocket")
        key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="
        old = await exchange(seat.port, get("/ws", *upgrade, key, "Sec-WebSocket-Version: 8"))
        assert old.status == 426 and old.headers["sec-websocket-version"] == "13"
        bad_key = await exchange(
            seat.port, get("/ws", *upgrade, "Sec-WebSocket-Key: short", "Sec-WebSocket-Version: 13")
        )
        assert bad_key.status == 400
        ok = await exchange(seat.port, get("/ws", *upgrade, key, "Sec-WebSocket-Version: 13"), head=True)
        assert ok.status == 101 and ok.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
