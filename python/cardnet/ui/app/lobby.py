"""The lobby's model: where table listings come from, the entries shown, and the new-table form's fields.

Listings come from a :class:`ListingSource`. Manual ``--connect HOST:PORT`` addresses are one; LAN discovery's
``browse()`` is another that drops in without changing the lobby (each item it yields replaces the list).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import trio

from ...game_words import core_text
from ...games import GAMES, OptionSpec
from ...i18n import N_
from ...i18n import gettext as _
from ...i18n import ngettext
from ..render import renderer_for
from ..render.screen import screen_for
from .remembered import GameChoices, Remembered
from .state import LobbyEntry, NewTableForm

__all__ = [
    "LEVELS",
    "ListingSource",
    "ManualListings",
    "TableInfo",
    "table_entry",
    "form_change",
    "form_fields",
    "form_notes",
    "form_settings",
    "focused_key",
    "new_form",
    "remember",
    "resume_entry",
    "when_played",
    "parse_address",
]

#: Built-in player levels offered by the form (the first is the default for a new table).
LEVELS = ("normal", "easy", "hard", "random")
#: The levels as the form shows them (translated when shown).
LEVEL_WORDS = {"normal": N_("normal"), "easy": N_("easy"), "hard": N_("hard"), "random": N_("random")}

#: When an unfinished game was last played, as the lobby says it ({time}: hours and minutes, {day}: weekday,
#: {date}: the day of the month and month).
WHEN_PLAYED = {
    "today": N_("today {time}"),
    "yesterday": N_("yesterday {time}"),
    "this_week": N_("{day} {time}"),
    "earlier": N_("{date} {time}"),
}
#: Weekdays and months in cardnet's language (translated when shown), never the machine's locale.
WEEKDAYS = (N_("Mon"), N_("Tue"), N_("Wed"), N_("Thu"), N_("Fri"), N_("Sat"), N_("Sun"))
# Translators: {day} is the day of the month, before or after the month's short name as your language writes it.
DAY_MONTH = N_("{day} {month}")
MONTHS = (
    N_("Jan"),
    N_("Feb"),
    N_("Mar"),
    N_("Apr"),
    N_("May"),
    N_("Jun"),
    N_("Jul"),
    N_("Aug"),
    N_("Sep"),
    N_("Oct"),
    N_("Nov"),
    N_("Dec"),
)


def when_played(modified: float, now: float | None = None) -> str:
    """``today 21:40``, ``yesterday 21:40``, ``Tue 21:40`` within the week, else ``3 Dec 21:40`` (local time)."""
    then = time.localtime(modified)
    today = time.localtime(time.time() if now is None else now)
    clock = f"{then.tm_hour:02d}:{then.tm_min:02d}"
    days = _day_number(today) - _day_number(then)
    if days <= 0:
        key = "today"
    elif days == 1:
        key = "yesterday"
    elif days < 7:
        key = "this_week"
    else:
        key = "earlier"
    date = _(DAY_MONTH).format(day=then.tm_mday, month=_(MONTHS[then.tm_mon - 1]))
    return _(WHEN_PLAYED[key]).format(time=clock, day=_(WEEKDAYS[then.tm_wday]), date=date)


def _day_number(moment: time.struct_time) -> int:
    """Days since the epoch of a local date (only differences between two of them matter)."""
    return int(time.mktime((moment.tm_year, moment.tm_mon, moment.tm_mday, 12, 0, 0, 0, 0, -1)) // 86400)


def resume_entry(
    path: Path, game: str, players: int, modified: float, seat: int, public: Mapping[str, Any], now: float | None = None
) -> LobbyEntry:
    """The lobby's entry for an unfinished local game: its title, then players, when and how far."""
    info = GAMES.get(game)
    title = info.title if info is not None else game
    try:
        progress = renderer_for(game, ["You"] * players).progress(public, seat) if public else ""
    except (KeyError, TypeError, IndexError, ValueError):
        # A view this version does not know the shape of: say no more than the rest.
        progress = ""
    when = when_played(modified, now)
    if progress:
        # The lobby's line for an unfinished game: {when} as "today 21:40", {progress} in the game's own words.
        template = ngettext(
            "{players} player, played {when}, {progress}", "{players} players, played {when}, {progress}", players
        )
    else:
        template = ngettext("{players} player, played {when}", "{players} players, played {when}", players)
    detail = template.format(players=players, when=when, progress=progress)
    return LobbyEntry("resume", title, detail, path=path)


