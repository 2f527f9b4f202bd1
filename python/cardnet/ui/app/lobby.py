"""The lobby's model: where table listings come from, the entries shown, and the new-table form's fields.

Listings come from a :class:`ListingSource`. Manual ``--connect HOST:PORT`` addresses are one; LAN discovery's
``browse()`` is another that drops in without changing the lobby (each item it yields replaces the list).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...games import GAMES, OptionSpec
from .state import LobbyEntry, NewTableForm

__all__ = [
    "LEVELS",
    "ListingSource",
    "ManualListings",
    "form_change",
    "form_fields",
    "form_settings",
    "new_form",
    "parse_address",
]

#: Built-in player levels offered by the form (the first is the default for a new table).
LEVELS = ("normal", "easy", "hard", "random")


class ListingSource(Protocol):
    """Something that yields the current list of tables to join, again whenever it changes."""

    def listings(self) -> AsyncIterator[list[LobbyEntry]]:
        """Each item is the whole current list."""
        ...


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a pair; raises ValueError with a readable reason."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected HOST:PORT, not {text!r}")
    return host.strip("[]"), int(port)


@dataclass
class ManualListings:
    """Tables given by address (``--connect`` or ``:connect``): listed once, not probed."""

    addresses: Sequence[tuple[str, int]]

    async def listings(self) -> AsyncIterator[list[LobbyEntry]]:
        """Yields the fixed list once."""
        yield [
            LobbyEntry("table", f"{host}:{port}", "added by address", address=host, port=port)
            for host, port in self.addresses
        ]


def new_form(game: str | None = None) -> NewTableForm:
    """A form preset to ``game`` (or the first game) with its default players and options."""
    games = list(GAMES)
    form = NewTableForm(games, game=games.index(game) if game in games else 0, level=0)
    _reset_game_fields(form)
    return form


def _option_values(spec: OptionSpec) -> list[Any]:
    if spec.choices:
        return list(spec.choices)
    if spec.kind == "bool":
        return [False, True]
    if spec.min is not None and spec.max is not None and spec.max - spec.min <= 40:
        return list(range(spec.min, spec.max + 1))
    return [spec.default]


def _reset_game_fields(form: NewTableForm) -> None:
    info = GAMES[form.games[form.game]]
    form.players = list(_player_counts(form)).index(int(info.default_players))
    form.options = {spec.name: _option_values(spec).index(spec.default) for spec in info.options}


def _player_counts(form: NewTableForm) -> range:
    info = GAMES[form.games[form.game]]
    return range(int(info.min_players), int(info.max_players) + 1)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def form_fields(form: NewTableForm) -> list[tuple[str, str]]:
    """The form's fields as (label, shown value), in screen order."""
    info = GAMES[form.games[form.game]]
    fields = [
        ("Game", info.title),
        ("Players", str(_player_counts(form)[form.players])),
        ("Built-in", LEVELS[form.level]),
    ]
    for spec in info.options:
        house = " (house rules)" if spec.house_rules else ""
        fields.append((spec.name, _show(_option_values(spec)[form.options[spec.name]]) + house))
    return fields


def form_change(form: NewTableForm, step: int) -> None:
    """Moves the focused field's value by ``step`` (wrapping round)."""
    info = GAMES[form.games[form.game]]
    index = form.field_index
    if index == 0:
        form.game = (form.game + step) % len(form.games)
        _reset_game_fields(form)
    elif index == 1:
        form.players = (form.players + step) % len(_player_counts(form))
    elif index == 2:
        form.level = (form.level + step) % len(LEVELS)
    else:
        spec = info.options[index - 3]
        values = _option_values(spec)
        form.options[spec.name] = (form.options[spec.name] + step) % len(values)


def form_settings(form: NewTableForm) -> tuple[str, int, str, dict[str, Any]]:
    """What the form asks for: game, players, built-in player level, options (only those changed)."""
    info = GAMES[form.games[form.game]]
    options: dict[str, Any] = {}
    for spec in info.options:
        value = _option_values(spec)[form.options[spec.name]]
        if value != spec.default:
            options[spec.name] = value
    return info.name, _player_counts(form)[form.players], LEVELS[form.level], options
