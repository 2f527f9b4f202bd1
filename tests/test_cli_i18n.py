"""Four languages outside the full-screen client (issue 32): the move, event and table descriptions of random
games, every command's ``--help`` with argparse's own words, and a whole line-mode game speak the language
chosen, with no placeholder left and no English word beyond an allow-list of names, commands and symbols."""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.extract import extract_python

import cardnet
from cardnet import i18n, json_loads
from cardnet.argparse_words import ARGPARSE_MESSAGES, DEVELOPER_MESSAGES, translate_error
from cardnet.cli import build_parser
from cardnet.game_words import CORE_TEXTS
from cardnet.games import outcome_from_dict
from cardnet.rulebook import rules_text
from cardnet.ui.render import GenericRenderer, command_word, move_list, renderer_for, you

TRANSLATIONS = [lang for lang in i18n.LANGUAGES if lang != "en"]
GAMES = tuple(cardnet.GAMES)
WORD = re.compile(r"[^\W\d_]+")
#: Words a description may share with English: proper nouns (Cherki's honours keep their English names in
#: Finnish, as CARDAVIA's players know them) and the ids typed with moves; single letters are card faces
#: (Matchstick Tycoon's 0-F, Fistful's D) or symbols (x for "times").
SHARED_WORDS = {"Cherki", "White", "Red", "Flower", "Old", "Thousand", "id", "ID", "Bot"}


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def descriptions(game: str, players: int | None, seed: int, lang: str) -> list[str]:
    """Every line the renderer writes over one random game (seat 0's table, moves, notes, events, outcome, help),
    in ``lang``; the same seed gives the same game, so two languages' lists line up."""
    i18n.set_language(lang)
    g = cardnet.new_game(game, players=players, seed=seed)
    names = [you()] + [i18n.gettext("Seat {seat}").format(seat=s) for s in range(1, g.players)]
    renderer = renderer_for(game, names)
    rng = random.Random(seed)
    # One entry per thing drawn (a table is one entry however its lines wrap in a longer language).
    lines: list[str] = [*renderer.help(), renderer.move_words()]
    while (decision := g.decision()) is not None:
        seat, count = decision
        view: dict[str, Any] = g.view(seat)
        renderer.observe(view)
        lines.append("\n".join(renderer.table(view, seat)))
        lines.append(renderer.progress(view["public"], seat))
        moves = g.legal_moves(seat)
        lines.append("\n".join(move_list(renderer, moves, view, room=12).lines))
        for move in moves[:30]:
            lines += [renderer.move_text(move), renderer.move_note(move, view)]
        g.apply_index(seat, rng.randrange(count))
        lines += [text for event in g.events(0) if (text := renderer.event_text(event))]
    outcome = g.outcome_json()
    assert outcome is not None
    lines.append("\n".join(renderer.outcome_lines(outcome_from_dict(json_loads(outcome)))))
    return lines


def english_words(text: str) -> set[str]:
    return {word for word in WORD.findall(text) if len(word) > 1} - SHARED_WORDS


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize(("game", "players"), [*((g, None) for g in GAMES), ("ten", 1)])
def test_random_games_are_described_in_the_language(game: str, players: int | None, lang: str) -> None:
    for seed in (3, 8):
        english = descriptions(game, players, seed, "en")
        translated = descriptions(game, players, seed, lang)
        assert len(translated) == len(english)
        for before, after in zip(english, translated, strict=True):
            assert "{" not in after and "}" not in after, (lang, after)
            if after == before:
                # Only a line made of numbers, card faces and names may read the same in both languages.
                assert not english_words(after), (lang, after)


def test_the_check_sees_an_untranslated_description() -> None:
    """The comparison above fails on a line left in English (a renderer that ignores the language)."""

    class Untranslated(GenericRenderer):
        def help(self) -> list[str]:
            return ["Moves: type a number."]

    i18n.set_language("fi")
    assert english_words(Untranslated(["Sinä"]).help()[0]) == {"Moves", "type", "number"}


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    found = {"cardnet": parser}
    for action in parser._actions:  # argparse lists its sub-commands only among its actions
        if isinstance(action.choices, dict):
            found |= action.choices
    return found


#: What a --help keeps in any language: option names and metavars (the command line's own syntax), command,
#: game and player names, file and variable names, and the names of things (JSON, Elo, Ray, ...).
HELP_SYNTAX = re.compile(r"\w+\.py|\w+_\w+|\w+:\w+|--?[\w-]+|\b[A-Z][A-Z0-9_]+\b|\$?[A-Z_]{2,}|\[\w+\]|\{[\w,]+\}")
HELP_NAMES = {
    *cardnet.GAMES,
    *("game", "target", "journal", "stderr", "pentanomial"),
    *("play", "rules", "arena", "host", "join", "list", "bot", "replay", "cardnet", "usage"),
    *("easy", "normal", "hard", "random", "heuristic", "ismcts", "first", "builtin", "module", "Class"),
    *("debug", "info", "warning", "error", "Ctrl", "C", "JSON", "Elo", "Ray", "Python", "Bradley", "Terry", "IPv4"),
    *("TCP", "LAN", "CI", "GSPRT", "fsync", "alpha", "beta", "derive", "seed", "d", "s", "en", "id", "es", "fi"),
    *("game_no", "seat", "outcome", "PLAYER", "GAME", "N", "P1", "P2", "ELO0", "ELO1", "loopback", "login"),
    "h",
}


