"""The browser seat's words in one language, for ``/words/<lang>.json``.

The page's English lives in ``page/js/words.js``, each string marked for ``scripts/i18n.py extract``, which
puts it in the same gettext catalogs as the rest of cardnet under the context ``web``. The host reads the
compiled catalog (:func:`cardnet.i18n.translations`, the ``.mo`` the terminal uses) and hands the page its
entries as JSON: ``{english: translated}``, a counted noun as its singular English mapped to the list of the
language's plural forms in gettext's order. One language is built once per process, when first asked for.
"""

from __future__ import annotations

import json
from functools import cache

from ..i18n import LANGUAGES, catalog_messages

__all__ = ["WEB_CONTEXT", "web_words", "words_json"]

#: The gettext context (msgctxt) of the page's messages.
WEB_CONTEXT = "web"
# How GNU gettext keys a message with a context in a compiled catalog: the context, EOT, the message id.
_PREFIX = WEB_CONTEXT + "\x04"


def web_words(language: str) -> dict[str, str | list[str]]:
    """The page's messages in ``language`` (a code of :data:`cardnet.i18n.LANGUAGES`), keyed by their English."""
    words: dict[str, str | list[str]] = {}
    for key, text in catalog_messages(language).items():
        if key.startswith(_PREFIX):
            words[key[len(_PREFIX) :]] = text
    return words


def words_json(language: str) -> bytes | None:
    """``/words/<language>.json``'s body, or None when cardnet does not speak ``language``."""
    return _words_json(language) if language in LANGUAGES else None


@cache
def _words_json(language: str) -> bytes:
    return json.dumps(web_words(language), ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
