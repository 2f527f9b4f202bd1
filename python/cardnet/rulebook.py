"""The full rules of every game, in the project's own words, in every language cardnet speaks.

The text ships inside the package, Markdown that reads as plain text in a terminal: the English rules
are ``cardnet/rules/<game>.md``, and each translation is ``cardnet/rules/<lang>/<game>.md``, the same
sections and the same numbers (a test checks both). Those files are the one source: ``docs/rules/`` in
the source tree only links to them, for readers of the repository. ``cardnet rules GAME`` prints this
text, and the full-screen client shows it on ``?``.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from .errors import UnknownGame
from .i18n import DEFAULT_LANGUAGE, parse_language

__all__ = ["rules_games", "rules_text"]


def _folder(language: str) -> Traversable:
    folder = resources.files("cardnet") / "rules"
    return folder if language == DEFAULT_LANGUAGE else folder / language


def rules_games() -> list[str]:
    """The games whose rules ship with the package, sorted by name."""
    folder = _folder(DEFAULT_LANGUAGE)
    return sorted(entry.name[: -len(".md")] for entry in folder.iterdir() if entry.name.endswith(".md"))


def rules_text(game: str, language: str = DEFAULT_LANGUAGE) -> str:
    """The whole rules of ``game`` (``"matchstick"``, ``"fistful"``, ...) as Markdown text, in ``language``.

    ``language`` is a code of :data:`cardnet.i18n.LANGUAGES` (``"en"``, ``"id"``, ``"es"``, ``"fi"``).
    Raises :class:`~cardnet.UnknownGame` when no rules ship for that name, and
    :class:`~cardnet.i18n.UnknownLanguage` for a language cardnet does not speak.
    """
    code = parse_language(language)
    if game not in rules_games():
        known = ", ".join(rules_games())
        raise UnknownGame(f"no rules for {game!r} (games: {known})")
    return (_folder(code) / f"{game}.md").read_text(encoding="utf-8")
