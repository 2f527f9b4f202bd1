"""Accessibility of the web seat in a real browser (Debian's Chromium under Playwright, 360 x 640): axe-core's
checks on the start page and on a game in progress of each of the four games, in the light and the dark colour
scheme; the main controls found by their accessible names; every one reached by Tab in the page's order, with a
visible focus ring; a whole move made with the keyboard alone (joining, watching and the rematch too); TEN's
colours carried by a letter too.

axe-core is the copy bundled in the PyPI package ``axe-playwright-python`` (the test extras): its script is read
from the installed package and run in the page, so nothing is downloaded while testing. No axe rule is disabled.

``CARDNET_SCREENSHOTS=DIR`` also saves the README's pictures of the browser seat into DIR (``docs`` from the
repository's root): the start page and a Cherki and a TEN game in progress, in the light scheme.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page

from cardnet.protocol.host import HostOptions

from browserseat import PHONE, TURN_TIMEOUT_MS, PageWatch, ServedTable, served_table, take_turn
from test_web_browser import browser, outcome_of  # noqa: F401  (the module's one browser, shared by its tests)
from test_web_ten import TenTapper

#: axe-core as the PyPI package ships it (the package's Python wrapper is not used: untyped, and it builds its
#: call by pasting Python reprs into JavaScript).
AXE_SCRIPT = (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
#: Where the README's pictures go when asked for.
SHOTS = os.environ.get("CARDNET_SCREENSHOTS")
PASSWORD = "open sesame"
#: The table's controls in the order Tab must meet them (the page's reading order, top to bottom).
TABLE_ORDER = [
    "rematch",
    "card",
    "offer",
    "clear",
    "log-title",
    "log",
    "seats-title",
    "seats",
    "chat-title",
    "chat",
    "chat-text",
    "chat-send",
    "rules-title",
    "rules",
]
#: What the focused element is, in TABLE_ORDER's words (or its id, or its tag).
KIND_OF_FOCUS = """() => {
  const n = document.activeElement;
  if (!n || n === document.body) return null;
  if (n.id === "rematch-btn") return "rematch";
  if (n.closest("#rules")) return "rules";
  if (n.id) return n.id;
  if (n.classList.contains("card-button")) return "card";
  if (n.matches("#actions .offer, #actions .bid-step")) return "offer";
  if (n.matches("#actions .clear")) return "clear";
  return n.localName;
}"""
#: The focus ring of the focused element: drawn only when the keyboard moved there (:focus-visible).
FOCUS_RING = """() => {
  const n = document.activeElement;
  const s = getComputedStyle(n);
  return { visible: n.matches(":focus-visible"), style: s.outlineStyle, width: parseFloat(s.outlineWidth),
           colour: s.outlineColor, paper: getComputedStyle(document.documentElement).backgroundColor };
}"""
IS_FOCUSED = "(node) => node === document.activeElement"


def axe_violations(page: Page) -> list[str]:
    """axe-core's violations on the page as it is now, one readable line per rule broken and element."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    result: dict[str, Any] = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
    return [
        f"{rule['id']}: {node['target']} {node.get('failureSummary', '')}"
        for rule in result["violations"]
        for node in rule["nodes"]
    ]


def assert_axe_clean_in_both_schemes(page: Page) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_violations(page) == [], scheme
    page.emulate_media(color_scheme="light")


def contrast(colour: str, other: str) -> float:
    """WCAG's contrast ratio of two CSS ``rgb(...)`` colours."""

    def luminance(css: str) -> float:
        red, green, blue = (int(part) / 255 for part in re.findall(r"\d+", css)[:3])
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(colour), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def assert_focus_ring(page: Page) -> None:
    """The focused control shows a ring: an outline at least 2 px wide, 3:1 against the page (WCAG 1.4.11)."""
    ring = page.evaluate(FOCUS_RING)
    where = page.evaluate(KIND_OF_FOCUS)
    assert ring["visible"] and ring["style"] != "none" and ring["width"] >= 2, (where, ring)
    assert contrast(ring["colour"], ring["paper"]) >= 3, (where, ring)


def tab_to(page: Page, target: Locator, limit: int = 80) -> None:
    """Press Tab until ``target`` has the focus (each control passed shows its ring); fails after ``limit``."""
    for _ in range(limit):
        if target.evaluate(IS_FOCUSED):
            return
        page.keyboard.press("Tab")
        if page.evaluate(KIND_OF_FOCUS) is not None:
            assert_focus_ring(page)
    raise AssertionError(f"Tab did not reach {target} in {limit} presses")


