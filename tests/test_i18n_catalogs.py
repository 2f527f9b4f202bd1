"""The gettext catalogs (issue 32): every language's catalog translates every message the code marks, with the
same `{placeholders}` and every plural form its language needs; the committed `.mo` files are exactly what
the `.po` files compile to; and the template holds what the source marks today."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from cardnet import i18n
from cardnet.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "python" / "cardnet" / "locale"


def i18n_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def catalog(lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / "cardnet.po").open("rb") as f:
        return read_po(f, locale=lang)


def problems(cat: Catalog) -> list[str]:
    found: list[str] = i18n_script().problems(cat)
    return found


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_catalog_is_complete_with_the_same_placeholders(lang: str) -> None:
    cat = catalog(lang)
    assert cat.locale is not None and str(cat.locale) == lang
    assert len([m for m in cat if m.id]) > 0
    assert problems(cat) == []


def test_the_check_catches_a_missing_or_extra_placeholder_and_a_missing_plural_form() -> None:
    cat = Catalog(locale="fi")
    cat.add("{name} joined", "{nimi} liittyi")
    cat.add("bid {amount}", "tarjoa")
    cat.add("bid", "tarjoa {amount}")
    cat.add(("{count} card", "{count} cards"), ("{count} kortti",))
    cat.add("left untranslated", "")
    found = problems(cat)
    assert any("'{name} joined': placeholders" in p for p in found)
    assert any("'bid {amount}': placeholders" in p for p in found)
    assert any("'bid': placeholders" in p for p in found)
    assert any("'{count} card': 1 forms, the language has 2" in p for p in found)
    assert any("'left untranslated': untranslated" in p for p in found)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_committed_mo_is_what_the_po_compiles_to(lang: str) -> None:
    # maturin ships the tree as it is, so the .mo files are committed; they must never lag the .po files.
    compiled = io.BytesIO()
    write_mo(compiled, catalog(lang))
    committed = (LOCALE / lang / "LC_MESSAGES" / "cardnet.mo").read_bytes()
    assert committed == compiled.getvalue(), f"run: python scripts/i18n.py compile ({lang})"


def test_every_catalog_has_exactly_the_messages_the_source_marks() -> None:
    marked = {m.id for m in i18n_script().extracted() if m.id}
    for lang in LANGUAGES:
        assert {m.id for m in catalog(lang) if m.id} == marked, f"run: python scripts/i18n.py ({lang})"


def test_plural_rules_are_each_languages_own() -> None:
    # Indonesian has one form, Finnish and English two, Spanish three (CLDR's "many" for millions).
    assert {lang: catalog(lang).num_plurals for lang in LANGUAGES} == {"en": 2, "id": 1, "es": 3, "fi": 2}


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_the_catalog_listed_from_its_file_says_what_gettext_says(language: str) -> None:
    """``catalog_messages`` reads the .mo file itself (gettext cannot list a catalog): every message it lists
    is the text gettext gives for that key, plural forms included, and it lists the whole catalog."""
    catalog = i18n.translations(language)
    messages = i18n.catalog_messages(language)
    assert len(messages) > 100
    for key, text in messages.items():
        context, _, msgid = key.rpartition("\x04")
        if isinstance(text, list):
            said = [
                catalog.npgettext(context, msgid, msgid, n) if context else catalog.ngettext(msgid, msgid, n)
                for n in (1, 2)
            ]
            assert said[0] == text[0] and said[1] in text, key
        else:
            assert (catalog.pgettext(context, msgid) if context else catalog.gettext(msgid)) == text, key
