"""The web seat in a real browser (Debian's Chromium under Playwright), on a 360 x 640 phone screen: whole games
played by taps against built-in players, a reload that takes the seat back, and a hostile name that stays text.

Playwright rather than Selenium: it drives the system Chromium without a separate driver process, waits for
elements by itself (no sleeps), and reports dialogs, console errors and uncaught exceptions as events, which is
what the injection test listens for. Every wait is bounded; every connection is to 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from cardnet import segments
from cardnet.protocol.host import HostOptions
from cardnet.ui.render.matchstick import card_label

from browserseat import (
    PHONE,
    LinePeer,
    PageWatch,
    ServedTable,
    cherki_turn,
    chromium_or_skip,
    play_to_the_end,
    served_table,
    take_turn,
)

HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = chromium_or_skip()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[tuple[Page, PageWatch]]:
    """A fresh phone-sized page (its own storage) and what it reports; its browser prefers English, the language
    the page then starts in whatever the machine's locale."""
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    watch = PageWatch()
    watch.attach(page)
    yield page, watch
    context.close()


def join(page: Page, table: ServedTable, name: str) -> None:
    """Open the table's page, type a name and tap Join."""
    page.goto(table.url)
    page.fill("#name", name)
    page.click("#join-btn")
    page.locator("#table:not([hidden])").wait_for(timeout=10_000)


def outcome_of(table: ServedTable) -> Any:
    """The finished game's outcome, read from the host."""
    outcome = table.call(lambda: table.host.table.game.outcome())
    assert outcome is not None, "the host's game is not over"
    return outcome


def test_a_whole_fistful_match_by_taps(browser: Browser, phone: tuple[Page, PageWatch]) -> None:
    page, watch = phone
    # A turn timer far longer than the match: the page counts it down, the built-in player never steps in.
    with served_table("fistful", 2, {1: "heuristic"}, turn_timer=600) as table:
        # A second guest only watches: the duel without a hand and without moves, to the same outcome.
        viewer = browser.new_context(viewport=PHONE).new_page()
        viewer.goto(table.url)
        viewer.fill("#name", "Bea")
        viewer.click("#watch-btn")
        viewer.locator("#table:not([hidden])").wait_for(timeout=10_000)
        assert "You are watching" in viewer.locator("#table-head").inner_text()
        join(page, table, "Ann")
        assert page.locator("#table-head").inner_text().count("You sit at seat 0")
        page.locator("#turn.your-turn").wait_for(timeout=10_000)
        assert re.fullmatch(r"Your turn: (59\d|600) s left\.", page.locator("#turn").inner_text())
        taps = play_to_the_end(page, max_taps=300)
        outcome = outcome_of(table)
        # Checked while the table runs: once it stops, the page's reconnect attempts are logged as errors.
        assert watch.errors == [] and watch.dialogs == []
        viewer.locator("#outcome:not([hidden])").wait_for(timeout=10_000)
        assert viewer.locator(".hand .card-button").count() == 0 and viewer.locator("#rematch-btn").count() == 0
        watched = viewer.locator("#outcome .standings li").all_inner_texts()
        assert [line.replace("Ann", "You", 1) for line in watched] == page.locator(
            "#outcome .standings li"
        ).all_inner_texts()
        viewer.context.close()
    labels = {0: "You", 1: "Bot 1 · heuristic"}
    standings = page.locator("#outcome .standings li").all_inner_texts()
    assert [line.split(" (")[0] for line in standings] == [f"{i + 1}. {labels[s]}" for i, s in enumerate(outcome.order)]
    for line, seat in zip(standings, outcome.order):
        assert line.endswith("– winner") == (seat in outcome.winners)
        assert f"{outcome.scores[seat]} star" in line
    log = page.locator("#log li").all_inner_texts()
    assert any(line.startswith("Duel 1: ") for line in log), log[:5]
    assert any("sheriff star" in line or "no star" in line for line in log)
    assert taps > 10