def tab_cycle(page: Page) -> list[str]:
    """What Tab meets from the top of the page until it comes round again, in order (each with its ring)."""
    # A click on the page's title (plain text) blurs the focus and makes the top of the page Tab's starting point.
    page.locator("#title").click()
    seen: list[str] = []
    for _ in range(120):
        page.keyboard.press("Tab")
        kind = page.evaluate(KIND_OF_FOCUS)
        # Past the last control the focus leaves the page (or, in some browsers, comes round to the first).
        if kind is None or page.evaluate("() => document.activeElement === window.firstTabStop"):
            break
        if not seen:
            page.evaluate("() => { window.firstTabStop = document.activeElement; }")
        assert_focus_ring(page)
        seen.append(kind)
    page.evaluate("() => { delete window.firstTabStop; }")
    return seen


def in_order(seen: list[str], order: list[str]) -> list[str]:
    """``seen`` with repeats folded, checked to follow ``order``; returned for further checks."""
    folded = [kind for i, kind in enumerate(seen) if i == 0 or seen[i - 1] != kind]
    assert all(kind in order for kind in folded), " ".join(folded)
    assert folded == sorted(folded, key=order.index), " ".join(folded)
    return folded


def the_one(locator: Locator, element_id: str) -> None:
    """``locator`` (found by role and accessible name) is exactly the element with ``element_id``."""
    assert locator.count() == 1, (locator, locator.count())
    assert locator.evaluate("(node) => node.id") == element_id


def shoot(page: Page, name: str) -> None:
    """Save the page as the README shows it (only when CARDNET_SCREENSHOTS names a folder)."""
    if not SHOTS:
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    page.screenshot(path=str(folder / name))


@pytest.fixture
def phone(browser: Browser) -> Iterator[tuple[Page, PageWatch]]:  # noqa: F811
    """A fresh English phone page in the light colour scheme, and what it reports."""
    context = browser.new_context(viewport=PHONE, locale="en-US", color_scheme="light")
    page = context.new_page()
    watch = PageWatch()
    watch.attach(page)
    yield page, watch
    context.close()


def test_the_start_page_is_accessible_and_joined_by_keyboard(phone: tuple[Page, PageWatch]) -> None:
    page, watch = phone
    locked = HostOptions(password=PASSWORD)
    with served_table("cherki", 3, {2: "heuristic"}, table_id="a11ystart", options=locked) as table:
        page.goto(table.url)
        page.locator("#rules-box:not([hidden])").wait_for(timeout=10_000)
        page.locator("#join-seats li").first.wait_for(timeout=10_000)
        # Every control by its role and accessible name, as a screen reader announces it.
        the_one(page.get_by_role("combobox", name="Language"), "language")
        the_one(page.get_by_role("textbox", name="Your name"), "name")
        the_one(page.get_by_label("Table password"), "password")
        the_one(page.get_by_role("button", name="Join", exact=True), "join-btn")
        the_one(page.get_by_role("button", name="Watch", exact=True), "watch-btn")
        the_one(page.get_by_role("heading", name="Cherki at “web cherki”: 3 seats"), "join-table")
        assert page.get_by_role("main").count() == 1 and page.get_by_role("banner").count() == 1
        # The host answered, so the link line says so before anyone joins (not "Connecting…").
        assert page.locator("#link").inner_text() == "Connected"
        # Tab goes through them top to bottom, then to the rules, each with its ring.
        seen = tab_cycle(page)
        assert seen[:6] == ["language", "name", "password", "join-btn", "watch-btn", "rules-title"], seen
        page.emulate_media(color_scheme="dark")
        assert tab_cycle(page) == seen
        page.emulate_media(color_scheme="light")
        # The rules unfold with Enter; axe finds nothing on the whole start page in either colour scheme.
        tab_to(page, page.locator("#rules-title"))
        page.keyboard.press("Enter")
        assert page.locator("#rules-box").evaluate("(box) => box.open")
        page.locator("#rules h4").first.wait_for(timeout=10_000)
        assert_axe_clean_in_both_schemes(page)
        page.keyboard.press("Enter")
        shoot(page, "web-start.png")
        # Joined with the keyboard alone: the name and the password typed, Join pressed with Enter.
        tab_to(page, page.locator("#name"))
        page.keyboard.type("Ann")
        tab_to(page, page.locator("#password"))
        page.keyboard.type(PASSWORD)
        tab_to(page, page.locator("#join-btn"))
        page.keyboard.press("Enter")
        page.locator("#table:not([hidden])").wait_for(timeout=10_000)
        assert "You sit at seat 0" in page.locator("#table-head").inner_text()
        seat = table.call(lambda: table.host.table.seats[0])
        assert (seat.kind, seat.name, seat.connected) == ("human", "Ann", True)
        assert watch.errors == [] and watch.dialogs == []


