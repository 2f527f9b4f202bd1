"""Seven-segment glyphs and matchstick transforms of Matchstick Tycoon, computed by the core.

Segments are named ``a`` (top), ``b`` (upper right), ``c`` (lower right), ``d`` (bottom), ``e`` (lower
left), ``f`` (upper left), ``g`` (middle); a set of segments is a string of those letters in that order.
Values are ``0``-``9``, ``A``, ``b``, ``C``, ``d``, ``E``, ``F`` and, with the expansion, ``G``, ``H``.
Printed card types are written ``3E``/``69`` or ``3/E``/``6/9`` for the two-way cards.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, cast

from . import _core

__all__ = [
    "Transform",
    "card_types",
    "cost",
    "glyph",
    "min_cost",
    "render",
    "render_cells",
    "rotate",
    "shape",
    "transforms",
    "added_segments",
    "value_of_shape",
    "values",
]

CellKind = Literal["blank", "lit", "added"]


class Transform(NamedTuple):
    """One way a card can show a value."""

    value: str
    rotated: bool
    matchsticks: int
    #: The empty segments the matchsticks fill (letters ``a``-``g``), as Rust's ``Transform::added``.
    added: str


def values(expansion: bool = False) -> list[str]:
    """Every value, weakest first in the normal order."""
    return _core.seg_values(expansion)


def card_types(expansion: bool = False) -> list[str]:
    """Every printed card type."""
    return _core.seg_card_types(expansion)


def glyph(value: str) -> str:
    """The segments a value lights, e.g. ``glyph("6") == "acdefg"``."""
    return _core.seg_glyph(value)


def shape(card_type: str, rotated: bool = False) -> str:
    """The segments printed on a card, upright or turned 180°."""
    return _core.seg_shape(card_type, rotated)


def rotate(segments: str) -> str:
    """The segments after turning 180° (a↔d, b↔e, c↔f)."""
    return _core.seg_rotate(segments)


def value_of_shape(segments: str, expansion: bool = False) -> str | None:
    """The value whose glyph is exactly ``segments``, or None."""
    return _core.seg_value_of_shape(segments, expansion)


def cost(card_type: str, value: str, rotated: bool = False) -> int | None:
    """Matchsticks a card needs to show ``value`` in the given orientation, or None if it cannot."""
    return _core.seg_cost(card_type, value, rotated)


def min_cost(card_type: str, value: str) -> int | None:
    """Fewest matchsticks a card needs to show ``value`` either way up, or None if it cannot."""
    return _core.seg_min_cost(card_type, value)


def transforms(card_type: str, expansion: bool = False) -> list[Transform]:
    """Every value a card type can show, weakest first, upright before rotated."""
    return [Transform(v, r, k, added) for v, r, k, added in _core.seg_transforms(card_type, expansion)]


def added_segments(card_type: str, value: str, rotated: bool = False) -> str | None:
    """The empty segments matchsticks must fill for the card to show ``value``, or None if impossible."""
    for v, r, _k, added in _core.seg_transforms(card_type, True):
        if v == value and r == rotated:
            return added
    return None


def render(lit: str, added: str = "", compact: bool = False) -> list[str]:
    """A card as ASCII lines, all equally wide (5x4, or 3x3 when ``compact``); matchsticks show as
    ``=`` and ``!``. ``lit`` is the shape as the card lies (already turned if rotated)."""
    return _core.seg_render(lit, added, compact)


def render_cells(lit: str, added: str = "", compact: bool = False) -> list[list[tuple[str, CellKind]]]:
    """A card as rows of ``(char, kind)`` cells, for renderers that colour matchsticks differently."""
    return cast("list[list[tuple[str, CellKind]]]", _core.seg_render_cells(lit, added, compact))