class ListingSource(Protocol):
    """Something that yields the current list of tables to join, again whenever it changes."""

    def listings(self) -> AsyncIterator[list[LobbyEntry]]:
        """Each item is the whole current list."""
        ...


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a pair; raises ValueError with a readable reason."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(_("expected HOST:PORT, not {text!r}").format(text=text))
    return host.strip("[]"), int(port)


@dataclass(frozen=True)
class TableInfo:
    """What a table says about itself (its first message on a connection, or its discovery record)."""

    name: str
    game: str
    players: int
    taken: int
    password: bool
    started: bool


#: Asks a table at (address, port) what it is; None when it does not answer.
Probe = Callable[[str, int], Awaitable["TableInfo | None"]]


def table_entry(address: str, port: int, info: TableInfo | None) -> LobbyEntry:
    """The lobby line of a table: its name, game and seats when it answered, else just its address."""
    if info is None:
        return LobbyEntry(
            "table", f"{address}:{port}", _("no answer (Enter tries to join)"), address=address, port=port
        )
    title = GAMES[info.game].title if info.game in GAMES else info.game
    if info.started:
        seats = ngettext("{taken}/{total} seat, playing", "{taken}/{total} seats, playing", info.players)
    else:
        seats = ngettext("{taken}/{total} seat, waiting", "{taken}/{total} seats, waiting", info.players)
    detail = f"{address}:{port}  {title}, " + seats.format(taken=info.taken, total=info.players)
    return LobbyEntry("table", info.name, detail, address=address, port=port, password=info.password)


class ManualListings:
    """Tables given by address (``--connect`` or ``:connect``), asked what they are every ``interval`` seconds
    (at once when an address is added)."""

    def __init__(self, addresses: Sequence[tuple[str, int]], probe: Probe, interval: float = 5.0) -> None:
        self.addresses = list(addresses)
        self.probe = probe
        self.interval = interval
        self._added = trio.Event()

    def add(self, address: str, port: int) -> None:
        """Lists one more table (probed right away)."""
        if (address, port) not in self.addresses:
            self.addresses.append((address, port))
        self._added.set()

    async def listings(self) -> AsyncIterator[list[LobbyEntry]]:
        """The tables with what each said, again after every round of probes."""
        while True:
            found = []
            for address, port in list(self.addresses):
                found.append(table_entry(address, port, await self.probe(address, port)))
            yield found
            with trio.move_on_after(self.interval):
                await self._added.wait()
            self._added = trio.Event()


def new_form(
    interfaces: Sequence[str] = (), game: str | None = None, remembered: Remembered | None = None
) -> NewTableForm:
    """A form preset to ``game`` (else the game chosen last, else the first) with the players, level and options
    last chosen for it (else its defaults); a LAN table may listen on one of ``interfaces``."""
    games = list(GAMES)
    memory = remembered if remembered is not None else Remembered()
    game = game if game is not None else memory.game
    form = NewTableForm(
        games, game=games.index(game) if game in games else 0, level=0, interfaces=list(interfaces), remembered=memory
    )
    _reset_game_fields(form)
    return form


def remember(form: NewTableForm) -> Remembered:
    """The form's memory with its current game's choices recorded as the last ones."""
    info = GAMES[form.games[form.game]]
    options = {spec.name: _option_values(spec)[form.options[spec.name]] for spec in info.options}
    form.remembered.game = info.name
    form.remembered.games[info.name] = GameChoices(_seats(form), LEVELS[form.level], options)
    return form.remembered


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
    last = form.remembered.games.get(info.name)
    if last is not None:
        # What the player chose last time, where the game still offers it.
        counts = list(_player_counts(form))
        if last.players in counts:
            form.players = counts.index(last.players)
        if last.level in LEVELS:
            form.level = LEVELS.index(last.level)
        for spec in info.options:
            values = _option_values(spec)
            chosen = last.options.get(spec.name)
            if chosen in values and type(chosen) is type(spec.default):
                form.options[spec.name] = values.index(chosen)
    form.bots = _seats(form) - 1 if form.where == 0 else max(0, _seats(form) - 2)


