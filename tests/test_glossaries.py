"""The glossaries (issue 32): each language's `docs/i18n/<lang>.md` lists the words chosen for cardnet's terms
and the alternatives decided against; the rules and the catalog of that language never use a rejected one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardnet.i18n import LANGUAGES
from cardnet.rulebook import rules_games, rules_text

ROOT = Path(__file__).resolve().parents[1]
GLOSSARIES = ROOT / "docs" / "i18n"
TRANSLATIONS = [lang for lang in LANGUAGES if lang != "en"]


def rejected_words(lang: str) -> dict[str, str]:
    """Each word the glossary decided against, with the English term it was an alternative for."""
    rejected: dict[str, str] = {}
    for line in (GLOSSARIES / f"{lang}.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 4 or cells[0] == "English" or set(cells[0]) <= {"-"}:
            continue
        for word in cells[2].split(","):
            if word.strip() not in ("", "–"):
                rejected[word.strip()] = cells[0]
    return rejected


def used(word: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE) is not None


def test_every_language_has_a_glossary_with_rows() -> None:
    assert sorted(p.stem for p in GLOSSARIES.glob("*.md")) == sorted(TRANSLATIONS)
    for lang in TRANSLATIONS:
        text = (GLOSSARIES / f"{lang}.md").read_text(encoding="utf-8")
        assert text.count("\n| ") > 40, lang
        for game in ("Matchstick Tycoon", "A Fistful of Gold", "Cherki", "TEN"):
            assert f"## {game}\n" in text, (lang, game)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_rules_and_catalog_never_use_a_rejected_word(lang: str) -> None:
    rejected = rejected_words(lang)
    assert rejected, "the glossary names the alternatives it decided against"
    po = (ROOT / "python" / "cardnet" / "locale" / lang / "LC_MESSAGES" / "cardnet.po").read_text(encoding="utf-8")
    catalog_strings = "\n".join(re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', po, re.MULTILINE))
    for game in rules_games():
        text = rules_text(game, lang)
        for word, term in rejected.items():
            assert not used(word, text), f"{lang}/{game}.md says {word!r}; the glossary's word for {term!r} is another"
    for word, term in rejected.items():
        assert not used(word, catalog_strings), f"{lang} catalog says {word!r} for {term!r}"


def test_the_check_sees_a_rejected_word() -> None:
    assert used("fósforo", "Cada jugador recibe 1 fósforo.") and not used("tablo", "un tablero")