def test_a_whole_four_player_matchstick_game_by_taps(phone: tuple[Page, PageWatch]) -> None:
    page, watch = phone
    with served_table("matchstick", 4, {1: "heuristic", 2: "heuristic", 3: "heuristic"}) as table:
        join(page, table, "Ann")
        # The hand is drawn as seven-segment cards: one SVG per card, seven segments each.
        first_card = page.locator(".hand .card-button svg").first
        assert first_card.locator("line.seg").count() == 7
        # Every target a thumb taps is at least 44 x 44 CSS pixels, with a card chosen and moves offered.
        page.locator("#turn.your-turn").wait_for(timeout=10_000)
        playable = page.locator(".hand .card-button:not([disabled])")
        if playable.count():
            playable.first.click()
        targets = page.locator("button:visible, summary:visible, input:visible")
        sizes = [box for box in (targets.nth(i).bounding_box() for i in range(targets.count())) if box]
        assert len(sizes) > 10
        assert [box for box in sizes if box["width"] < 44 or box["height"] < 44] == []
        # Cards on the table read as in the hand (3/E, 6/9, with ~ when turned), never as the printed type 69.
        captions: set[str] = set()
        for _ in range(600):
            captions.update(page.locator(".trick-cards .card-caption").all_text_contents())
            if not take_turn(page):
                break
        labels = {card_label(card) for card in segments.card_types(expansion=True)}
        assert captions and {caption.removeprefix("~") for caption in captions} <= labels, captions
        assert any("/" in caption for caption in captions), captions
        outcome = outcome_of(table)
        assert watch.errors == [] and watch.dialogs == []
    ordinals = ["1st", "2nd", "3rd", "4th"]
    names = ["You", "Bot 1 · heuristic", "Bot 2 · heuristic", "Bot 3 · heuristic"]
    standings = page.locator("#outcome .standings li").all_inner_texts()
    expected = [
        f"{ordinals[i]}. {names[s]}" + (" – winner" if s in outcome.winners else "")
        for i, s in enumerate(outcome.order)
    ]
    assert standings == expected
    log = page.locator("#log li").all_inner_texts()
    assert any(" plays 1 × " in line or "You play " in line for line in log)


def test_reloading_the_page_takes_the_seat_back(phone: tuple[Page, PageWatch]) -> None:
    page, watch = phone
    # Decisions of more than 200 bytes of moves come without their list (PROTOCOL.md section 4): the page fetches
    # them in pages, so this match also plays through that path (the setup discard's 36 ways, most picks).
    paged = HostOptions(legal_inline_limit=200)
    sent: list[str] = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda payload: sent.append(str(payload))))
    with served_table("fistful", 2, {1: "heuristic"}, table_id="reloadtest", options=paged) as table:
        join(page, table, "Ann")
        for _ in range(3):
            assert take_turn(page)
        kept = page.evaluate("() => window.localStorage.getItem('cardnet.seat.reloadtest')")
        assert kept is not None and '"seat":0' in kept
        page.reload()
        # No form this time: the kept token greets the host, and the same seat's table comes back.
        page.locator("#table:not([hidden])").wait_for(timeout=10_000)
        assert page.locator("#join").is_hidden()
        assert "You sit at seat 0" in page.locator("#table-head").inner_text()
        seat = table.call(lambda: table.host.table.seats[0])
        assert (seat.kind, seat.name, seat.connected, seat.auto) == ("human", "Ann", True, False)
        # The seat plays on from where it was, to the end of the match.
        play_to_the_end(page, max_taps=300)
        assert outcome_of(table) is not None
        assert any('"type":"legal"' in frame for frame in sent)
        assert watch.errors == [] and watch.dialogs == []


def test_a_hostile_name_and_chat_show_as_text(phone: tuple[Page, PageWatch]) -> None:
    page, watch = phone
    with served_table("matchstick", 3, {2: "heuristic"}) as table:
        peer = LinePeer(table.tcp_port)
        try:
            peer.send({"capabilities": ["chat"], "name": HOSTILE, "protocol": 1, "role": "player", "type": "hello"})
            assert peer.expect("welcome")["seat"] == 0
            peer.send({"text": HOSTILE, "type": "chat"})
            peer.expect("chat")
            page.goto(table.url)
            page.locator("#join-seats li").first.wait_for(timeout=10_000)
            assert page.locator("#join-seats li .who").first.text_content() == HOSTILE
            page.fill("#name", "Ann")
            page.click("#join-btn")
            page.locator("#board .players").wait_for(timeout=10_000)
            assert HOSTILE in page.locator("#board .players li .who").all_text_contents()
            # The chat line sent before the page came is in its history; a live one arrives too.
            page.click("#chat-title")
            live = "<script>alert(2)</script>"
            peer.send({"text": live, "type": "chat"})
            page.locator("#chat li .text", has_text=live).wait_for(timeout=10_000)
            assert page.locator("#chat li .text").all_text_contents() == [HOSTILE, live]
            assert page.locator("#chat li .who").first.text_content() == HOSTILE
            # Nothing the peer wrote became markup: no image, no second script, no dialog, no error.
            assert page.locator("img").count() == 0
            assert page.locator("script").count() == 1
            assert watch.dialogs == []
            assert watch.errors == []
        finally:
            peer.close()


