"""The web seat in Finnish in a real browser (issue 32): the start page's language selector switches every word,
the choice survives a reload, and a few turns of A Fistful of Gold read in Finnish with no English word of the
page's own left. Kept short for CI (a handful of taps); every wait is bounded, every connection to 127.0.0.1."""

from __future__ import annotations

import re

from playwright.sync_api import Page

from cardnet.web.words import web_words

from browserseat import LinePeer, PageWatch, cherki_turn, served_table, take_turn
from test_web_browser import browser, phone  # noqa: F401  (fixtures shared with the other browser tests)

# Names and proper nouns that stay as they are in Finnish: the game's name and the host's name for its bot level.
ALLOWED = {"fistful", "gold", "heuristic", "cardnet"}
WORD = re.compile(r"[^\W\d_]{3,}")
PLACEHOLDER = re.compile(r"\{\w+\}")


# In the page: each language's words for 1, 2 and a million cards, through the page's own count().
COUNTS = """async () => {
  const words = await import("./js/words.js");
  const found = {};
  for (const lang of ["en", "fi", "es", "id"]) {
    await words.useLanguage(lang);
    found[lang] = [1, 2, 1000000].map((n) => words.count(n, "card"));
  }
  return found;
}"""


def words_of(texts: object) -> set[str]:
    found: set[str] = set()
    for text in texts if isinstance(texts, list) else [texts]:
        found |= {word.lower() for word in WORD.findall(PLACEHOLDER.sub(" ", str(text)))}
    return found


def english_only_words() -> set[str]:
    """The page's English words that its Finnish words never use (so one showing means an untranslated string)."""
    english = {word for text in web_words("en").values() for word in words_of(text)}
    finnish = {word for text in web_words("fi").values() for word in words_of(text)}
    return english - finnish - ALLOWED


def shown_text(page: Page) -> str:
    """What the header, the start page and the table say (the rules below are the rulebook's own text)."""
    return "\n".join(
        page.locator(f"#{part}").inner_text()
        for part in ("link", "join", "table")
        if page.locator(f"#{part}").is_visible()
    )


def test_a_page_switched_to_finnish_plays_fistful_in_finnish(phone: tuple[Page, PageWatch]) -> None:  # noqa: F811
    page, watch = phone
    english = english_only_words()
    assert {"join", "watch", "duel", "round"} <= english
    with served_table("fistful", 2, {1: "heuristic"}, turn_timer=600) as table:
        page.goto(table.url)
        page.locator("#join:not([hidden])").wait_for(timeout=10_000)
        # The browser prefers English, so the page starts in English; the selector names each language its own way.
        assert page.locator("#join-btn").inner_text() == "Join"
        assert page.locator("#language option").all_inner_texts() == ["English", "Bahasa Indonesia", "Español", "Suomi"]
        page.select_option("#language", "fi")
        page.locator("#join-btn", has_text="Liity").wait_for(timeout=10_000)
        # Remembered: a reload comes back in Finnish, the rules too.
        page.reload()
        page.locator("#join-btn", has_text="Liity").wait_for(timeout=10_000)
        assert page.evaluate("document.documentElement.lang") == "fi"
        assert page.locator("#watch-btn").inner_text() == "Katso"
        assert "2 paikkaa" in page.locator("#join-table").inner_text()
        page.locator("#rules-title", has_text="säännöt").wait_for(timeout=10_000)
        start = words_of(shown_text(page))
        assert start & english == set(), start & english
        page.fill("#name", "Anni")
        page.click("#join-btn")
        page.locator("#table:not([hidden])").wait_for(timeout=10_000)
        assert "Istut paikalla 0." in page.locator("#table-head").inner_text()
        page.locator("#turn.your-turn").wait_for(timeout=10_000)
        assert re.fullmatch(r"Sinun vuorosi: (59\d|600) s jäljellä\.", page.locator("#turn").inner_text())
        # The setup (two taps: the cards to discard, then the discard) and two duels.
        for _ in range(6):
            assert take_turn(page)
        page.locator("#log li", has_text="Kaksintaistelu 1").first.wait_for(timeout=10_000)
        seen = words_of(shown_text(page))
        assert seen & english == set(), seen & english
        assert {"kierros", "kultaa"} & seen
        assert watch.errors == [] and watch.dialogs == []
        # Counted nouns follow each language's own plural rule: Indonesian has one form, Spanish a third for round
        # millions, Finnish and English one and other.
        counts = page.evaluate(COUNTS)
    assert counts == {
        "en": ["1 card", "2 cards", "1000000 cards"],
        "fi": ["1 kortti", "2 korttia", "1000000 korttia"],
        "es": ["1 carta", "2 cartas", "1000000 de cartas"],
        "id": ["1 kartu", "2 kartu", "1000000 kartu"],
    }


def test_the_trick_says_you_played_in_the_second_person(phone: tuple[Page, PageWatch]) -> None:  # noqa: F811
    page, watch = phone
    # Seed 3: seat 1 (the browser, seated after the peer) leads, so the trick shows the page's own play.
    with served_table("matchstick", 2, {}, seed=3) as table:
        peer = LinePeer(table.tcp_port)
        try:
            peer.send({"name": "Ann", "protocol": 1, "role": "player", "type": "hello"})
            assert peer.expect("welcome")["seat"] == 0
            page.goto(table.url)
            page.locator("#join:not([hidden])").wait_for(timeout=10_000)
            page.select_option("#language", "es")
            page.locator("#join-btn", has_text="Unirse").wait_for(timeout=10_000)
            page.fill("#name", "Bea")
            page.click("#join-btn")
            # Choose a card, then play it: "Ronda: jugaste 1 × …", never "Tú jugó".
            for _ in range(4):  # a tap to choose a card, then one to play it
                if page.locator(".trick-cards").count():
                    break
                assert take_turn(page)
                page.locator("#board h3:has(+ .trick-cards), #turn.your-turn").first.wait_for(timeout=10_000)
            trick = page.locator("#board h3:has(+ .trick-cards)").inner_text()
            assert "jugaste" in trick and "jugó" not in trick, trick
            assert watch.errors == [] and watch.dialogs == []
        finally:
            peer.close()


def test_a_discard_the_page_took_says_taken_by_you(phone: tuple[Page, PageWatch]) -> None:  # noqa: F811
    """The discards list names the page's own take in the second person ("taken by you"; es "la tomaste tú"),
    never "taken by You" with the pronoun in the third person's slot."""
    page, watch = phone
    with served_table("cherki", 3, {1: "heuristic", 2: "heuristic"}, seed=5, table_id="takenbyyou") as table:
        page.goto(table.url)
        page.fill("#name", "Ann")
        page.click("#join-btn")
        page.locator("#table:not([hidden])").wait_for(timeout=10_000)
        discards = page.locator("#board .discards")
        for _ in range(120):  # cherki_turn takes the top discard whenever it is offered
            if "taken by you" in discards.inner_text() or not cherki_turn(page):
                break
        text = discards.inner_text()
        assert "taken by you" in text and "taken by You" not in text, text
        assert watch.errors == [] and watch.dialogs == []