def moves_sent(frames: list[str]) -> int:
    return sum('"type":"move"' in frame for frame in frames)


def move_went_out(page: Page, frames: list[str], before: int) -> bool:
    """Whether a key just pressed sent a move. Playwright reports a sent frame as an event some moments after
    the key, so this waits for it (at most a second) before the caller presses another key; otherwise a move
    still on its way looks like none, and the next key sends a second one."""
    for _ in range(10):
        if moves_sent(frames) > before:
            return True
        page.wait_for_timeout(100)
    return False


def keyboard_move(page: Page, frames: list[str], table: ServedTable) -> None:
    """Make one whole move with the keyboard alone, choosing as :func:`take_turn` taps: Tab to a card and Space
    to choose it, Tab to a move on offer and Enter; done when the move went out and the host took it."""
    page.locator("#turn.your-turn").wait_for(timeout=TURN_TIMEOUT_MS)
    before = moves_sent(frames)
    state = table.call(lambda: table.host.table.state_id)
    for _ in range(8):
        plays = page.locator("#actions button.offer.play")
        passes = page.locator("#actions button.offer.pass")
        cards = page.locator(".hand .card-button:not([disabled]):not(.selected)")
        if plays.count():
            tab_to(page, plays.first)
            page.keyboard.press("Enter")
        elif passes.count() and page.locator(".hand .card-button.selected").count():
            tab_to(page, passes.first)
            page.keyboard.press("Enter")
        elif cards.count():
            chosen = cards.first.get_attribute("data-card")
            tab_to(page, cards.first)
            page.keyboard.press("Space")
            # The redrawn hand keeps the keyboard on the card just chosen.
            assert page.locator(f'.hand .card-button.selected[data-card="{chosen}"]').evaluate(IS_FOCUSED)
        else:
            tab_to(page, passes.first)
            page.keyboard.press("Enter")
        if move_went_out(page, frames, before):
            break
    assert moves_sent(frames) == before + 1
    page.locator("#turn:not(:text('Sent'))").wait_for(timeout=TURN_TIMEOUT_MS)
    assert table.call(lambda: table.host.table.state_id) > state
    assert not page.locator("#notice:not(.info)").is_visible(), page.locator("#notice").inner_text()


def check_ten_letters(page: Page) -> None:
    """Every TEN chip says its colour in a letter (R red, B blue, O orange, G green; * any colour, $ currency),
    so colour is never the only sign; and in words to a screen reader."""
    letters = {"chip-red": "R", "chip-blue": "B", "chip-orange": "O", "chip-green": "G", "chip-wild": "*"}
    chips = page.locator("#board .chip").evaluate_all(
        "(chips) => chips.map((c) => [c.className, c.textContent, c.getAttribute('aria-label')])"
    )
    assert len(chips) > 3
    for classes, face, words in chips:
        tint = next(name for name in classes.split() if name.startswith("chip-"))
        letter = letters.get(tint, "$")
        assert face.startswith(letter), (classes, face)
        colour = tint.removeprefix("chip-")
        assert colour in words if colour in ("red", "blue", "orange", "green") else words, (classes, words)


