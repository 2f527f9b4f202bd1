"""The browser seat's words in the gettext catalogs (issue 32): every string of the page's word tables
(`page/js/words.js`) is marked for extraction, the catalogs hold exactly what is marked (under msgctxt "web"),
and the host's `/words/<lang>.json` hands the page each language's translations and plural forms."""

from __future__ import annotations

import json
import re
from pathlib import Path

from babel.messages.pofile import read_po

from cardnet.i18n import LANGUAGES
from cardnet.web.words import WEB_CONTEXT, web_words, words_json

ROOT = Path(__file__).resolve().parents[1]
WORDS_JS = ROOT / "python" / "cardnet" / "web" / "page" / "js" / "words.js"
TEMPLATE = ROOT / "python" / "cardnet" / "locale" / "cardnet.pot"
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
# Right before a marked string: `N_(`, or `NN_(` and the singular (for the plural).
MARK_BEFORE = re.compile(r'\bNN?_\(\s*(?:"(?:[^"\\\n]|\\.)*"\s*,\s*)?$')


def table_source() -> str:
    """words.js's word tables, from the first table to the list of them all, without whole-line comments."""
    source = WORDS_JS.read_text(encoding="utf-8")
    tables = source[source.index("export const UI = {") : source.index("const TABLES = {")]
    return "\n".join(line for line in tables.splitlines() if not line.lstrip().startswith("//"))


def marked_and_unmarked() -> tuple[set[str], list[str]]:
    """The strings passed to N_/NN_, and every other string literal that is not an object key."""
    source = table_source()
    marked: set[str] = set()
    unmarked: list[str] = []
    for literal in STRING.finditer(source):
        # The tables' strings are double-quoted, which JSON reads as JavaScript does.
        text = json.loads(literal.group())
        if MARK_BEFORE.search(source, 0, literal.start()):
            marked.add(text)
        elif not source[literal.end() :].lstrip().startswith(":"):
            unmarked.append(text)
    return marked, unmarked


def test_every_string_of_the_page_s_word_tables_is_marked_for_extraction() -> None:
    marked, unmarked = marked_and_unmarked()
    assert not unmarked, f"strings in words.js not wrapped in N_/NN_: {unmarked}"
    # The scan did see the tables (the English plural of a counted noun included).
    assert {"Join", "Watch", "{n} card", "{n} cards"} <= marked


def test_the_catalog_template_holds_exactly_the_page_s_marked_strings() -> None:
    marked, _ = marked_and_unmarked()
    with TEMPLATE.open("rb") as f:
        template = read_po(f)
    extracted: set[str] = set()
    for message in template:
        if message.context == WEB_CONTEXT:
            ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
            extracted.update(str(i) for i in ids)
    assert extracted == marked


def test_each_language_has_every_web_word_with_its_plural_forms() -> None:
    english = web_words("en")
    assert english["Join"] == "Join" and english["{n} card"] == ["{n} card", "{n} cards"]
    forms = {"en": 2, "id": 1, "es": 3, "fi": 2}
    for lang in LANGUAGES:
        words = web_words(lang)
        assert words.keys() == english.keys(), lang
        assert len(words["{n} card"]) == forms[lang], lang
    assert web_words("fi")["Your turn."] == "Sinun vuorosi."
    assert words_json("xx") is None and words_json("fi") == words_json("fi")
