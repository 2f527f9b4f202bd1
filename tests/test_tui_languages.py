"""The full-screen client in every language (issue 32), in a real 80x24 terminal (tmux).

- A whole game played from the keyboard (``l`` and Enter) reaches its end screen in the chosen language with no
  English word left on any screen it showed (names, game titles and key names excepted) and no row cut in the
  middle of a word. CI plays each game once, in a language rotated per game; ``CARDNET_LANGUAGE_SWEEP=all``
  plays all sixteen (``bench/tui_languages.py`` runs that and prints the times).
- The language switch: F2 re-words the lobby at once, the choice survives a restart (``config.toml``), and
  ``--lang`` still wins for one run without changing what was kept.

Every wait polls the pane against a bounded deadline; each pane has its own tmux server, closed in ``finally``.
"""

from __future__ import annotations

import os
import re
import sys
import time
import tomllib
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from nethelpers import child_env
from tmuxpane import Pane

from cardnet.i18n import LANGUAGES, translations
from cardnet.rulebook import rules_games, rules_text

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "python" / "cardnet" / "locale"
COLUMNS, ROWS = 80, 24
#: Seconds one whole game may take, keys and bots included.
GAME_LIMIT = 240.0
#: Each game at its shortest table, with a seed; the player plays the first legal move every time.
GAMES = {"matchstick": (3, 4), "fistful": (2, 7), "cherki": (3, 2), "ten": (2, 3)}
#: CI's share of the sweep: each game once, the languages rotated (the longest words, Finnish, at the densest
#: screens: TEN's and Cherki's; Indonesian at A Fistful of Gold, Spanish at Matchstick Tycoon).
ROTATION = [("matchstick", "es"), ("fistful", "id"), ("cherki", "fi"), ("ten", "fi")]
SWEEP = [(game, lang) for game in GAMES for lang in LANGUAGES]
#: Words that are the same in every language: names, game titles, key names, the program and its protocol.
ALLOWED = {
    "alice",
    "cardnet",
    "matchstick",
    "tycoon",
    "fistful",
    "gold",
    "ten",
    "cherki",
    "enter",
    "space",
    "esc",
    "tab",
    "ctrl",
    "host",
    "port",
    "lan",
}
WORD = re.compile(r"[^\W\d_]{3,}")
#: What is not prose: a message's {placeholders}, and the rules' `code` (moves typed as the wire spells them).
NOT_PROSE = re.compile(r"\{[^}]*\}|`[^`]*`")
#: A word touching a floating box's frame is partly hidden behind it (``Flower`` shows as ``lower``).
BEHIND_FRAME = re.compile(r"\w*[│┌┐└┘─]+\w*")