GAMES: dict[str, tuple[int, dict[int, str], int]] = {
    # players, built-in players, taps played before the checks (a game well under way)
    "fistful": (2, {1: "heuristic"}, 4),
    "matchstick": (3, {1: "heuristic", 2: "heuristic"}, 3),
    "cherki": (3, {1: "heuristic", 2: "heuristic"}, 6),
    "ten": (3, {1: "heuristic", 2: "heuristic"}, 8),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_in_progress_is_accessible_and_played_by_keyboard(
    game: str,
    browser: Browser,  # noqa: F811
    phone: tuple[Page, PageWatch],
) -> None:
    page, watch = phone
    players, bots, taps = GAMES[game]
    frames: list[str] = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda payload: frames.append(str(payload))))
    with served_table(game, players, bots, seed=3, table_id=f"a11y{game}") as table:
        page.goto(table.url)
        page.fill("#name", "Ann")
        page.click("#join-btn")
        page.locator("#table:not([hidden])").wait_for(timeout=10_000)
        # A whole move by keyboard, then the game goes on by taps until it is well under way.
        keyboard_move(page, frames, table)
        tapper = TenTapper(page)
        for _ in range(taps):
            assert tapper.turn() if game == "ten" else take_turn(page)
        page.locator("#turn.your-turn").wait_for(timeout=TURN_TIMEOUT_MS)
        if game == "ten":
            check_ten_letters(page)
        # The seats panel unfolds by keyboard too, so axe checks what it lists.
        tab_to(page, page.locator("#seats-title"))
        page.keyboard.press("Enter")
        page.locator("#seats-box[open]").wait_for(timeout=5_000)
        # The chat, by keyboard: its title unfolds it, the message is typed, Send sends it.
        tab_to(page, page.locator("#chat-title"))
        page.keyboard.press("Enter")
        the_one(page.get_by_role("textbox", name="Chat message"), "chat-text")
        the_one(page.get_by_role("button", name="Send", exact=True), "chat-send")
        # The chat's limits in words, read to a screen reader with the field; the field holds no more than that.
        limit = page.locator("#chat-limit").inner_text()
        assert "500 characters" in limit and "watchers" in limit, limit
        assert page.locator("#chat-text").evaluate("(node) => node.maxLength") == 500
        assert page.locator("#chat-text").get_attribute("aria-describedby") == "chat-limit"
        tab_to(page, page.locator("#chat-text"))
        page.keyboard.type("hello from the keyboard")
        tab_to(page, page.locator("#chat-send"))
        page.keyboard.press("Enter")
        page.locator("#chat li .text", has_text="hello from the keyboard").wait_for(timeout=10_000)
        # A card chosen where the game has a hand to choose from, so the moves it allows are on offer too.
        playable = page.locator(".hand .card-button:not([disabled])")
        if playable.count() and not page.locator("#actions button.offer.play").count():
            playable.first.click()
        # Each move on offer is a button named by its label, as a screen reader reads it.
        labels = page.locator("#actions button.offer .offer-label").all_inner_texts()
        assert labels
        for label in labels:
            found = page.get_by_role("button", name=re.compile("^" + re.escape(label)))
            assert found.count() >= 1 and found.first.evaluate("(node) => node.closest('#actions') !== null")
        folded = in_order(tab_cycle(page), TABLE_ORDER)
        assert {"offer", "log", "seats-title", "chat-text", "chat-send", "rules-title"} <= set(folded), folded
        # The same order, and rings as clear, in the dark scheme.
        page.emulate_media(color_scheme="dark")
        assert in_order(tab_cycle(page), TABLE_ORDER) == folded
        page.emulate_media(color_scheme="light")
        assert_axe_clean_in_both_schemes(page)
        if game in ("cherki", "ten"):
            shoot(page, f"web-{game}.png")
        if game == "fistful":
            # To the end, then the rematch asked for by keyboard: named, reached by Tab, pressed with Enter.
            while take_turn(page):
                pass
            assert outcome_of(table) is not None
            the_one(page.get_by_role("button", name="Play again"), "rematch-btn")
            assert in_order(tab_cycle(page), TABLE_ORDER)[0] == "rematch"
            assert_axe_clean_in_both_schemes(page)
            tab_to(page, page.locator("#rematch-btn"))
            page.keyboard.press("Enter")
            # The only human at the table agreed: the host starts the next game, and the page shows it.
            page.locator("#outcome").wait_for(state="hidden", timeout=10_000)
            assert table.call(lambda: table.host.table.game_no) == 1
        if game == "matchstick":
            # A guest who only watches chooses Watch by keyboard, and the table without a hand is as accessible.
            viewer = browser.new_context(viewport=PHONE, locale="en-US", color_scheme="light").new_page()
            viewer.goto(table.url)
            viewer.locator("#join:not([hidden])").wait_for(timeout=10_000)
            tab_to(viewer, viewer.locator("#name"))
            viewer.keyboard.type("Bea")
            tab_to(viewer, viewer.get_by_role("button", name="Watch", exact=True))
            viewer.keyboard.press("Enter")
            viewer.locator("#board .players").wait_for(timeout=10_000)
            assert "You are watching" in viewer.locator("#table-head").inner_text()
            assert_axe_clean_in_both_schemes(viewer)
            viewer.context.close()
        assert watch.errors == [] and watch.dialogs == []
