"""TEN at the web seat in a real browser (Debian's Chromium under Playwright) on a 360 x 640 phone screen: a whole
three-player game and a whole solo game played by taps against built-in players, only on what the page offers
(the host's legal moves): draws and stops by the bust risk the page shows, prizes, purchases, bids set with the
+/- form, and every payment settled with the one tap that pays the least."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from browserseat import PHONE, TURN_TIMEOUT_MS, PageWatch, program_or_skip, served_table
from test_web_browser import browser, join, outcome_of, phone  # noqa: F401  (fixtures shared with the other browser tests)

PAGE_JS = Path(__file__).resolve().parent.parent / "python" / "cardnet" / "web" / "page" / "js"
#: A chip's face: a colour letter and a number or '#', '*' for any colour, '$' for currency.
CHIP = re.compile(r"[RBOG][1-9#]|\*[1-9#]|\$[1-5]")
#: The page's risk line: how many of the cards left would bust the next draw.
RISK = re.compile(r"Next draw: (\d+) of (\d+) cards left would bust you")


class TenTapper:
    """Plays one seat by taps: draws while at most a quarter of the cards left would bust it, takes the numbers,
    buys the first card offered, bids in every second auction (one step above the lowest legal bid when the form
    allows it; the first such bid by keyboard alone), pays every debt with the one-tap settle. Counts what it did."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.settles = 0
        self.bids = 0
        self.keyboard_bids = 0
        self.auctions = 0
        self.draws_by_risk = 0

    def offer(self, label: str) -> bool:
        """Tap the offered move whose label starts with ``label``; False when there is none."""
        found = self.page.locator(
            "#actions button.offer", has=self.page.locator(".offer-label", has_text=re.compile("^" + re.escape(label)))
        )
        if not found.count():
            return False
        found.first.click()
        return True

    def draw_or_stop(self) -> None:
        risk = RISK.search(self.page.locator("#board .risk").inner_text())
        assert risk is not None, self.page.locator("#board .risk").inner_text()
        busting, unseen = int(risk.group(1)), int(risk.group(2))
        self.draws_by_risk += 1
        if 4 * busting <= unseen and self.offer("Draw"):
            return
        assert self.offer("Stop") or self.offer("Draw")

    def bid_or_pass(self) -> None:
        self.auctions += 1
        form = self.page.locator("#actions .bid-form")
        if self.auctions % 2:
            assert self.offer("Pass")
            return
        low = int(form.locator(".bid-amount").inner_text())
        legal = re.fullmatch(r"Legal bids: (\d+) to (\d+)\.", form.locator(".bid-range").inner_text())
        assert legal is not None and int(legal.group(1)) == low
        high = int(legal.group(2))
        if high - low >= 2 and not self.keyboard_bids:
            # Once by keyboard alone: Enter on + raises the bid, Tab reaches the bid button, Enter bids.
            form.locator(".bid-raise").focus()
            self.page.keyboard.press("Enter")
            assert form.locator(".bid-btn").inner_text() == f"Bid {low + 1}"
            self.page.keyboard.press("Tab")
            assert form.locator(".bid-btn").evaluate("(button) => button === document.activeElement")
            self.page.keyboard.press("Enter")
            self.keyboard_bids += 1
        else:
            if high > low:
                form.locator(".bid-raise").click()
                assert int(form.locator(".bid-amount").inner_text()) == low + 1
                assert form.locator(".bid-btn").inner_text() == f"Bid {low + 1}"
            else:
                assert form.locator(".bid-raise").is_disabled() and form.locator(".bid-lower").is_disabled()
            form.locator(".bid-btn").click()
        self.bids += 1

    def turn(self) -> bool:
        """One tap (two with a raised bid); False once the game is over."""
        self.page.locator("#turn.your-turn, #outcome:not([hidden])").first.wait_for(timeout=TURN_TIMEOUT_MS)
        if self.page.locator("#outcome").is_visible():
            return False
        self.taps += 1
        actions = self.page.locator("#actions")
        if actions.locator("button.offer.settle").count():
            actions.locator("button.offer.settle").click()
            self.settles += 1
            # One tap pays the whole debt: the page sends the other pieces at the next decisions by itself.
            self.page.locator("#board .pending", has_text="You owe").wait_for(state="detached", timeout=TURN_TIMEOUT_MS)
        elif actions.locator(".bid-form").count():
            self.bid_or_pass()
        elif self.page.locator("#board .risk").count() and actions.locator("button.offer").count() > 1:
            self.draw_or_stop()
        elif not (self.offer("Take the numbers") or self.offer("Accept") or self.offer("Buy ")):
            actions.locator("button.offer").first.click()
        return True

    def play_to_the_end(self, max_taps: int) -> None:
        for _ in range(max_taps):
            if not self.turn():
                return
        raise AssertionError(f"the game did not end within {max_taps} taps")