#: Words each language shares with English's help: its own words that English also has ("on" is Finnish for
#: "is"), the loanwords Indonesian and Spanish use for these things, and the glossaries' game words that are
#: English ones too (Indonesian *duel*, *bust*, *solo*; the *sheriff* of every language).
SHARED_HELP = {
    "id": {*("build", "locale", "mode", "pager", "server", "terminal", "thread", "peer", "log", "seed", "login")}
    | {"per", "port", "token", "duel", "sheriff", "bust", "solo", "total", "web"},
    "es": {"a", "no", "local", "locale", "terminal", "login", "bytes", "array", "sheriff", "total", "web"},
    "fi": {"on", "login"},
}


def help_words(text: str) -> set[str]:
    """The words of a help text that are prose: what is left after its syntax and names are taken out."""
    return {word for word in WORD.findall(HELP_SYNTAX.sub(" ", text)) if len(word) > 1} - HELP_NAMES


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_commands_help_is_in_the_language(lang: str) -> None:
    english = {name: help_words(p.format_help()) for name, p in command_parsers().items()}
    i18n.set_language(lang)
    for name, parser in command_parsers().items():
        text = parser.format_help()
        assert i18n.gettext("usage: ") in text and i18n.gettext("options") in text
        left = help_words(text) & english[name] - SHARED_HELP[lang]
        assert left == set(), (lang, name, sorted(left))


@pytest.mark.parametrize(
    ("argv", "fi"),
    [
        (["host", "--players", "x"], "cardnet host: virhe: argumentti --players: virheellinen int-arvo: 'x'"),
        (["rules"], "cardnet rules: virhe: seuraavat argumentit vaaditaan: game"),
        (["play", "--bogus"], "cardnet: virhe: tunnistamattomat argumentit: --bogus"),
        (["host", "--log-level", "loud"], "virheellinen valinta: 'loud'"),
        (["play", "--seat", "9", "--plain"], "cardnet play: virhe: argumentti --seat: 4 pelaajan pelissä paikat"),
    ],
)
def test_usage_errors_are_in_the_language(argv: list[str], fi: str) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "cardnet", "--lang", "fi", *argv], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2
    assert fi in out.stderr, out.stderr
    assert "usage:" not in out.stderr and "error:" not in out.stderr


def test_argparse_errors_are_read_back_and_written_in_the_language() -> None:
    i18n.set_language("es")
    message = "argument --level: invalid choice: 'x' (choose from 'easy', 'hard')"
    assert translate_error(message) == "argumento --level: opción no válida: 'x' (elige entre 'easy', 'hard')"
    # cardnet's own messages are translated where they are written: left as they are.
    assert translate_error("ELO0 debe ser menor que ELO1") == "ELO0 debe ser menor que ELO1"


def test_every_message_of_this_pythons_argparse_is_listed() -> None:
    """A Python whose argparse has a new message fails here, so it is translated (or listed as a developer's)."""
    with open(argparse.__file__, "rb") as source:
        found = {
            message if isinstance(message, str) else message[0]
            for _, _, message, _ in extract_python(source, {"_": None, "ngettext": (1, 2)}, [], {})
            if message
        }
    assert found == set(ARGPARSE_MESSAGES) | set(DEVELOPER_MESSAGES)


def line_mode_game(game: str, lang: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "cardnet", "--lang", lang, "play", "--plain", game, "--seed", "4"],
        input="help\n" + "1\n" * 4000,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "80", "LINES": "24"},
    )
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    return out.stdout


#: What a line-mode game may show in any language besides the game's own words: its command lines (cardnet play
#: --resume JOURNAL) and key names; paths (the journal's) are left out before the words are read.
LINE_NAMES = {"cardnet", "play", "resume", "JOURNAL", "Ctrl"}
PATH = re.compile(r"\S*/\S*")


@pytest.mark.parametrize("game", ["matchstick", "cherki"])
def test_a_line_mode_game_in_finnish_has_no_english_word(game: str) -> None:
    english = line_mode_game(game, "en")
    finnish = line_mode_game(game, "fi")
    i18n.set_language("fi")
    assert f"{i18n.gettext('Game over ({kind}).').split('(')[0].strip()} (" in finnish
    title = set(WORD.findall(cardnet.GAMES[game].title))
    vocabulary = english_words(PATH.sub(" ", english)) - LINE_NAMES - title
    left = (english_words(PATH.sub(" ", finnish)) - LINE_NAMES - title - SHARED_HELP["fi"]) & vocabulary
    # Typed words answer in English too, but the game itself says them in Finnish.
    assert command_word("help") in finnish
    assert left == set(), sorted(left)
    # Longer words still fit: line mode wraps what would run past 80 columns (the journal's path aside).
    assert [line for line in finnish.splitlines() if len(line) > 80 and "/" not in line] == []


