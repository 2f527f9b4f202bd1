"""The full-screen client's words kept in constants (issue 32): the core's English summaries and option docs are
in the catalogs through each game screen's copy, and every key's words, help note and form label are marked, so
each translates when shown (and follows a language switched while running)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import cardnet
from cardnet import i18n
from cardnet.ui.app.commands import COMMANDS
from cardnet.ui.app.layout import CONTEXT_NAMES, HELP_TEXT
from cardnet.ui.app.lobby import LEVEL_WORDS, MONTHS, WEEKDAYS, WHEN_PLAYED, when_played
from cardnet.ui.render.screen import screen_for

TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
def test_each_screen_labels_every_option_and_words_its_values(game: str) -> None:
    info, screen = cardnet.GAMES[game], screen_for(game)
    for spec in info.options:
        assert spec.name in screen.option_labels, (game, spec.name)
    # Every worded value names a value the option has.
    for key in screen.option_values:
        name, _sep, value = key.partition("=")
        assert value in [str(choice) for choice in info.option(name).choices or ()], key


def constant_words() -> list[str]:
    words = [*HELP_TEXT.values(), *CONTEXT_NAMES.values(), *LEVEL_WORDS.values(), *WEEKDAYS, *MONTHS]
    words += [text for command in COMMANDS for text in (command.shown, command.doc) if text]
    for game in cardnet.GAMES:
        screen = screen_for(game)
        words += [screen.help_note, *screen.option_labels.values(), *screen.option_values.values()]
        words += [text for key in screen.keys for text in (key.shown, key.doc, key.what) if text]
    return words


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_constant_word_translates(lang: str) -> None:
    i18n.set_language(lang)
    same = [word for word in constant_words() if i18n.gettext(word) == word]
    # A word may be the same in a language ("normal", "Pot", "/ chat"), but never a sentence.
    assert [word for word in same if len(word.split()) >= 3] == [], same


def test_status_words_keep_their_key_first() -> None:
    for lang in TRANSLATED:
        i18n.set_language(lang)
        for command in COMMANDS:
            if command.shown:
                assert i18n.gettext(command.shown).split(" ", 1)[0] == command.shown.split(" ", 1)[0], (lang, command)


def test_when_played_speaks_the_language() -> None:
    # 3 December, 21:40, a week before "now" (whatever the machine's time zone, the date stays a week back).
    import time

    then = time.mktime((2026, 12, 3, 21, 40, 0, 0, 0, -1))
    now = then + 8 * 86400
    assert when_played(then, now) == "3 Dec 21:40"
    i18n.set_language("fi")
    assert when_played(then, now) == "3. jouluk. 21:40"
    assert when_played(now - 60, now).startswith("tänään ")
    i18n.set_language("es")
    assert when_played(then, now) == "3 dic 21:40"
    assert set(WHEN_PLAYED) == {"today", "yesterday", "this_week", "earlier"}


def test_a_long_message_wraps_at_words_and_the_status_line_leaves_out_whole_keys() -> None:
    from cardnet.ui.app.layout import MESSAGE_ROWS, _message_lines, _status
    from cardnet.ui.app.state import AppState, TableState

    i18n.set_language("fi")
    st = AppState(screen="table", table=TableState.open("ten", 2, 0, "t"))
    st.error = i18n.gettext("Not connected: your move can wait until the client is back at the table.") * 2
    lines = ["".join(text for _style, text in line) for line in _message_lines(st, 80)]
    assert 1 < len(lines) <= MESSAGE_ROWS and all(len(line) <= 80 for line in lines)
    words = st.error.split()
    assert " ".join(" ".join(lines).split()) == " ".join(words), "every word whole, in order"
    for width in (40, 80, 200):
        status = "".join(fragment[1] for fragment in _status(st, width))
        assert len(status.rstrip()) <= width
        # What is shown is whole items: each key with its word.
        assert "? ohje" in status or width < 40


@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
def test_the_status_line_offers_p_only_in_a_game_that_passes(game: str) -> None:
    from cardnet.ui.app.layout import _status
    from cardnet.ui.app.state import AppState, TableState

    st = AppState(screen="table", table=TableState.open(game, cardnet.GAMES[game].default_players, 0, "t"))
    status = "".join(fragment[1] for fragment in _status(st, 200))
    # Fistful and Cherki have no pass: a 'p pass' there would only ever be refused.
    assert ("p pass" in status) == (game in ("matchstick", "ten")), status
