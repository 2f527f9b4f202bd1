"""The web seat's link to its host in a real browser (Debian's Chromium under Playwright, a 360 x 640 page): a host
SIGKILLed mid-game and started again with ``--resume`` gets its browser seat back without a reload, on the same
web port; a lost connection says which attempt comes when, with a keyboard-reachable button to try at once; a
silent host is said to be not answering; and a host that closes its table on purpose is told apart from a lost
one: the page says so and stops.

Every connection is to 127.0.0.1 and every wait is bounded."""

from __future__ import annotations

import re
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import trio
from playwright.sync_api import Page, WebSocket

from cardnet.protocol.host import HostOptions

from browserseat import PageWatch, play_to_the_end, served_table, take_turn
from discohelpers import Lines, cardnet
from test_web_a11y import assert_axe_clean_in_both_schemes, assert_focus_ring
from test_web_browser import browser, join, phone  # noqa: F401  (fixtures shared with the other browser tests)

RECONNECTING = re.compile(r"Connection lost; reconnecting \(attempt (\d+)\)…")
SILENT = re.compile(r"The host is not answering; reconnecting \(attempt (\d+)\)…")


def _host(tmp_path: Path, *args: str) -> Lines:
    """``cardnet host`` headless on loopback; its seat timeout outlasts the restart, so no built-in player takes
    the browser's seat meanwhile."""
    return Lines(
        cardnet("host", *args, "--interface", "127.0.0.1", "--no-advertise", "--headless", "--seat-timeout", "120"),
        extra_env={"XDG_STATE_HOME": str(tmp_path)},
    )


def _web_port(host: Lines) -> int:
    _, line = host.wait_line(lambda text: text.startswith("guests without cardnet: open "), 30)
    return int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])


def _only_failed_sockets(watch: PageWatch, port: int) -> list[str]:
    """The page's errors other than the browser's own report of each reconnect attempt the host refused."""
    refused = f"console: WebSocket connection to 'ws://127.0.0.1:{port}/ws' failed"
    return [error for error in watch.errors if not error.startswith(refused)]


def _table_text(page: Page) -> tuple[str, str, list[str]]:
    """What the table screen shows of the game: the board, the hand and the event log."""
    return (
        page.locator("#board").inner_text(),
        page.locator("#hand").inner_text(),
        page.locator("#log li").all_inner_texts(),
    )


def test_a_killed_and_resumed_host_gets_its_browser_seat_back_without_a_reload(
    tmp_path: Path,
    phone: tuple[Page, PageWatch],  # noqa: F811
) -> None:
    page, watch = phone
    journal = tmp_path / "t.journal"
    first = _host(tmp_path, "fistful", "--bots", "1", "--journal", str(journal))
    try:
        web = _web_port(first)
        page.goto(f"http://127.0.0.1:{web}/")
        page.fill("#name", "Ann")
        page.click("#join-btn")
        page.locator("#table:not([hidden])").wait_for(timeout=10_000)
        for _ in range(3):
            assert take_turn(page)
        page.locator("#turn.your-turn").wait_for(timeout=10_000)
        before = _table_text(page)
        # Proof that the page is never loaded again: a mark on this document, and no navigation from now on.
        page.evaluate("() => { window.cardnetMark = 'still here'; }")
        navigations: list[str] = []
        page.on("framenavigated", lambda frame: navigations.append(frame.url))
        first.proc.send_signal(signal.SIGKILL)
        first.proc.wait(10)
    finally:
        first.stop()
    # The socket ends without a word from the host: a lost connection, retried, with a button to try at once.
    page.locator("#link", has_text=RECONNECTING).wait_for(timeout=10_000)
    assert page.locator("#retry").is_visible()
    assert page.get_by_role("button", name="Try now").is_visible()
    assert page.locator("#notice").inner_text() != "The host closed the table."
    again = _host(tmp_path, "--resume", str(journal))
    try:
        # The resumed host serves its web seat where the page can find it: the port it had.
        assert _web_port(again) == web
        page.locator("#notice", has_text="Reconnected to the table.").wait_for(timeout=20_000)
        assert page.locator("#link").inner_text() == "Connected" and page.locator("#retry").is_hidden()
        assert "You sit at seat 0" in page.locator("#table-head").inner_text()
        page.locator("#turn.your-turn").wait_for(timeout=10_000)
        # The same game at the same point: the board, the hand and every line of the log as before the kill.
        assert _table_text(page) == before
        play_to_the_end(page, max_taps=300)
        assert page.evaluate("() => window.cardnetMark") == "still here"
        assert navigations == []
        assert _only_failed_sockets(watch, web) == [] and watch.dialogs == []
    finally:
        again.stop()


