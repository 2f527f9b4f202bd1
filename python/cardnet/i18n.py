"""Which language cardnet speaks to a player, and its words in that language.

cardnet speaks English (``en``), Bahasa Indonesia (``id``), Español (``es``) and Suomi (``fi``), the
languages its games came to us in. The words live in GNU gettext catalogs inside the package
(``cardnet/locale/<lang>/LC_MESSAGES/cardnet.mo``, compiled from the ``.po`` files beside them by
``scripts/i18n.py``), read with the standard library's :mod:`gettext`; Babel is needed only to extract
and compile them, never at run time.

The language is chosen, first match wins, from: the ``--lang`` option, the ``CARDNET_LANG`` environment
variable, the ``language`` the full-screen client's settings remembered in ``config.toml``, the locale variables ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` (the first one set decides, as
in POSIX: ``LC_ALL=de_DE.UTF-8`` means German, which cardnet lacks, so English), then English. Each
process speaks one language; players at one table may each use their own.
"""

from __future__ import annotations

import gettext as _gettext
import os
import struct
from collections.abc import Mapping
from functools import cache
from importlib import resources

from .errors import _FixedCode

__all__ = [
    "DEFAULT_LANGUAGE",
    "ENV_VAR",
    "LANGUAGES",
    "N_",
    "UnknownLanguage",
    "catalog_messages",
    "choose_language",
    "current_language",
    "format_number",
    "gettext",
    "language_from_locale",
    "ngettext",
    "parse_language",
    "pgettext",
    "set_language",
    "translations",
]

#: Every language cardnet speaks, by its code, with its name in that language.
LANGUAGES: dict[str, str] = {"en": "English", "id": "Bahasa Indonesia", "es": "Español", "fi": "Suomi"}
DEFAULT_LANGUAGE = "en"
#: The environment variable that names cardnet's language, ahead of the locale.
ENV_VAR = "CARDNET_LANG"
#: The locale variables consulted after ``CARDNET_LANG``, strongest first.
LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")
DOMAIN = "cardnet"

# Codes a locale may carry for a language cardnet speaks under another code: "in" is the ISO 639
# code Indonesian had until 1989, which Java and some systems still use.
_ALIASES = {"in": "id"}


class UnknownLanguage(_FixedCode, ValueError):
    """A language cardnet does not speak was asked for by name (``--lang`` or ``CARDNET_LANG``)."""

    default_code = "unknown_language"


def _base_code(tag: str) -> str:
    """The language part of a locale name or language tag: ``fi_FI.UTF-8@euro`` and ``es-MX`` give ``fi``, ``es``."""
    for cut in ".@":
        tag = tag.split(cut, 1)[0]
    code = tag.replace("-", "_").split("_", 1)[0].strip().lower()
    return _ALIASES.get(code, code)


def parse_language(value: str) -> str:
    """The language code a player typed (``fi``, ``es_ES``, ``id-ID``), checked.

    Raises :class:`UnknownLanguage` naming the languages cardnet speaks when it is not one of them.
    """
    code = _base_code(value)
    if code not in LANGUAGES:
        known = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        raise UnknownLanguage(gettext("no language {value!r}; cardnet speaks {known}").format(value=value, known=known))
    return code


def language_from_locale(environ: Mapping[str, str]) -> str | None:
    """The language the locale variables name, or ``None`` when they name none that cardnet speaks.

    The first non-empty variable of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` decides, as it does for every
    program; ``C`` and ``POSIX`` (no language at all) and languages cardnet lacks give ``None``.
    """
    for var in LOCALE_VARS:
        value = environ.get(var, "")
        if value:
            code = _base_code(value)
            return code if code in LANGUAGES else None
    return None


