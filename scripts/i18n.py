#!/usr/bin/env python3
"""Keeps cardnet's gettext catalogs up to date, with Babel (`pip install babel`, in the `test` extra).

    python scripts/i18n.py extract   # python/cardnet/**.py and the web page's js/*.js -> locale/cardnet.pot
    python scripts/i18n.py update    # the template merged into each language's cardnet.po
    python scripts/i18n.py compile   # each cardnet.po -> cardnet.mo beside it
    python scripts/i18n.py           # all three, in that order
    python scripts/i18n.py check     # exit 1 if any step above would change a file, or a catalog is incomplete

The compiled `.mo` files are committed: the package is built by maturin, which copies `python/cardnet`
into the wheel as it is and runs no Python build step, so a catalog that is not in the tree is not in
the wheel. `tests/test_i18n_catalogs.py` recompiles every `.po` and fails when a committed `.mo`
differs, so the two cannot drift. English has a catalog of its own whose every entry is its message id,
so the English wording can change in the catalog without touching the code.
"""

from __future__ import annotations

import io
import string
from collections import Counter
from datetime import datetime, timezone
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "cardnet"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "cardnet.pot"
NAMES = {"en": "English", "id": "Bahasa Indonesia", "es": "Español", "fi": "Suomi"}
LANGUAGES = tuple(NAMES)
# Player-facing words are written with these (N_ marks a message translated later, when shown);
# developer logs and the wire protocol stay English and never go through them.
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "N_": None}
# The browser seat's words (python/cardnet/web/page/js/words.js): N_ a message, NN_ a counted noun's two forms.
# They share the catalogs under their own context, so the page's wording never collides with the terminal's.
WEB_PAGE = PACKAGE / "web" / "page"
WEB_KEYWORDS = {"N_": None, "NN_": (1, 2)}
WEB_CONTEXT = "web"


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "cardnet.po"


def render_po(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    # No line numbers: moving code around would otherwise rewrite every catalog.
    write_po(out, catalog, width=100, include_lineno=False, sort_output=True)
    return out.getvalue()


def render_mo(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def load(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def extracted() -> Catalog:
    """Every translatable message in the package's Python source."""
    template = Catalog(
        project="cardnet",
        domain="cardnet",
        charset="utf-8",
        header_comment="# The player-facing words of cardnet, extracted by scripts/i18n.py.",
        msgid_bugs_address="the cardnet issue tracker",
        fuzzy=False,
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("Translators:",)
    ):
        template.add(message, None, [(f"python/cardnet/{filename}", lineno)], auto_comments=comments, context=context)
    for filename, lineno, message, comments, _context in extract_from_dir(
        str(WEB_PAGE), method_map=[("js/*.js", "javascript")], keywords=WEB_KEYWORDS, comment_tags=("Translators:",)
    ):
        place = f"python/cardnet/web/page/{filename}"
        template.add(message, None, [(place, lineno)], auto_comments=comments, context=WEB_CONTEXT)
    if TEMPLATE.exists():
        # Keep the old creation date when nothing changed, so an unchanged template is byte for byte the same.
        old = load(TEMPLATE)

        def places(catalog: Catalog) -> list[tuple[object, object, list[str]]]:
            # Sorted: a catalog read back is in msgid order, a fresh extraction in source order.
            found = [(m.id, m.context, sorted({file for file, _ in m.locations})) for m in catalog if m.id]
            return sorted(found, key=repr)

        if places(old) == places(template):
            template.creation_date = old.creation_date
    return template


def updated(lang: str, template: Catalog) -> Catalog:
    """The language's catalog with the template's messages: new ones added, gone ones dropped."""
    path = po_path(lang)
    if path.exists():
        catalog = load(path, lang)
    else:
        catalog = Catalog(
            locale=lang,
            domain="cardnet",
            project="cardnet",
            header_comment=f"# cardnet's words in {NAMES[lang]}, written by the cardnet contributors (MIT licence).",
            last_translator="the cardnet contributors",
            msgid_bugs_address="the cardnet issue tracker",
            revision_date=datetime.now(timezone.utc),
            language_team=NAMES[lang],
            fuzzy=False,
        )
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    catalog.obsolete.clear()
    if lang == "en":
        # English says what the code says; its catalog is where the wording may later be changed.
        for message in catalog:
            if message.pluralizable and not any(message.string):
                # English has two forms, the singular and plural ids themselves.
                message.string = tuple(message.id)
            elif message.id and not message.string:
                message.string = message.id
    return catalog


def placeholders(text: str) -> Counter[str]:
    """Each `{field!conversion:spec}` of a str.format template, as written."""
    found: Counter[str] = Counter()
    for _, field, spec, conversion in string.Formatter().parse(text):
        if field is not None:
            found[f"{field}!{conversion or ''}:{spec or ''}"] += 1
    return found


def problems(catalog: Catalog) -> list[str]:
    """What is wrong with a catalog: untranslated or fuzzy entries, missing plural forms, placeholders that differ."""
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids: tuple[str, ...] = tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)
        strings: tuple[str, ...] = (
            tuple(message.string) if isinstance(message.string, (tuple, list)) else (message.string or "",)
        )
        name = repr(ids[0])
        if message.fuzzy:
            found.append(f"{name}: fuzzy")
        if len(strings) != (catalog.num_plurals if message.pluralizable else 1):
            found.append(f"{name}: {len(strings)} forms, the language has {catalog.num_plurals}")
        wanted = placeholders(ids[0])
        for form in strings:
            if not form:
                found.append(f"{name}: untranslated")
            elif placeholders(form) != wanted:
                found.append(f"{name}: placeholders {sorted(placeholders(form))} instead of {sorted(wanted)}")
        if len(ids) == 2 and placeholders(ids[1]) != wanted:
            found.append(f"{name}: singular and plural ids have different placeholders")
    return found


def write(path: Path, data: bytes, check: bool) -> bool:
    """Writes ``data`` unless the file already holds it; returns whether it differed."""
    if path.exists() and path.read_bytes() == data:
        return False
    if check:
        print(f"out of date: {path.relative_to(ROOT)}")
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"wrote {path.relative_to(ROOT)}")
    return True


def main(argv: list[str]) -> int:
    step = argv[0] if argv else "all"
    if step not in ("extract", "update", "compile", "all", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    check = step == "check"
    stale = False
    template = extracted()
    if step in ("extract", "all", "check"):
        stale |= write(TEMPLATE, render_po(template), check)
    if step in ("update", "all", "check"):
        for lang in LANGUAGES:
            # A fresh template each time: Catalog.update hands the template's own messages to the catalog.
            fresh = load(TEMPLATE) if TEMPLATE.exists() and not check else extracted()
            stale |= write(po_path(lang), render_po(updated(lang, fresh)), check)
    incomplete = False
    if step in ("compile", "all", "check"):
        for lang in LANGUAGES:
            catalog = load(po_path(lang), lang)
            for problem in problems(catalog):
                incomplete = True
                print(f"{lang}: {problem}", file=sys.stderr)
            stale |= write(po_path(lang).with_suffix(".mo"), render_mo(catalog), check)
    return 1 if (check and stale) or incomplete else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