#: Each language's heading of the rules' last section, which says how to play the game in cardnet.
HOW_TO = {"id": "Cara memainkannya di sini", "es": "Cómo jugarlo aquí", "fi": "Näin pelaat sitä täällä"}


def first_move_words(game: str) -> set[str]:
    """The first word of every move line mode lists, in the current language, over a few random games."""
    words: set[str] = set()
    for players, seed in [(None, s) for s in range(4)] + ([(1, 1), (3, 2)] if game == "ten" else []):
        g = cardnet.new_game(game, players=players, seed=seed)
        renderer = renderer_for(game, [you()] * g.players)
        rng = random.Random(seed)
        while (decision := g.decision()) is not None:
            seat, count = decision
            renderer.observe(g.view(seat))
            words |= {renderer.move_text(move).split()[0] for move in g.legal_moves(seat)[:40]}
            g.apply_index(seat, rng.randrange(count))
    return words


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("game", GAMES)
def test_each_languages_rules_name_the_words_line_mode_shows(game: str, lang: str) -> None:
    i18n.set_language(lang)
    how = rules_text(game, lang).split(f"## {HOW_TO[lang]}\n", 1)[1].split("\n## ", 1)[0]
    for word in sorted(first_move_words(game)):
        assert f"`{word}" in how, (lang, game, word)
    for command in ("list", "more", "table", "help", "quit"):
        assert f"`{command_word(command)}" in how, (lang, game, command)


def test_every_text_the_core_writes_about_a_game_is_listed_for_translation() -> None:
    texts = set()
    for info in cardnet.GAMES.values():
        texts |= {info.summary, *info.house_rules_players.values(), *(spec.doc for spec in info.options)}
    assert texts == CORE_TEXTS


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_rules_summary_is_in_the_language(lang: str) -> None:
    english = {game: help_words(summary_text(game, "en")) for game in GAMES}
    for game in GAMES:
        left = help_words(summary_text(game, lang)) & english[game] - SHARED_HELP[lang]
        # The title, and option names and values, which are typed as they are (solo_target, short, true).
        left -= set(WORD.findall(cardnet.GAMES[game].title)) | {"true", "false"}
        left -= {word for spec in cardnet.GAMES[game].options for word in WORD.findall(f"{spec.name} {spec.choices}")}
        assert left == set(), (lang, game, sorted(left))


def summary_text(game: str, lang: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "cardnet", "--lang", lang, "rules", game, "--summary"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_hosts_refusal_to_join_speaks_the_players_language() -> None:
    from cardnet.commands.net import HOST_REFUSALS, explain_refusal
    from cardnet.protocol.peer import NEEDS_PASSWORD, PeerError

    i18n.set_language("es")
    # Each refusal a joiner meets reads as the web page says it, its code kept for scripts.
    for code, english in HOST_REFUSALS.items():
        assert i18n.pgettext("web", english) != english, code
    needs = explain_refusal(PeerError("auth_failed", NEEDS_PASSWORD), "t")
    assert needs.startswith("Esta mesa pide su contraseña (auth_failed); da la contraseña con --password-file")
    wrong = explain_refusal(PeerError("auth_failed", "wrong or missing password proof"), "t")
    assert "wrong or missing" not in wrong and "(auth_failed)" in wrong
    full = explain_refusal(PeerError("table_full", "every seat is taken"), "t", spectating=True)
    assert full == "Todos los asientos están ocupados (table_full)"
    # A code with no words of its own keeps the host's reason.
    assert explain_refusal(PeerError("odd_code", "the host's words"), "t") == "the host's words (odd_code)"


def test_the_lang_help_names_every_source_the_readme_lists_in_order() -> None:
    # README § Languages: --lang, then CARDNET_LANG, then the language kept with F2, then the locale, then English.
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command in [parser, *sub.choices.values()]:
        text = " ".join(command.format_help().split())
        at = [text.index(word) for word in ("$CARDNET_LANG", "F2", "locale", "else en)")]
        assert at == sorted(at), (command.prog, text[at[0] - 60 :])


def test_the_bots_closing_line_counts_its_wins_in_the_language() -> None:
    import io

    from cardnet.bot import FirstBot
    from cardnet.commands.bot_report import ReportingBot

    report = ReportingBot(FirstBot(), io.StringIO())
    report.seat = 0
    i18n.set_language("es")
    report.tally.games, report.tally.wins = 1, 1
    assert report.summary("hard", 13) == "hard en el asiento 0: 1 partida jugada, 1 ganada, 13 jugadas."
    report.tally.games, report.tally.wins = 3, 2
    assert ", 2 ganadas," in report.summary("hard", 40)
    i18n.set_language("en")
    assert report.summary("hard", 40) == "hard at seat 0: 3 games played, 2 won, 40 moves."