def test_a_dropped_connection_comes_back_to_the_same_seat(phone: tuple[Page, PageWatch]) -> None:
    page, watch = phone
    with served_table("fistful", 2, {1: "heuristic"}, table_id="droptest") as table:
        join(page, table, "Ann")
        for _ in range(2):
            assert take_turn(page)

        def seat_zero_connections() -> list[int]:
            return [conn.id for conn in table.host.conns.values() if conn.seat == 0]

        def drop() -> None:
            # The host loses the browser's connection abruptly (no close frame), as a phone leaving the Wi-Fi.
            for conn in table.host.conns.values():
                if conn.seat == 0 and conn.scope is not None:
                    conn.scope.cancel()

        (before,) = table.call(seat_zero_connections)
        table.call(drop)
        for _ in range(100):
            now = table.call(seat_zero_connections)
            if now and now != [before]:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the page did not come back within 10 s")
        page.locator("#notice", has_text="Reconnected to the table.").wait_for(timeout=10_000)
        assert "You sit at seat 0" in page.locator("#table-head").inner_text()
        play_to_the_end(page, max_taps=300)
        seat = table.call(lambda: table.host.table.seats[0])
        assert (seat.kind, seat.name, seat.auto) == ("human", "Ann", False)
        assert watch.errors == [] and watch.dialogs == []


def test_a_password_table_asks_for_it_and_again_after_a_reload(phone: tuple[Page, PageWatch]) -> None:
    page, watch = phone
    locked = HostOptions(password="open sesame")
    with served_table("fistful", 2, {1: "heuristic"}, table_id="pwtest", options=locked) as table:
        page.goto(table.url)
        page.locator("#password").wait_for(timeout=10_000)
        page.fill("#name", "Ann")
        page.fill("#password", "open sesami")
        page.click("#join-btn")
        page.locator("#join-error", has_text="not this table's").wait_for(timeout=10_000)
        page.fill("#password", "open sesame")
        page.click("#join-btn")
        page.locator("#table:not([hidden])").wait_for(timeout=10_000)
        assert take_turn(page)
        # The password is never stored: after a reload the form asks for it, offering the kept seat back.
        page.reload()
        page.locator("#join-btn", has_text="Take my seat back").wait_for(timeout=10_000)
        assert page.input_value("#password") == ""
        page.fill("#password", "open sesame")
        page.click("#join-btn")
        page.locator("#table:not([hidden])").wait_for(timeout=10_000)
        assert "You sit at seat 0" in page.locator("#table-head").inner_text()
        seat = table.call(lambda: table.host.table.seats[0])
        assert (seat.kind, seat.name, seat.connected) == ("human", "Ann", True)
        assert watch.errors == [] and watch.dialogs == []


def test_a_whole_three_player_cherki_game_by_taps(browser: Browser, phone: tuple[Page, PageWatch]) -> None:
    page, watch = phone
    with served_table("cherki", 3, {1: "heuristic", 2: "heuristic"}, seed=11) as table:
        # A second guest watches: the table without a hand and without moves, to the same outcome.
        viewer = browser.new_context(viewport=PHONE).new_page()
        viewer.goto(table.url)
        viewer.fill("#name", "Bea")
        viewer.click("#watch-btn")
        viewer.locator("#board .players").wait_for(timeout=10_000)
        page.goto(table.url)
        # No password at this table: no password field.
        page.locator("#join-seats li").first.wait_for(timeout=10_000)
        assert page.locator("#password").is_hidden()
        page.fill("#name", "Ann")
        page.click("#join-btn")
        page.locator("#turn.your-turn").wait_for(timeout=10_000)
        # The hand by kind: 8 cards in groups, each group labelled with its kind and count, each card with its
        # suit's letter; the first decision offers only what the host allows (draw; no discard to take yet).
        groups = page.locator(".hand-area .kind-group")
        labels = groups.locator(".kind-label").all_inner_texts()
        assert sum(int(label.split("×")[1]) for label in labels) == 8 == page.locator(".hand .card-button").count()
        assert re.fullmatch(r"(\d|WF|RF|OT)[CSM]?\*?", page.locator(".hand .ccard-face").first.inner_text())
        assert page.locator("#actions button.offer").all_inner_texts()[0].startswith("Draw from the stock")
        assert page.locator(".hand-area .progress").inner_text().startswith("Towards a call: triples ")
        assert page.locator("#board .players li").count() == 3
        # After drawing, each card can be discarded: tap one, and its discard is offered.
        page.locator("#actions button.offer.play").first.click()
        page.locator(".hand .card-button:not([disabled])").first.wait_for(timeout=10_000)
        assert page.locator(".hand .card-button").count() == 9
        page.locator(".hand .card-button:not([disabled])").first.click()
        assert page.locator("#actions button.offer.play").first.inner_text().startswith("Discard ")
        targets = page.locator("button:visible, summary:visible, input:visible")
        sizes = [box for box in (targets.nth(i).bounding_box() for i in range(targets.count())) if box]
        assert len(sizes) > 10
        assert [box for box in sizes if box["width"] < 44 or box["height"] < 44] == []
        page.locator("#actions button.offer.play").first.click()
        # Once a discard may be taken, the page offers it; the card taken may not go straight back.
        while not page.locator("#actions button.offer.play", has_text="Take ").count():
            assert cherki_turn(page)
            page.locator("#turn.your-turn, #outcome:not([hidden])").first.wait_for(timeout=10_000)
        page.locator("#actions button.offer.play", has_text="Take ").click()
        page.locator(".hand .card-button .card-mark").wait_for(timeout=10_000)
        assert page.locator(".hand .card-button", has=page.locator(".card-mark")).is_disabled()
        taps = 0
        while cherki_turn(page):
            taps += 1
            assert taps < 400, "the game did not end within 400 taps"
        outcome = outcome_of(table)
        assert watch.errors == [] and watch.dialogs == []
        viewer.locator("#outcome:not([hidden])").wait_for(timeout=10_000)
        assert viewer.locator(".hand .card-button").count() == 0 and viewer.locator("#rematch-btn").count() == 0
        watched = viewer.locator("#outcome .standings li").all_inner_texts()
        assert [line.replace("Ann", "You") for line in watched] == page.locator(
            "#outcome .standings li"
        ).all_inner_texts()
        viewer.context.close()
    names = ["You", "Bot 1 · heuristic", "Bot 2 · heuristic"]
    standings = page.locator("#outcome .standings li").all_inner_texts()
    for line, seat in zip(standings, outcome.order):
        assert line.startswith(f"{names[seat]}: ", line.index(" ") + 1), line
        assert f": {outcome.scores[seat]:+d} points".replace("+0", "0") in line
        assert line.endswith("– winner") == (seat in outcome.winners)
    deal = outcome.detail["deals"][0]
    log = page.locator("#log li").all_inner_texts()
    assert any(line.startswith("You draw ") for line in log) and any(line.startswith("You discard ") for line in log)
    assert any(line.startswith("You take ") for line in log)
    if deal["result"] == "win":
        # The settlement in words: who won, how, and what each seat paid or got.
        (won,) = [line for line in log if " deal 1 by " in line]
        assert f"Total {deal['total']}: " in won and "pays" in won
        assert standings[3].startswith(f"{names[deal['winner']]} won deal 1 by ")
    else:
        assert "The stock ran out: deal 1 is drawn, nobody pays." in log
    assert taps > 10