def check_chips(page: Page) -> None:
    """Every chip on the board says its card in a letter and a number, and in words to a screen reader."""
    faces = page.locator("#board .chip").all_inner_texts()
    assert faces and [face for face in faces if not CHIP.fullmatch(face)] == []
    labels = page.locator("#board .chip").evaluate_all("(chips) => chips.map((c) => c.getAttribute('aria-label'))")
    assert all(re.fullmatch(r"(red|blue|orange|green) [1-9]|.*wild.*|currency [1-5]", label) for label in labels)


def test_a_whole_three_player_ten_game_by_taps(browser: Browser, phone: tuple[Page, PageWatch]) -> None:  # noqa: F811
    page, watch = phone
    with served_table("ten", 3, {1: "heuristic", 2: "heuristic"}, seed=11) as table:
        # A guest who only watches: the same board, no moves, the same outcome.
        viewer = browser.new_context(viewport=PHONE).new_page()
        viewer_watch = PageWatch()
        viewer_watch.attach(viewer)
        viewer.goto(table.url)
        viewer.fill("#name", "Bea")
        viewer.click("#watch-btn")
        viewer.locator("#board .ten").wait_for(timeout=10_000)
        join(page, table, "Ann")
        page.locator("#turn.your-turn, #board .ten").first.wait_for(timeout=10_000)
        tapper = TenTapper(page)
        checked_form = False
        for _ in range(2000):
            if not tapper.turn():
                break
            if page.locator("#board .chip").count() > 3:
                check_chips(page)
            if not checked_form and page.locator("#actions .bid-form").count():
                # The bid form's targets are thumb-sized and labelled too.
                targets = page.locator("#actions button:visible")
                boxes = [targets.nth(i).bounding_box() for i in range(targets.count())]
                assert [box for box in boxes if box and (box["width"] < 44 or box["height"] < 44)] == []
                assert page.locator("#actions .bid-raise").get_attribute("aria-label") == "Raise the bid"
                checked_form = True
        outcome = outcome_of(table)
        viewer.locator("#outcome:not([hidden])").wait_for(timeout=10_000)
        assert viewer.locator("#actions button").count() == 0 and viewer.locator("#rematch-btn").count() == 0
        watched = viewer.locator("#outcome .standings li").all_inner_texts()
        assert [line.replace("Ann", "You", 1) for line in watched] == page.locator(
            "#outcome .standings li"
        ).all_inner_texts()
        assert watch.errors == [] and watch.dialogs == []
        assert viewer_watch.errors == [] and viewer_watch.dialogs == []
        viewer.context.close()
    log = page.locator("#log li").all_inner_texts()
    assert tapper.keyboard_bids == 1 and tapper.bids > 1
    assert tapper.settles > 0 and any(line.startswith("You pay ") and line.endswith("paid in full.") for line in log)
    assert tapper.draws_by_risk > 5 and any(line.startswith("You draw ") for line in log)
    assert any(line.startswith("Turn ") for line in log)
    names = {0: "You", 1: "Bot 1 · heuristic", 2: "Bot 2 · heuristic"}
    ordinals = ["1st", "2nd", "3rd"]
    standings = page.locator("#outcome .standings li").all_inner_texts()
    assert len(standings) == 3
    for i, (line, seat) in enumerate(zip(standings, outcome.order)):
        assert line.startswith(f"{ordinals[i]}. {names[seat]}: {outcome.scores[seat]} point")
        assert line.endswith("– winner") == (seat in outcome.winners)


