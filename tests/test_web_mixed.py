"""A mixed table: one Cherki game played by a guest in the browser (taps at 360 x 640), a player in a terminal
(``cardnet join`` in line mode, a real child process typing the moves it is offered) and a built-in player, with
chat both ways, a second browser watching, and a rematch asked for from the browser and from the terminal.

The table is served in this process on 127.0.0.1 without discovery (as the other browser tests do); the
terminal's client gets no ``--interface``, so under CARDNET_TEST it never looks for its table over mDNS. Every
wait is bounded.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
import time
from pathlib import Path

from playwright.sync_api import Browser, Page

from browserseat import PHONE, PageWatch, cherki_turn, served_table
from discohelpers import cardnet
from nethelpers import child_env
from test_web_browser import browser, join, outcome_of, phone  # noqa: F401  (fixtures shared with the other browser tests)

#: A numbered move as line mode lists it: "     2. take   (1 Coins from Bot 2 · heuristic)".
LISTED_MOVE = re.compile(r"^\s+(\d+)\.\s+(.+?)(?:\s{2,}\(.*\))?$")
#: Where the client's answer to a typed line starts: a line of its own, or (nothing echoes the Enter on a pipe)
#: right after the prompt.
ANSWER = r"(?:^|(?<=> ))"
#: How long the whole game may take (it takes a few seconds; this only bounds a hang).
GAME_TIMEOUT = 180.0


class Terminal:
    """``cardnet join`` in line mode with its input and output on pipes: its output is read in a thread as it
    comes (a prompt ends without a newline), and lines are typed on its input as a player would."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        self._out = b""
        self._err = b""
        self._changed = threading.Condition()
        #: How much output there was when the client last reacted to a line typed (no prompt before it counts).
        self.answered = 0
        threading.Thread(target=self._pump, name="terminal-out", daemon=True).start()
        threading.Thread(target=self._pump_err, name="terminal-err", daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while chunk := os.read(fd, 65536):
            with self._changed:
                self._out += chunk
                self._changed.notify_all()

    def _pump_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._err += line

    @property
    def text(self) -> str:
        """Everything printed so far."""
        with self._changed:
            return self._out.decode("utf-8", "replace")

    def wait_for(self, pattern: str, since: int = 0, timeout: float = 10.0) -> re.Match[str]:
        """The first match of ``pattern`` in the output after character ``since``, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = re.compile(pattern, re.M).search(self._out.decode("utf-8", "replace"), since)
                if found:
                    return found
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    tail = self._out.decode("utf-8", "replace")[-1500:]
                    raise AssertionError(
                        f"the terminal did not print {pattern!r}; its last output:\n{tail}\n{self._err!r}"
                    )
                self._changed.wait(min(left, 0.5))

    def prompting(self) -> bool:
        """Whether the client shows a prompt drawn after its reaction to the last line typed."""
        text = self.text
        return len(text) > self.answered and text.endswith("> ")

    def type(self, line: str, reaction: str) -> re.Match[str]:
        """Types ``line`` and Enter, and waits for the client's ``reaction`` (a pattern) to it."""
        since = len(self.text)
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        found = self.wait_for(reaction, since)
        self.answered = found.end()
        return found

    def offered(self) -> list[str]:
        """The moves of the last list the client printed, as typed."""
        text = self.text
        listing = text[text.rindex("Your moves (") :].splitlines()[1:]
        return [found.group(2) for found in map(LISTED_MOVE.match, listing) if found]

    def play(self) -> str:
        """Types one move the client offers (a call when there is one, else the first listed); returns it."""
        moves = self.offered()
        assert moves, self.text[-1500:]
        move = next((m for m in moves if m.startswith("call")), moves[0])
        reaction = self.type(move, ANSWER + "(You: |Refused: |Not understood)")
        assert reaction.group(1) == "You: ", self.text[-800:]
        return move

    def stop(self) -> None:
        """Ends its input (the client leaves the table) and reaps it, killing it if it hangs."""
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(10)


def seats_panel(page: Page) -> tuple[str, list[tuple[str, str]]]:
    """The seats panel opened: its title, and each seat's name and state."""
    box = page.locator("#seats-box")
    if box.get_attribute("open") is None:
        page.click("#seats-title")
    rows = page.locator("#seats li")
    panel = [
        (rows.nth(i).locator(".who").inner_text(), rows.nth(i).locator(".seat-state").inner_text())
        for i in range(rows.count())
    ]
    return page.locator("#seats-title").inner_text(), panel


def play_the_game(page: Page, terminal: Terminal) -> tuple[int, int]:
    """Plays the browser's seat by taps and the terminal's by typed moves, whichever is asked, until both show
    the end; the terminal's first turn also chats. Returns the taps and the moves typed."""
    taps = typed = 0
    chatted = False
    deadline = time.monotonic() + GAME_TIMEOUT
    while not (page.locator("#outcome:not([hidden])").count() and "Game over" in terminal.text):
        assert time.monotonic() < deadline, f"the game did not end within {GAME_TIMEOUT} s"
        if "Game over" not in terminal.text and terminal.prompting():
            if not chatted:
                terminal.type("say hello from the terminal", r"^<Tom> hello from the terminal$")
                chatted = True
                continue
            terminal.play()
            typed += 1
        elif page.locator("#turn.your-turn").count():
            assert cherki_turn(page)
            taps += 1
        else:
            time.sleep(0.02)
    return taps, typed


def test_a_browser_a_terminal_and_a_builtin_player_share_a_cherki_table(
    browser: Browser,  # noqa: F811
    phone: tuple[Page, PageWatch],  # noqa: F811
    tmp_path: Path,
) -> None:
    page, watch = phone
    with served_table("cherki", 3, {2: "heuristic"}, seed=11, table_id="mixedtable") as table:
        join(page, table, "Ann")
        title, panel = seats_panel(page)
        assert panel == [
            ("0. Ann", "you"),
            ("1. Seat 1", "open, waiting for a player"),
            ("2. Bot 2 · heuristic", "built-in player"),
        ]
        assert title == "Seats · nobody watching"
        viewer = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        viewer.goto(table.url)
        viewer.fill("#name", "Bea")
        viewer.click("#watch-btn")
        viewer.locator("#table:not([hidden])").wait_for(timeout=10_000)
        page.locator("#seats-title", has_text="1 watching").wait_for(timeout=10_000)
        terminal = Terminal(
            cardnet("join", f"127.0.0.1:{table.tcp_port}", "--name", "Tom"),
            child_env() | {"XDG_STATE_HOME": str(tmp_path)},
        )
        try:
            terminal.wait_for(r"^Joined 'web cherki' \(cherki\), seat 1\.$")
            terminal.wait_for(r"^Seats: 0: Ann, 1: you, 2: Bot 2 · heuristic; 1 watching$")
            page.locator("#board .players").wait_for(timeout=10_000)
            # Each seat by name, whether its person is here, which one a built-in player holds, how many watch.
            expected = [("0. Ann", "you"), ("1. Tom", "connected"), ("2. Bot 2 · heuristic", "built-in player")]
            page.locator("#seats li", has_text="Tom").wait_for(timeout=10_000)
            assert seats_panel(page) == ("Seats · 1 watching", expected)
            assert seats_panel(viewer) == ("Seats · 1 watching", [("0. Ann", "connected"), *expected[1:]])
            # Chat from the browser is printed by the terminal.
            page.click("#chat-title")
            page.fill("#chat-text", "hi from the browser")
            page.click("#chat-send")
            terminal.wait_for(r"^<Ann> hi from the browser$")
            taps, typed = play_the_game(page, terminal)
            # ... and the terminal's line (typed at its first turn) is in the browser's chat panel.
            said = page.locator("#chat li", has_text="hello from the terminal")
            assert said.locator(".who").inner_text() == "Tom"
            assert page.locator("#chat li .text").all_inner_texts() == [
                "hi from the browser",
                "hello from the terminal",
            ]
            assert taps > 5 and typed > 3
            outcome = outcome_of(table)
            # The terminal, the player's page and the watcher's page tell the same outcome.
            names = ["Ann", "Tom", "Bot 2 · heuristic"]
            viewer.locator("#outcome:not([hidden])").wait_for(timeout=10_000)
            watched = viewer.locator("#outcome .standings li").all_inner_texts()
            played = page.locator("#outcome .standings li").all_inner_texts()
            assert [line.replace("Ann", "You") for line in watched] == played
            for line, seat in zip(watched, outcome.order):
                assert f"{names[seat]}: " in line and line.endswith("– winner") == (seat in outcome.winners), line
            terminal.wait_for(r"^Game over \(settlement\)\.$")
            for rank, seat in enumerate(outcome.order, 1):
                shown = re.escape("You" if seat == 1 else names[seat])
                score = re.escape(f"{outcome.scores[seat]:+d}") if outcome.scores[seat] else r"\+?0"
                winner = " - winner" if seat in outcome.winners else ""
                terminal.wait_for(rf"^  {rank}\. {shown}: {score} points{winner}$")

            # The rematch: asked from the browser first; everyone is told who asked and whom it waits for.
            page.click("#rematch-btn")
            page.locator(".rematch-votes").wait_for(timeout=10_000)
            assert page.locator(".rematch-votes").inner_text() == "Rematch asked by You; waiting for Tom."
            assert page.locator("#rematch-btn").count() == 0
            viewer.locator(".rematch-votes", has_text="Rematch asked by Ann; waiting for Tom.").wait_for(timeout=10_000)
            terminal.wait_for(r"^Rematch asked by Ann; waiting for You\.\nrematch or quit> ")
            assert table.call(lambda: table.host.table.game_no) == 0
            # ... then from the terminal: the new game starts for all.
            terminal.type("rematch", ANSWER + "Rematch asked; it starts when every seat has asked")
            terminal.wait_for(r"^A new game begins \(game 2\), with the same seats\.$")
            page.locator("#outcome").wait_for(state="hidden", timeout=10_000)
            viewer.locator("#outcome").wait_for(state="hidden", timeout=10_000)
            assert "A new game begins." in page.locator("#log li").all_inner_texts()
            assert table.call(lambda: table.host.table.game_no) == 1
            assert seats_panel(page) == ("Seats · 1 watching", expected)
            # The terminal's player leaves (end of input: a `bye`): a built-in player takes the seat at once.
            terminal.stop()
            assert terminal.proc.returncode == 0
            page.locator("#seats li", has_text="gone; a built-in player plays for them").wait_for(timeout=10_000)
            assert seats_panel(page)[1][1] == ("1. Tom", "gone; a built-in player plays for them")
            assert watch.errors == [] and watch.dialogs == []
        finally:
            terminal.stop()
            viewer.context.close()