def test_the_start_page_shows_the_seats_the_password_field_and_the_rules(phone: tuple[Page, PageWatch]) -> None:
    page, watch = phone
    locked = HostOptions(password="open sesame")
    with served_table("cherki", 3, {2: "heuristic"}, table_id="startpage", options=locked) as table:
        peer = LinePeer(table.tcp_port)
        try:
            peer.send({"name": "Ole", "protocol": 1, "role": "player", "type": "hello", "auth": _proof(peer.table)})
            assert peer.expect("welcome")["seat"] == 0
            page.goto(table.url)
            page.locator("#join-seats li", has_text="Ole").wait_for(timeout=10_000)
            assert page.locator("#join-table").inner_text() == "Cherki at “web cherki”: 3 seats"
            seats = [" ".join(line.split()) for line in page.locator("#join-seats li").all_inner_texts()]
            assert seats == ["Ole", "open", "Bot 2 · heuristic"]
            assert page.locator("#join-seats li.open").count() == 1
            # A password table: the masked field, and the words saying it is needed.
            assert page.locator("#password").is_visible()
            assert page.get_attribute("#password", "type") == "password"
            assert "needs its password" in page.locator("#join-error").inner_text()
            assert page.locator("#join-btn").is_enabled() and page.locator("#watch-btn").is_enabled()
            # The whole rules, from the same Markdown as `cardnet rules cherki`, folded until tapped.
            page.locator("#rules-box:not([hidden])").wait_for(timeout=10_000)
            assert page.locator("#rules-title").inner_text() == "The rules of Cherki"
            page.click("#rules-title")
            headings = page.locator("#rules h4").all_inner_texts()
            assert headings[:2] == ["The cards", "Setup"] and "Calling and winning" in headings
            assert page.locator("#rules h3").inner_text() == "Cherki"
            assert page.locator("#rules ol li").count() >= 4 and page.locator("#rules strong").count() > 10
            assert page.locator("#rules code").first.inner_text() == "*"
            # Readable on the phone: nothing wider than the screen.
            assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
            assert watch.errors == [] and watch.dialogs == []
        finally:
            peer.close()


def _proof(table: dict[str, Any]) -> str:
    """The password proof of a `table` message's challenge for the test's password (PROTOCOL.md § 3)."""
    message = f"cardnet-auth/1|{table['table_id']}|{table['challenge']}".encode()
    return hmac.new(b"open sesame", message, hashlib.sha256).hexdigest()
