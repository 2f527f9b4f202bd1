"""`cardnet host` and its web seat, as child processes on the real core: the port (`--web-port`, the table's port
+ 1 by default, `--no-web`), the address and QR code in the banner, and the port in the `table` message."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from nethelpers import NET_COMMAND, RawClient, child_env, free_port
from webhelpers import WsClient

from test_net_cli import run


def start(tmp_path: Path, *extra: str, journal: str = "t.journal") -> tuple[subprocess.Popen[str], list[str]]:
    """A headless Fistful host on loopback; the lines it printed up to its journal's."""
    host = subprocess.Popen(
        [sys.executable, "-c", NET_COMMAND, "host", "fistful", "--interface", "127.0.0.1", "--headless"]
        + ["--no-advertise", "--journal", str(tmp_path / journal), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=child_env(),
    )
    assert host.stdout is not None
    banner: list[str] = []
    for line in host.stdout:
        banner.append(line.rstrip("\n"))
        if line.startswith("journal:"):
            return host, banner
    raise AssertionError(f"the host stopped: {banner}")


def free_pair() -> int:
    """A loopback port that was free a moment ago, and the one after it too (bounded tries)."""
    for _ in range(50):
        port = free_port()
        with socket.socket() as after:
            try:
                after.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        return port
    raise AssertionError("no two free ports in a row")


def stop(host: subprocess.Popen[str]) -> None:
    host.terminate()
    host.wait(10)


async def table_message(port: int) -> dict[str, object]:
    client = await RawClient.connect(port)
    message = await client.recv()
    assert message is not None and message["type"] == "table"
    await client.aclose()
    return message


async def browser_joins(web_port: int) -> int:
    client = await WsClient.connect(web_port, origin=f"http://127.0.0.1:{web_port}")
    welcome = await client.join("phone")
    await client.aclose()
    seat = welcome["seat"]
    assert isinstance(seat, int)
    return seat


def test_the_banner_shows_the_web_seat_and_its_qr_code_and_a_browser_sits_down(tmp_path: Path) -> None:
    port, web_port = free_port(), free_port()
    host, banner = start(tmp_path, "--port", str(port), "--web-port", str(web_port))
    try:
        url = f"http://127.0.0.1:{web_port}/"
        at = banner.index(f"guests without cardnet: open {url} in a browser, or scan:")
        code = banner[at + 1 : banner.index(f"journal: {tmp_path / 't.journal'}")]
        assert 11 <= len(code) <= 15 and len({len(line) for line in code}) == 1
        assert all(set(line) <= set(" ▀▄█") for line in code)
        assert trio.run(table_message, port)["web"] == web_port
        assert trio.run(browser_joins, web_port) == 0
    finally:
        stop(host)


def test_the_web_port_is_the_tables_port_plus_one_or_off(tmp_path: Path) -> None:
    port = free_pair()
    host, banner = start(tmp_path, "--port", str(port))
    try:
        assert any(f"http://127.0.0.1:{port + 1}/" in line for line in banner)
        assert trio.run(table_message, port)["web"] == port + 1
    finally:
        stop(host)
    host, banner = start(tmp_path, "--port", str(port), "--no-web", journal="off.journal")
    try:
        assert not any("http://" in line for line in banner)
        assert "web" not in trio.run(table_message, port)
    finally:
        stop(host)


def test_a_web_port_that_is_taken_or_not_a_port_is_refused(tmp_path: Path) -> None:
    env = child_env()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        done = run(["host", "fistful", "--interface", "127.0.0.1", "--headless", "--web-port", str(busy)], env)
    assert done.returncode == 1 and "cannot serve the web seat" in done.stderr
    for args in (["--web-port", "70000"], ["--web-port", "0"], ["--web-port", "8081", "--no-web"]):
        done = run(["host", "fistful", "--interface", "127.0.0.1", "--headless", *args], env)
        assert done.returncode == 2 and "cardnet host: " in done.stderr, (args, done.stderr)


def test_the_hosts_lines_wrap_at_words_in_a_longer_language(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardnet import i18n
    from cardnet.commands.net import fitted, web_seat_banner

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("COLUMNS", "80")
    i18n.set_language("es")
    try:
        sentence = web_seat_banner("192.168.100.200", 17778)[0]
    finally:
        i18n.set_language("en")
    words = fitted(sentence, Terminal())
    # Two lines that each fit, the address whole on one of them, and the colon still after "escaneen".
    assert len(words) == 2 and all(len(line) <= 80 for line in words), words
    assert any("http://192.168.100.200:17778/" in line.split() for line in words)
    assert words[-1].endswith("escaneen:")
    # Into a pipe or a file (a script reading the banner), each line stays whole.
    assert fitted(sentence, io.StringIO()) == [sentence]
