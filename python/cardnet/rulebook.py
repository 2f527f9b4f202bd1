"""The full rules of every game, in the project's own words.

The text ships inside the package (``cardnet/rules/<game>.md``, Markdown that reads as plain text in a
terminal); ``docs/rules/`` in the source tree holds the same files for readers of the repository, and a
test keeps the two identical. ``cardnet rules GAME`` prints this text, and the full-screen client shows it
on ``?``.
"""

from __future__ import annotations

from importlib import resources

from .errors import UnknownGame

__all__ = ["rules_games", "rules_text"]


def rules_games() -> list[str]:
    """The games whose rules ship with the package, sorted by name."""
    folder = resources.files("cardnet") / "rules"
    return sorted(entry.name[: -len(".md")] for entry in folder.iterdir() if entry.name.endswith(".md"))


def rules_text(game: str) -> str:
    """The whole rules of ``game`` (``"matchstick"``, ``"fistful"``, ...) as Markdown text.

    Raises :class:`~cardnet.UnknownGame` when no rules ship for that name.
    """
    if game not in rules_games():
        known = ", ".join(rules_games())
        raise UnknownGame(f"no rules for {game!r} (games: {known})")
    return (resources.files("cardnet") / "rules" / f"{game}.md").read_text(encoding="utf-8")