class Switchboard:
    """A TCP relay on 127.0.0.1 between the browser and the web seat that can be cut: then it ends every relayed
    connection at once (as a phone leaving the Wi-Fi would see it) and hangs up each new one, counting them; or
    frozen: then nothing gets through either way and new connections are taken and left unanswered (as a host
    that hangs, whose kernel still accepts connections)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port = int(self.server.getsockname()[1])
        self.open = True
        self.frozen = False
        self.refused: list[float] = []
        self.relayed: list[socket.socket] = []
        self.lock = threading.Lock()
        self.running = True
        self.thread = threading.Thread(target=self._accept, name="switchboard", daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self.lock:
                if not self.open:
                    self.refused.append(time.monotonic())
                    client.close()
                    continue
                if self.frozen:
                    self.relayed.append(client)
                    continue
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=10)
                self.relayed += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                if not self.frozen:
                    sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def freeze(self) -> None:
        """Let nothing through, and answer no new connection."""
        with self.lock:
            self.frozen = True

    def cut(self) -> None:
        """End every relayed connection and refuse new ones."""
        with self.lock:
            self.open = False
            self.frozen = False
            for end in self.relayed:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self.relayed = []

    def mend(self) -> None:
        """Relay new connections again."""
        with self.lock:
            self.open = True

    def close(self) -> None:
        self.running = False
        self.cut()
        self.thread.join(timeout=5)
        self.server.close()


@contextmanager
def switchboard(target: int) -> Iterator[Switchboard]:
    board = Switchboard(target)
    try:
        yield board
    finally:
        board.close()


def test_a_lost_connection_says_when_it_tries_again_and_can_try_at_once(phone: tuple[Page, PageWatch]) -> None:  # noqa: F811
    page, watch = phone
    with (
        served_table("fistful", 2, {1: "heuristic"}, table_id="retrytest") as table,
        switchboard(table.web_port) as board,
    ):
        page.goto(f"http://127.0.0.1:{board.port}/")
        page.fill("#name", "Ann")
        page.click("#join-btn")
        page.locator("#table:not([hidden])").wait_for(timeout=10_000)
        assert take_turn(page)
        page.locator("#turn.your-turn").wait_for(timeout=10_000)
        board.cut()
        page.locator("#link", has_text=RECONNECTING).wait_for(timeout=10_000)
        # Backing off: each failed attempt waits longer (capped at 5 s), and the page counts down to the next.
        when = page.locator("#retry-when", has_text=re.compile(r"^Next try in [45] s\.$"))
        when.wait_for(timeout=30_000)
        match = RECONNECTING.fullmatch(page.locator("#link").inner_text())
        assert match is not None and int(match.group(1)) >= 5
        # The button is reached with the keyboard alone (the first control after the title) and named for a screen
        # reader; Enter tries at once, seconds before the back-off would have.
        page.click("#title")
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.id") == "retry-btn"
        assert_focus_ring(page)
        assert page.get_by_role("button", name="Try now").get_attribute("aria-describedby") == "link retry-when"
        tries = len(board.refused)
        pressed = time.monotonic()
        page.keyboard.press("Enter")
        deadline = pressed + 5
        while len(board.refused) == tries and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(board.refused) > tries and board.refused[tries] - pressed < 1.5
        # axe-core finds nothing on the page while it reconnects, in either colour scheme.
        assert_axe_clean_in_both_schemes(page)
        # The link comes back by itself, to the same seat, and play goes on.
        board.mend()
        page.locator("#notice", has_text="Reconnected to the table.").wait_for(timeout=10_000)
        assert page.locator("#link").inner_text() == "Connected" and page.locator("#retry").is_hidden()
        assert take_turn(page)
        seat = table.call(lambda: table.host.table.seats[0])
        assert (seat.name, seat.connected, seat.auto) == ("Ann", True, False)
        assert _only_failed_sockets(watch, board.port) == [] and watch.dialogs == []


def test_a_host_that_closes_its_table_is_told_apart_and_the_page_stops(phone: tuple[Page, PageWatch]) -> None:  # noqa: F811
    page, watch = phone
    sockets: list[WebSocket] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    with served_table("fistful", 2, {1: "heuristic"}, table_id="closetest") as table:
        join(page, table, "Ann")
        assert take_turn(page)
        page.locator("#turn.your-turn").wait_for(timeout=10_000)
        opened = len(sockets)
        # The host stops on purpose (as `cardnet host` on SIGTERM, or a seated host leaving): `shutting_down`.
        trio.from_thread.run(table.host.shutdown, trio_token=table.token)
        page.locator("#link", has_text="The host closed the table.").wait_for(timeout=10_000)
        notice = page.locator("#notice").inner_text()
        assert notice.startswith("The host closed the table: the game stops here.") and "reload this page" in notice
        # It stops: no retry line, no button, no move on offer, and no attempt to reconnect while the host still
        # listens (a lost connection would have been tried again within a quarter of a second).
        assert page.locator("#retry").is_hidden() and page.get_by_role("button", name="Try now").count() == 0
        assert page.locator("#turn").inner_text() == "" and page.locator("#turn.your-turn").count() == 0
        assert page.locator("#actions button.offer").count() == 0
        assert page.locator(".hand .card-button:not([disabled])").count() == 0
        assert_axe_clean_in_both_schemes(page)
        time.sleep(1.5)
        assert len(sockets) == opened
        assert watch.errors == [] and watch.dialogs == []


def test_a_silent_host_is_said_to_be_not_answering_until_it_answers(phone: tuple[Page, PageWatch]) -> None:  # noqa: F811
    page, watch = phone
    # Pings every 0.3 s: the page gives up on a host silent for three of them (PROTOCOL.md section 9).
    quick = HostOptions(keepalive_interval=0.3)
    with (
        served_table("fistful", 2, {1: "heuristic"}, table_id="silenttest", options=quick) as table,
        switchboard(table.web_port) as board,
    ):
        page.goto(f"http://127.0.0.1:{board.port}/")
        page.fill("#name", "Ann")
        page.click("#join-btn")
        page.locator("#turn.your-turn").wait_for(timeout=10_000)
        board.freeze()
        page.locator("#link", has_text=SILENT).wait_for(timeout=10_000)
        assert page.get_by_role("button", name="Try now").is_visible()
        # Its next attempt is taken and never answered ("Trying now"); once the connection is refused outright,
        # the page still says what it knows: the host has not answered since, on a later attempt.
        page.locator("#retry-when", has_text="Trying now…").wait_for(timeout=10_000)
        board.cut()
        page.locator("#link", has_text=re.compile(r"reconnecting \(attempt [2-9]\)")).wait_for(timeout=10_000)
        assert SILENT.fullmatch(page.locator("#link").inner_text())
        board.mend()
        page.locator("#notice", has_text="Reconnected to the table.").wait_for(timeout=10_000)
        assert page.locator("#link").inner_text() == "Connected" and page.locator("#retry").is_hidden()
        assert take_turn(page)
        assert _only_failed_sockets(watch, board.port) == [] and watch.dialogs == []