def choose_language(
    option: str | None = None, environ: Mapping[str, str] | None = None, saved: str | None = None
) -> str:
    """The language to speak: ``option`` (the ``--lang`` value), else ``CARDNET_LANG``, else ``saved`` (the
    language the player chose in the full-screen client's settings, kept in ``config.toml``), else the locale,
    else English.

    The one-off choices come first so that ``--lang`` or ``CARDNET_LANG`` can show one command in another
    language without changing what the player chose to keep; the kept choice beats the locale, which the player
    did not choose for cardnet. An explicit choice (the option or ``CARDNET_LANG``) that names no language
    cardnet speaks raises :class:`UnknownLanguage`; a saved or locale language cardnet has no catalog for
    quietly means the next in line.
    """
    env = os.environ if environ is None else environ
    if option:
        return parse_language(option)
    named = env.get(ENV_VAR, "")
    if named:
        return parse_language(named)
    if saved and saved in LANGUAGES:
        return saved
    return language_from_locale(env) or DEFAULT_LANGUAGE


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``language`` shipped in the package (English's when the code is unknown)."""
    code = language if language in LANGUAGES else DEFAULT_LANGUAGE
    folder = resources.files("cardnet") / "locale" / code / "LC_MESSAGES"
    with (folder / f"{DOMAIN}.mo").open("rb") as mo:
        return _gettext.GNUTranslations(mo)


def catalog_messages(language: str) -> dict[str, str | list[str]]:
    """Every message of ``language``'s compiled catalog: its key (``context\\x04id`` for a message with a
    context; the singular id for a plural one) mapped to its text, or a plural one to the list of its forms in
    gettext's order.

    Read from the ``.mo`` file by its documented layout (GNU gettext manual, "The Format of GNU MO Files"),
    because :mod:`gettext` looks messages up one by one and offers no public way to list them.
    """
    code = language if language in LANGUAGES else DEFAULT_LANGUAGE
    data = (resources.files("cardnet") / "locale" / code / "LC_MESSAGES" / f"{DOMAIN}.mo").read_bytes()
    order = "<" if data[:4] == b"\xde\x12\x04\x95" else ">"
    count, originals, texts = struct.unpack_from(order + "3I", data, 8)
    messages: dict[str, str | list[str]] = {}
    for index in range(count):
        id_length, id_offset = struct.unpack_from(order + "2I", data, originals + 8 * index)
        text_length, text_offset = struct.unpack_from(order + "2I", data, texts + 8 * index)
        msgid = data[id_offset : id_offset + id_length].decode()
        if msgid:  # the empty id is the catalog's header
            text = data[text_offset : text_offset + text_length].decode()
            singular, *plural = msgid.split("\x00", 1)
            messages[singular] = text.split("\x00") if plural else text
    return messages


_current = DEFAULT_LANGUAGE


def set_language(language: str) -> None:
    """Speak ``language`` (a code of :data:`LANGUAGES`) from now on in this process."""
    global _current
    _current = parse_language(language)


def current_language() -> str:
    """The code of the language this process speaks now."""
    return _current


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(_current).gettext(message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs and returns it unchanged: it is translated later, when shown, with
    :func:`gettext` (for words kept in constants, which must follow a language switched while running)."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message that fits ``count`` in the current language (its own plural rules)."""
    return translations(_current).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where ``context`` tells apart the same English word used twice
    (``pass`` in Matchstick Tycoon and in TEN's auction are different words in Finnish)."""
    return translations(_current).pgettext(context, message)


# Each language's decimal sign and thousands separator, as Babel's CLDR data has them (Finnish groups with a
# no-break space). ``tests/test_i18n_numbers.py`` checks them against Babel, so they cannot drift from it.
_NUMBER_SYMBOLS: dict[str, tuple[str, str]] = {
    "en": (".", ","),
    "id": (",", "."),
    "es": (",", "."),
    "fi": (",", "\u00a0"),
}


def format_number(value: float, decimals: int = 0) -> str:
    """``value`` as the current language writes numbers, rounded to ``decimals`` digits: ``1,234.5`` in English,
    ``1.234,5`` in Indonesian and Spanish, ``1\u00a0234,5`` in Finnish (a value that rounds to zero has no sign).

    Four languages need two symbols each; Babel's full CLDR data would be a run-time dependency of some
    megabytes for them, so they are kept here (and checked against Babel, a test dependency, in the tests).
    """
    point, group = _NUMBER_SYMBOLS.get(_current, _NUMBER_SYMBOLS[DEFAULT_LANGUAGE])
    text = f"{abs(value):.{decimals}f}"
    whole, _dot, fraction = text.partition(".")
    head = len(whole) % 3 or 3
    whole = whole[:head] + "".join(group + whole[i : i + 3] for i in range(head, len(whole), 3))
    sign = "-" if value < 0 and any(c not in "0." for c in text) else ""
    return sign + whole + (point + fraction if fraction else "")
