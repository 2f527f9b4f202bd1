"""The client's colours, by style class (each game's screen adds its own). With ``NO_COLOR`` set prompt_toolkit draws in one colour; the screens
then tell matchsticks and selections apart by shape (``=``/``!``, reverse video) instead of colour."""

from __future__ import annotations

from prompt_toolkit.styles import Style

from ..render.screen import all_screens

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
    "label": "#aaaaaa",
    "cursor": "reverse",
    "selected": "underline bg:#005f5f",
    "green": "bold #5fd75f",
    "face": "bold",
    "gold": "bold #ffd700",
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
    "qr": "#000000 bg:#ffffff",
}


def build_style() -> Style:
    """The style sheet of every screen: the client's own classes and each game's."""
    rules = dict(_RULES)
    for screen in all_screens():
        rules.update(screen.styles)
    return Style.from_dict(rules)
