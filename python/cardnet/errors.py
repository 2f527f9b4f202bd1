"""The exceptions of cardnet. Every error of the Rust core maps to exactly one of these classes.

``CardnetError`` is the base (code ``internal`` when the core itself failed); the others are also
``ValueError``, like python-chess's ``IllegalMoveError``: the caller passed something unacceptable.
Every instance has ``.code`` (a stable machine word, also used on the wire) and ``.reason`` (for people);
``str(error)`` is the reason.
"""

from __future__ import annotations

__all__ = [
    "BadOptions",
    "CardnetError",
    "CorruptState",
    "IllegalMove",
    "InvalidMove",
    "UnknownGame",
]


class CardnetError(Exception):
    """Base of every cardnet error; raised as such only for an internal failure (code ``internal``)."""

    code: str
    reason: str

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(code, reason)
        self.code = code
        self.reason = reason

    def __str__(self) -> str:
        return self.reason

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, reason={self.reason!r})"


class IllegalMove(CardnetError, ValueError):
    """A well-formed move the rules refuse now.

    ``code`` says why in a word (``not_your_turn``, ``game_over``, ``no_such_move``, ``no_such_seat``
    or a game's own, such as ``not_stronger``); ``reason`` explains it.
    """


class _FixedCode(CardnetError):
    """An error whose code is fixed by its class; constructed from the reason alone."""

    default_code = "internal"

    def __init__(self, reason: str) -> None:
        super().__init__(self.default_code, reason)
        # Keep args as the constructor's so the exception pickles and reprs faithfully.
        self.args = (reason,)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r})"


class InvalidMove(_FixedCode, ValueError):
    """A move that is not even well-formed: wrong types, unknown keys, unknown card names, bad JSON."""

    default_code = "invalid_move"


class UnknownGame(_FixedCode, ValueError):
    """No game of that name."""

    default_code = "unknown_game"


class BadOptions(_FixedCode, ValueError):
    """A player count, option, seed or built-in player name that does not fit."""

    default_code = "bad_options"


class CorruptState(_FixedCode, ValueError):
    """A saved game that cannot be loaded; the reason names the first bad point."""

    default_code = "corrupt_state"