@cache
def catalog_words(lang: str, ids: bool) -> frozenset[str]:
    """Every word of a language's catalog: its translations, or (``ids``) the English message ids."""
    with (LOCALE / lang / "LC_MESSAGES" / "cardnet.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    texts: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        source = message.id if ids else message.string
        texts += [str(text) for text in source] if isinstance(source, (tuple, list)) else [str(source or "")]
    return frozenset(w.lower() for text in texts for w in WORD.findall(NOT_PROSE.sub(" ", text)))


@cache
def vocabulary(lang: str) -> frozenset[str]:
    """The words a screen in ``lang`` may show: its catalog's, its rules', and the allowed ones."""
    rules = NOT_PROSE.sub(" ", " ".join(rules_text(game, lang) for game in rules_games()))
    return catalog_words(lang, False) | {w.lower() for w in WORD.findall(rules)} | ALLOWED


@cache
def english_only(lang: str) -> frozenset[str]:
    """English words (the catalog's ids and the English rules) that ``lang`` never uses."""
    rules = " ".join(rules_text(game, "en") for game in rules_games())
    english = catalog_words("en", True) | {w.lower() for w in WORD.findall(rules)}
    return frozenset(english - vocabulary(lang))


def words_of(lang: str, *messages: str) -> list[str]:
    return [translations(lang).gettext(message) for message in messages]


def cut_rows(screen: str, lang: str) -> list[str]:
    """Rows that fill the width and end in a word the language does not have: a word cut at the edge."""
    cut = []
    for row in screen.split("\n"):
        if len(row) >= COLUMNS and row[COLUMNS - 1].isalpha():
            last = WORD.findall(row[:COLUMNS])
            if last and last[-1].lower() not in vocabulary(lang) and not row.endswith(last[-1] + "."):
                cut.append(row)
    return cut


def english_left(screen: str, lang: str) -> dict[str, str]:
    """English words on the screen that the language's own words never use, each with a row that shows it."""
    if lang == "en":
        return {}
    return {
        w: row
        for row in screen.split("\n")
        for w in WORD.findall(BEHIND_FRAME.sub(" ", row))
        if w.lower() in english_only(lang)
    }


def client(*args: str) -> list[str]:
    # CARDNET_LANG is unset (the tests' own environment pins it to English) so the settings decide.
    return ["env", "-u", "CARDNET_LANG", sys.executable, "-m", "cardnet", *args]


def pane_env(home: Path) -> dict[str, str]:
    env = child_env()
    env.update(
        XDG_STATE_HOME=str(home / "state"),
        XDG_CONFIG_HOME=str(home / "config"),
        LANG="C.UTF-8",
        TERM="xterm-256color",
        USER="alice",
        CARDNET_NAME="alice",
    )
    return env


def play_to_the_end(pane: Pane, lang: str, limit: float = GAME_LIMIT) -> tuple[str, dict[str, str], list[str]]:
    """Plays every decision of this seat with ``l`` and Enter until the game is over; returns the end screen, the
    English words seen on any screen, and the rows cut mid-word."""
    turn, chooser, over = words_of(lang, "Your turn.", "Choose a move", "Game over.")
    english: dict[str, str] = {}
    cut: list[str] = []
    deadline = time.monotonic() + limit
    while True:
        assert time.monotonic() < deadline, "the game should have ended:\n" + pane.screen()
        screen = pane.screen()
        assert "Traceback" not in screen, screen
        rows = screen.split("\n")
        assert len(rows) <= ROWS and all(len(row) <= COLUMNS for row in rows), screen
        english |= english_left(screen, lang)
        cut += cut_rows(screen, lang)
        if over in screen:
            return screen, english, cut
        if turn in screen and chooser not in screen:
            pane.send("l")
            listed = pane.wait_for(lambda s: chooser in s or turn not in s or over in s, "the move list")
            if chooser in listed:
                english |= english_left(listed, lang)
                pane.send("Enter")
                pane.wait_for(lambda s: chooser not in s, "the move sent")
        time.sleep(0.02)


@pytest.mark.parametrize(
    ("game", "lang"), SWEEP if os.environ.get("CARDNET_LANGUAGE_SWEEP") == "all" else ROTATION, ids=str
)
def test_a_whole_game_in_each_language_at_80x24(game: str, lang: str, tmp_path: Path) -> None:
    players, seed = GAMES[game]
    argv = client("play", game, "--players", str(players), "--seed", str(seed), "--lang", lang)
    pane = Pane(f"lang-{game}-{lang}", argv, pane_env(tmp_path), (COLUMNS, ROWS))
    try:
        pane.wait_text(words_of(lang, "Your turn.")[0], timeout=60)
        started = time.monotonic()
        end, english, cut = play_to_the_end(pane, lang)
        print(f"{game} {lang}: {time.monotonic() - started:.1f} s")
        assert english == {}, f"English words left in {lang}:\n" + "\n".join(
            f"{w}: {row}" for w, row in english.items()
        )
        assert cut == [], f"rows cut mid-word in {lang}:\n" + "\n".join(cut)
        pane.send("C-q")
        assert pane.exit_code() == 0
    finally:
        pane.close()


def test_the_check_sees_english_and_a_cut_word() -> None:
    assert set(english_left("Sinun vuorosi. Your turn: draw a card", "fi")) >= {"turn", "draw", "card"}
    assert english_left("Sinun vuorosi. Enter pelaa, alice voittaa.", "fi") == {}
    assert cut_rows("x" * 70 + " valuutt", "fi") == []
    assert cut_rows("x" * 72 + " valuutt", "fi") == ["x" * 72 + " valuutt"]
    assert cut_rows("x" * 71 + " valuutta", "fi") == []


def assert_clean(screen: str, lang: str) -> None:
    """A screen with no English word and no row cut mid-word (floating boxes' frames aside)."""
    assert english_left(screen, lang) == {}, screen
    assert cut_rows(screen, lang) == [], screen


def config_language(home: Path) -> object:
    with (home / "config" / "cardnet" / "config.toml").open("rb") as f:
        return tomllib.load(f).get("language")


def test_f2_switches_the_language_at_once_and_a_restart_keeps_it(tmp_path: Path) -> None:
    env = pane_env(tmp_path)
    new_table = {lang: words_of(lang, "New table")[0] for lang in LANGUAGES}
    assert len(set(new_table.values())) == 4
    pane = Pane("lang-switch", client("play"), env, (COLUMNS, ROWS))
    try:
        pane.wait_text(new_table["en"])
        # F2 goes round English, Bahasa Indonesia, Español, Suomi; each press re-words the lobby at once.
        for lang in ("id", "es"):
            pane.send("F2")
            screen = pane.wait_text(new_table[lang])
            assert "Language:" not in screen and LANGUAGES[lang] in screen
        assert config_language(tmp_path) == "es"
        # The help says how to switch, in the language chosen.
        pane.send("?")
        assert "F2" in pane.wait_text(words_of("es", "Everywhere")[0])
        pane.send("Escape", "C-q")
        assert pane.exit_code() == 0
    finally:
        pane.close()
    # A restart speaks the kept language; --lang wins for one run and changes nothing kept.
    pane = Pane("lang-kept", client("play"), env, (COLUMNS, ROWS))
    try:
        pane.wait_text(new_table["es"])
        pane.send("C-q")
        assert pane.exit_code() == 0
    finally:
        pane.close()
    pane = Pane("lang-once", client("play", "--lang", "fi"), env, (COLUMNS, ROWS))
    try:
        lobby = pane.wait_text(new_table["fi"])
        assert config_language(tmp_path) == "es"
        assert_clean(lobby, "fi")
        # The new-table form of every game, and the help's pages, in Finnish's long words: nothing cut or English.
        pane.send("Enter")
        form = pane.wait_text("Up/Down:")
        for _game in GAMES:
            assert_clean(form, "fi")
            pane.send("Right")
            before = form
            form = pane.wait_for(lambda screen: screen != before, "the next game's form")
        pane.send("Escape", "?")
        for _page in range(4):
            assert_clean(pane.wait_text("| " + words_of("fi", "Help")[0] + " |"), "fi")
            pane.send("PageDown")
        pane.send("Escape")
        # ':lang CODE' picks one language by name, and keeps it.
        pane.type_line(":lang id")
        pane.wait_text(new_table["id"])
        assert config_language(tmp_path) == "id"
        pane.send("C-q")
        assert pane.exit_code() == 0
    finally:
        pane.close()
