"""The client's colours, by style class. With ``NO_COLOR`` set prompt_toolkit draws in one colour; the screens
then tell matchsticks and selections apart by shape (``=``/``!``, reverse video) instead of colour."""

from __future__ import annotations

from prompt_toolkit.styles import Style

__all__ = ["build_style"]

_RULES = {
    "title": "reverse bold",
    "status": "reverse",
    "status.key": "reverse bold",
    "heading": "bold",
    "dim": "#888888",
    "rule": "#666666",
    "log": "",
    "message": "bold",
    "error": "bold #ff5555",
    "turn": "bold #ffd75f",
    "banner": "reverse bold #ff5555",
    "seg.lit": "bold",
    "seg.added": "bold #ff8700",
    "seg.blank": "",
    "label": "#aaaaaa",
    "cursor": "reverse",
    "selected": "underline bg:#005f5f",
    "pink": "bold #ff5fd7",
    "green": "bold #5fd75f",
    "face": "bold",
    "gold": "bold #ffd700",
    "coins": "bold #ffd700",
    "strings": "bold #5fd75f",
    "myriads": "bold #5f87ff",
    "honour": "bold",
    "stamp": "bold #ff5555",
    "star": "bold #ffd700",
    "revolution": "reverse bold #ff5555",
    "ten.red": "bold #ff5f5f",
    "ten.blue": "bold #5f87ff",
    "ten.orange": "bold #ff8700",
    "ten.green": "bold #5fd75f",
    "ten.currency": "bold #ffd700",
    "ten.wild": "bold #d787ff",
    "seat": "",
    "seat.me": "bold",
    "seat.turn": "bold #ffd75f",
    "choice": "",
    "choice.cursor": "reverse",
    "help": "",
    "md.strong": "bold",
    "md.em": "italic",
    "md.code": "#87d7ff",
    "frame.label": "bold",
}


def build_style() -> Style:
    """The style sheet of every screen."""
    return Style.from_dict(_RULES)