def test_a_whole_solo_ten_game_is_labelled_house_rules(phone: tuple[Page, PageWatch]) -> None:  # noqa: F811
    page, watch = phone
    with served_table("ten", 1, {}, seed=5) as table:
        join(page, table, "Ann")
        page.locator("#board .solo-label").wait_for(timeout=10_000)
        assert page.locator("#board .solo-label").inner_text() == "Solo (house rules): reach 25 points to win."
        tapper = TenTapper(page)
        tapper.play_to_the_end(max_taps=1000)
        outcome = outcome_of(table)
        assert watch.errors == [] and watch.dialogs == []
    standings = page.locator("#outcome .standings li").all_inner_texts()
    assert standings[0].startswith(f"1st. You: {outcome.scores[0]} point")
    assert standings[-1] == f"Solo target 25: {'reached' if outcome.winners else 'missed'}."


def _card(id: int, colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "id": id, "type": "number", "value": value}


def test_the_least_payment_is_valid_and_spends_the_fewest_cards(tmp_path: Path) -> None:
    """ten.js's one-tap settle, in Node, against the payment rule (GAMES.md, TEN § Payments): exact, or bust tokens
    alone; cards only when no payment without them exists, and then as few as possible; the cards it picks are
    those the collection's runs miss least (a duplicate before a card of a run, a number card before a wild)."""
    node = program_or_skip("node", "nodejs")
    for name in ("ten.js", "dom.js", "words.js"):
        shutil.copy(PAGE_JS / name, tmp_path / name)
    (tmp_path / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    collection = [_card(1, "red", 1), _card(2, "red", 2), _card(3, "red", 3), _card(4, "red", 3), _card(5, "blue", 7)]
    wild: dict[str, Any] = {"id": 9, "type": "any_wild"}
    cases: list[dict[str, Any]] = []
    for owed in range(1, 10):
        for tokens in range(0, 6):
            for busts in range(0, 4):
                for cards in range(0, 4):
                    seat: dict[str, Any] = {
                        "tokens": tokens,
                        "bust_tokens": busts,
                        "collection": [wild, *collection][:cards],
                    }
                    cases.append({"pay": {"owed": owed, "tokens": 0, "cards": []}, "seat": seat})
    picks: list[dict[str, Any]] = [
        {
            "pay": {"owed": 1, "tokens": 0, "cards": []},
            "seat": {"tokens": 0, "bust_tokens": 0, "collection": collection},
        },
        {
            "pay": {"owed": 2, "tokens": 0, "cards": []},
            "seat": {"tokens": 0, "bust_tokens": 0, "collection": [wild, *collection]},
        },
    ]
    runner = tmp_path / "run.js"
    runner.write_text(
        'import { readFileSync } from "node:fs";\n'
        'import { leastPayment } from "./ten.js";\n'
        'const cases = JSON.parse(readFileSync(0, "utf8"));\n'
        "console.log(JSON.stringify(cases.map((c) => leastPayment(c.pay, c.seat))));\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [node, str(runner)], input=json.dumps(cases + picks), capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    for case, got in zip(cases, results[: len(cases)]):
        owed, seat = case["pay"]["owed"], case["seat"]
        have_t, have_b, have_c = seat["tokens"], seat["bust_tokens"], len(seat["collection"])
        ways = [
            (t, b, c)
            for t in range(have_t + 1)
            for b in range(have_b + 1)
            for c in range(have_c + 1)
            if t + 3 * b + c == owed or (t == c == 0 and b == -(-owed // 3))
        ]
        if not ways:
            assert got is None, case
            continue
        assert got is not None, case
        way = (got["tokens"], got["busts"], len(got["cards"]))
        assert way in ways, (case, got)
        assert way[2] == min(c for _, _, c in ways), (case, got)
    duplicate, two = results[len(cases) :]
    assert [card["id"] for card in duplicate["cards"]] in ([3], [4])
    chosen = {card["id"] for card in two["cards"]}
    assert len(chosen) == 2 and chosen & {3, 4} and 9 not in chosen