def _player_counts(form: NewTableForm) -> range:
    info = GAMES[form.games[form.game]]
    return range(int(info.min_players), int(info.max_players) + 1)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def _keys(form: NewTableForm) -> list[str]:
    """The form's fields in screen order: a LAN table adds how many seats built-in players take, and a password."""
    info = GAMES[form.games[form.game]]
    lan = ["bots", "password"] if form.where > 0 else []
    return ["game", "players", "where", *lan, "level"] + [f"option:{spec.name}" for spec in info.options]


def _seats(form: NewTableForm) -> int:
    return _player_counts(form)[form.players]


def form_fields(form: NewTableForm) -> list[tuple[str, str]]:
    """The form's fields as (label, shown value), in screen order."""
    info = GAMES[form.games[form.game]]
    fields = []
    for key in _keys(form):
        if key == "game":
            fields.append((_("Game"), info.title))
        elif key == "players":
            fields.append((_("Players"), str(_seats(form))))
        elif key == "where":
            if form.where == 0:
                where = _("this machine only")
            else:
                where = _("LAN on {address}").format(address=form.interfaces[form.where - 1])
            fields.append((_("Table"), where))
        elif key == "bots":
            people = _("{bots} (people: {people})").format(bots=form.bots, people=_seats(form) - form.bots)
            fields.append((_("Built-in seats"), people))
        elif key == "password":
            fields.append((_("Password"), "*" * len(form.password) if form.password else _("none (Enter sets one)")))
        elif key == "level":
            fields.append((_("Built-in level"), _(LEVEL_WORDS[LEVELS[form.level]])))
        else:
            spec = info.option(key.split(":", 1)[1])
            value = _show_option(info.name, spec.name, _option_values(spec)[form.options[spec.name]])
            if spec.house_rules:
                value = _("{value} (house rules)").format(value=value)
            label = screen_for(info.name).option_labels.get(spec.name)
            fields.append((_(label) if label else spec.name.replace("_", " ").capitalize(), value))
    return fields


def form_notes(form: NewTableForm) -> list[str]:
    """A one-line description for each field of :func:`form_fields` (a game option's own doc; "" for none)."""
    info = GAMES[form.games[form.game]]
    return [
        core_text(info.option(key.split(":", 1)[1]).doc) if key.startswith("option:") else "" for key in _keys(form)
    ]


def _show_option(game: str, option: str, value: Any) -> str:
    """An option's value as the form shows it: the game screen's word for a choice (``short``, ``random``), yes or
    no, or the number."""
    word = screen_for(game).option_values.get(f"{option}={value}")
    return _(word) if word else _show(value)


def focused_key(form: NewTableForm) -> str:
    """The key of the focused field (``password`` is typed rather than chosen)."""
    keys = _keys(form)
    return keys[min(form.field_index, len(keys) - 1)]


def form_change(form: NewTableForm, step: int) -> None:
    """Moves the focused field's value by ``step`` (wrapping round)."""
    key = focused_key(form)
    if key == "game":
        form.game = (form.game + step) % len(form.games)
        _reset_game_fields(form)
    elif key == "players":
        form.players = (form.players + step) % len(_player_counts(form))
        form.bots = min(form.bots, _seats(form) - 1)
    elif key == "where":
        form.where = (form.where + step) % (len(form.interfaces) + 1)
        form.bots = _seats(form) - 1 if form.where == 0 else min(form.bots, _seats(form) - 2)
    elif key == "bots":
        form.bots = (form.bots + step) % _seats(form)
    elif key == "level":
        form.level = (form.level + step) % len(LEVELS)
    elif key.startswith("option:"):
        spec = GAMES[form.games[form.game]].option(key.split(":", 1)[1])
        values = _option_values(spec)
        form.options[spec.name] = (form.options[spec.name] + step) % len(values)


@dataclass(frozen=True)
class TableRequest:
    """What the form asks for."""

    game: str
    players: int
    level: str
    options: dict[str, Any]
    interfaces: list[str]
    open_seats: int
    password: str | None


def form_settings(form: NewTableForm) -> TableRequest:
    """The table the form describes (options only where changed from their defaults)."""
    info = GAMES[form.games[form.game]]
    options: dict[str, Any] = {}
    for spec in info.options:
        value = _option_values(spec)[form.options[spec.name]]
        if value != spec.default:
            options[spec.name] = value
    lan = form.where > 0
    return TableRequest(
        info.name,
        _seats(form),
        LEVELS[form.level],
        options,
        [form.interfaces[form.where - 1]] if lan else [],
        _seats(form) - 1 - form.bots if lan else 0,
        form.password or None if lan else None,
    )
