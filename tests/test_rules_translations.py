"""The rules in every language (issue 32): each translation has the English text's sections, in the same
order and at the same levels, and every section states the same numbers (card counts, scores, limits) and
the same typed words (commands, card names, options in backquotes); `docs/rules/` only links to the
package's files; `cardnet rules GAME --lang L` prints them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

import cardnet
from cardnet.i18n import LANGUAGES, UnknownLanguage
from cardnet.rulebook import rules_text

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_RULES = ROOT / "python" / "cardnet" / "rules"
DOCS_RULES = ROOT / "docs" / "rules"
GAMES = list(cardnet.GAMES)
TRANSLATIONS = [lang for lang in LANGUAGES if lang != "en"]
HEADING = re.compile(r"^(#+) ", re.MULTILINE)


def sections(text: str) -> list[tuple[int, str]]:
    """The text cut at its headings: (heading level, body) for the part before the first heading and each section."""
    parts: list[tuple[int, str]] = []
    starts = [(m.start(), len(m.group(1))) for m in HEADING.finditer(text)]
    bounds = [(0, 0), *starts, (len(text), 0)]
    for (start, level), (end, _) in zip(bounds, bounds[1:]):
        parts.append((level, text[start:end]))
    return parts


def numbers(section: str) -> Counter[str]:
    return Counter(re.findall(r"\d+", section))


def typed_words(section: str) -> Counter[str]:
    """What a reader types or reads on the screen, quoted in backquotes: it stays as it is in every language."""
    return Counter(" ".join(quoted.split()) for quoted in re.findall(r"`([^`]+)`", section))


def typed_shapes(section: str) -> Counter[str]:
    """The backquoted words of the rules' last section (how to play the game in cardnet) with each run of words
    as ``W``: line mode shows and reads its move words and commands in the reader's language there (``pelaa 8
    2 5``), so only their numbers and symbols must match English's; tests/test_cli_i18n.py checks the words are
    the ones line mode shows."""
    return Counter(re.sub(r"[^\W\d_]+(?:\s+[^\W\d_]+)*", "W", quoted) for quoted in typed_words(section).elements())


def columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("game", GAMES)
def test_translation_has_the_english_sections_numbers_and_typed_words(game: str, lang: str) -> None:
    english = sections(rules_text(game))
    translated = sections(rules_text(game, lang))
    assert [level for level, _ in translated] == [level for level, _ in english], "headings differ in number or level"
    assert translated[1][1].splitlines()[0] == english[1][1].splitlines()[0], "the title is the game's name"
    for index, ((_, ours), (_, theirs)) in enumerate(zip(translated, english)):
        where = f"{lang}/{game}.md section {index} ({ours.splitlines()[0] if ours else 'start'})"
        assert numbers(ours) == numbers(theirs), (
            f"{where}: numbers differ: {numbers(ours) - numbers(theirs)} extra, {numbers(theirs) - numbers(ours)} missing"
        )
        if index < len(english) - 1:
            assert typed_words(ours) == typed_words(theirs), f"{where}: backquoted words differ"
        else:
            assert typed_shapes(ours) == typed_shapes(theirs), f"{where}: backquoted commands differ"
    for line in rules_text(game, lang).splitlines():
        assert columns(line) <= 80, line


def test_a_changed_number_is_caught() -> None:
    # The check above must notice one changed number, such as a 10-token limit written as 11.
    english = sections(rules_text("ten"))
    changed = [(level, body.replace("**10 tokens**", "**11 tokens**")) for level, body in english]
    assert any(numbers(a) != numbers(b) for (_, a), (_, b) in zip(changed, english))


def test_every_language_has_every_game_and_nothing_else() -> None:
    assert sorted(p.name for p in PACKAGE_RULES.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(
        TRANSLATIONS
    )
    for lang in TRANSLATIONS:
        assert sorted(p.stem for p in (PACKAGE_RULES / lang).iterdir()) == sorted(GAMES), lang


def test_docs_rules_links_to_the_package_files() -> None:
    # One source of truth: the package's files are what `cardnet rules` prints; docs/ only points at them.
    for game in GAMES:
        link = DOCS_RULES / f"{game}.md"
        assert link.is_symlink() and link.resolve() == (PACKAGE_RULES / f"{game}.md").resolve(), game
    for lang in TRANSLATIONS:
        link = DOCS_RULES / lang
        assert link.is_symlink() and link.resolve() == (PACKAGE_RULES / lang).resolve(), lang


def test_unknown_language_is_refused_by_name() -> None:
    with pytest.raises(UnknownLanguage, match="'de'.*fi \\(Suomi\\)"):
        rules_text("ten", "de")
    assert rules_text("ten", "fi_FI.UTF-8") == rules_text("ten", "fi")


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("CARDNET_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "cardnet", *args], capture_output=True, text=True, timeout=60, env=environ
    )


def test_cardnet_rules_speaks_the_chosen_language() -> None:
    assert run("rules", "ten", "--lang", "id").stdout == rules_text("ten", "id")
    assert run("--lang=es", "rules", "cherki").stdout == rules_text("cherki", "es")
    assert run("rules", "fistful", CARDNET_LANG="fi").stdout == rules_text("fistful", "fi")
    assert run("rules", "matchstick", LANG="es_ES.UTF-8").stdout == rules_text("matchstick", "es")
    # --lang beats CARDNET_LANG, which beats the locale; LC_ALL beats LANG; a locale cardnet lacks means English.
    assert run("rules", "ten", "--lang", "en", CARDNET_LANG="fi").stdout == rules_text("ten")
    assert run("rules", "ten", CARDNET_LANG="id", LC_ALL="fi_FI.UTF-8").stdout == rules_text("ten", "id")
    assert run("rules", "ten", LC_ALL="de_DE.UTF-8", LANG="fi_FI.UTF-8").stdout == rules_text("ten")


def test_cardnet_rules_refuses_an_unknown_language() -> None:
    out = run("rules", "ten", "--lang", "klingon")
    assert out.returncode == 2 and out.stdout == ""
    assert "'klingon'" in out.stderr and "id (Bahasa Indonesia)" in out.stderr
    out = run("rules", "ten", CARDNET_LANG="xx")
    assert out.returncode == 2 and "'xx'" in out.stderr and "CARDNET_LANG" in out.stderr
