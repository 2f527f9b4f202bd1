"""Typed faces of the core's games: descriptions with option specs, starting and loading games, outcomes,
and batch self-play.

``GAMES`` maps each game's machine name to its :class:`GameInfo`, exported from Rust. A game object is a
:class:`cardnet.Game` (implemented in Rust); its ``outcome()`` returns one of the small dataclasses below,
one per kind of result.
"""

from __future__ import annotations

import secrets
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from . import _core
from ._core import Game
from .errors import BadOptions
from .i18n import gettext as _

__all__ = [
    "GAMES",
    "Draw",
    "GameInfo",
    "MatchResult",
    "OptionSpec",
    "Outcome",
    "Ranking",
    "Scores",
    "Settlement",
    "SimResult",
    "game_from_view",
    "load_game",
    "new_game",
    "simulate",
    "ten_deck",
]

#: A JSON value as the core exchanges it (integers only, string keys).
JSON = Any
#: A move: a dict with a ``"type"`` key and the game's fields.
Move = dict[str, Any]

_SEED_LIMIT = 1 << 64


@dataclass(frozen=True)
class OptionSpec:
    """One option a host may set: its kind, allowed values, default and documentation."""

    name: str
    #: ``"bool"``, ``"int"`` or ``"choice"`` (a string from ``choices``).
    kind: str
    default: int | bool | str
    doc: str
    #: Allowed values, when the option takes one of a fixed list (ints for ``int``, strings for ``choice``).
    choices: tuple[int | str, ...] | None = None
    min: int | None = None
    max: int | None = None
    #: True when a non-default value plays house rules rather than the published game.
    house_rules: bool = False

    def parse(self, text: str) -> int | bool | str:
        """Reads a value typed on a command line (``--option KEY=VALUE``); raises BadOptions."""
        value: int | bool | str
        if self.kind == "bool":
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                value = True
            elif lowered in ("0", "false", "no", "off"):
                value = False
            else:
                raise BadOptions(f"option {self.name}: expected true or false, got {text!r}")
        elif self.kind == "int":
            try:
                value = int(text)
            except ValueError:
                raise BadOptions(f"option {self.name}: expected an integer, got {text!r}") from None
        else:
            value = text
        self.check(value)
        return value

    def check(self, value: object) -> None:
        """Raises BadOptions unless ``value`` fits this option."""
        ok: bool
        if self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
            if ok and self.choices is not None:
                ok = value in self.choices
            if ok and self.min is not None and self.max is not None:
                assert isinstance(value, int)
                ok = self.min <= value <= self.max
        else:
            ok = isinstance(value, str) and (self.choices is None or value in self.choices)
        if not ok:
            raise BadOptions(f"option {self.name}: {value!r} is not {self.describe()}")

    def describe(self) -> str:
        """The allowed values in words."""
        if self.kind == "bool":
            return _("true or false")
        if self.choices is not None:
            return _("one of {choices}").format(choices=", ".join(str(c) for c in self.choices))
        if self.min is not None and self.max is not None:
            return _("an integer {low}-{high}").format(low=self.min, high=self.max)
        return _("an integer") if self.kind == "int" else _("a string")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> OptionSpec:
        """Builds the spec from the core's JSON description."""
        choices = d.get("choices")
        return cls(
            name=d["name"],
            kind=d["kind"],
            default=d["default"],
            doc=d["doc"],
            choices=tuple(choices) if choices is not None else None,
            min=d.get("min"),
            max=d.get("max"),
            house_rules=bool(d.get("house_rules", False)),
        )


@dataclass(frozen=True)
class GameInfo:
    """What a game is and how it may be set up (``cardnet.GAMES[name]``)."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple[OptionSpec, ...]
    #: Player counts that play a house variant rather than the published game, with a note each.
    house_rules_players: Mapping[int, str]
    #: One-paragraph summary for help screens.
    summary: str

    def option(self, name: str) -> OptionSpec:
        """The option called ``name``; raises BadOptions if there is none."""
        for spec in self.options:
            if spec.name == name:
                return spec
        known = ", ".join(o.name for o in self.options) or "none"
        raise BadOptions(f"{self.name} has no option {name!r} (options: {known})")

    def default_options(self) -> dict[str, int | bool | str]:
        """Every option at its default."""
        return {o.name: o.default for o in self.options}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameInfo:
        """Builds the info from the core's JSON description."""
        return cls(
            name=d["name"],
            title=d["title"],
            min_players=d["min_players"],
            max_players=d["max_players"],
            default_players=d["default_players"],
            options=tuple(OptionSpec.from_dict(o) for o in d["options"]),
            house_rules_players=types.MappingProxyType(
                {int(h["players"]): str(h["doc"]) for h in d["house_rules_players"]}
            ),
            summary=d["summary"],
        )


def _load_infos() -> Mapping[str, GameInfo]:
    infos = (GameInfo.from_dict(d) for d in _core.game_infos())
    return types.MappingProxyType({info.name: info for info in infos})


#: Every game by machine name, in menu order.
GAMES: Mapping[str, GameInfo] = _load_infos()


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game. Subclasses name the kind of result and add readable aliases."""

    kind: ClassVar[str] = ""
    #: Seats that won: several for a shared win, none for a draw or a missed solo target.
    winners: tuple[int, ...]
    #: One number per seat; its meaning depends on the kind (position, stars, settlement, score).
    scores: tuple[int, ...]
    #: Seats from best to worst (ties keep seat order).
    order: tuple[int, ...]
    #: Game-specific extras (tie-break values, the winning hand, ...).
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winner(self) -> int | None:
        """The sole winner, or None when nobody or several seats won."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        """The outcome as the core's JSON object."""
        return {
            "kind": self.kind,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "order": list(self.order),
            "detail": dict(self.detail),
        }


@dataclass(frozen=True)
class Ranking(Outcome):
    """A finishing order (Matchstick Tycoon): ``order[0]`` went out first and won."""

    kind: ClassVar[str] = "ranking"

    @property
    def positions(self) -> tuple[int, ...]:
        """Finishing position per seat, 1 = first out."""
        return self.scores


@dataclass(frozen=True)
class MatchResult(Outcome):
    """A match decided by round wins (A Fistful of Gold)."""

    kind: ClassVar[str] = "match"

    @property
    def stars(self) -> tuple[int, ...]:
        """Stars (round wins) per seat."""
        return self.scores


@dataclass(frozen=True)
class Settlement(Outcome):
    """Points paid between players (Cherki); sums to zero."""

    kind: ClassVar[str] = "settlement"

    @property
    def payments(self) -> tuple[int, ...]:
        """Net points received per seat (negative = paid)."""
        return self.scores


@dataclass(frozen=True)
class Scores(Outcome):
    """Final scores with tie-breaks (TEN); several winners share a win."""

    kind: ClassVar[str] = "scores"

    @property
    def shared(self) -> bool:
        """Whether more than one seat shares the win."""
        return len(self.winners) > 1


@dataclass(frozen=True)
class Draw(Outcome):
    """Nobody won (a drawn Fistful match, a drawn Cherki deal)."""

    kind: ClassVar[str] = "draw"


_OUTCOME_KINDS: dict[str, type[Outcome]] = {cls.kind: cls for cls in (Ranking, MatchResult, Settlement, Scores, Draw)}


def outcome_from_dict(d: Mapping[str, Any]) -> Outcome:
    """Builds the dataclass for an outcome's JSON (as ``Game.outcome_json`` and the protocol carry it)."""
    cls = _OUTCOME_KINDS[d["kind"]]
    return cls(
        winners=tuple(d["winners"]),
        scores=tuple(d["scores"]),
        order=tuple(d["order"]),
        detail=dict(d["detail"] or {}),
    )


def parse_seed(text: str) -> int:
    """A seed typed on a command line (decimal, or ``0x``/``0o``/``0b``); raises BadOptions outside 0..2**64-1."""
    try:
        value = int(text, 0)
    except ValueError:
        raise BadOptions(f"not an integer: {text!r}") from None
    return check_seed(value)


def parse_options(game: str, pairs: Sequence[str] | None) -> dict[str, int | bool | str]:
    """``KEY=VALUE`` strings (``--option``) typed against the game's option specs; raises BadOptions or
    UnknownGame."""
    options: dict[str, int | bool | str] = {}
    if not pairs:
        return options
    info = GAMES.get(game)
    if info is None:
        from .errors import UnknownGame

        raise UnknownGame(f"unknown game {game!r} (games: {', '.join(GAMES)})")
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise BadOptions(f"--option expects KEY=VALUE, not {pair!r}")
        options[key] = info.option(key).parse(text)
    return options


def check_seed(seed: int | None) -> int:
    """The one seed check: ``seed`` itself when it is an integer 0 to 2**64-1, a fresh random seed for None;
    raises BadOptions otherwise."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < _SEED_LIMIT:
        raise BadOptions(f"seed must be an integer 0 to 2**64-1, not {seed!r}")
    return seed


def new_game(
    name: str,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """Starts the game called ``name``.

    ``players=None`` takes the game's default; ``seed=None`` draws a fresh random seed; ``options`` are
    checked against ``GAMES[name].options`` and missing ones take their defaults. Raises UnknownGame or
    BadOptions.
    """
    if players is not None and (isinstance(players, bool) or not isinstance(players, int) or players < 0):
        raise BadOptions(f"players must be a positive integer, not {players!r}")
    return _core.new_game(name, players, check_seed(seed), dict(options) if options is not None else None)


def load_game(text: str | bytes) -> Game:
    """Loads a saved game (``Game.to_json()``), replaying and checking every move; raises CorruptState."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            from .errors import CorruptState

            raise CorruptState(f"not UTF-8: {e}") from None
    return _core.load_game(text)


def game_from_view(
    name: str,
    view: Mapping[str, Any],
    seat: int | None,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
) -> Game:
    """A game built from what ``seat`` sees (``view`` as ``Game.view(seat)`` returns it; ``None`` for a
    spectator), every hidden fact dealt at random from ``seed``.

    This is what a network bot, which only ever holds its own view, hands to :mod:`cardnet.ai`. The
    result is a determinized copy: it plays on, but cannot be saved. Raises CorruptState for a view that
    is not one of this game's, UnknownGame or BadOptions.
    """
    if players is not None and (isinstance(players, bool) or not isinstance(players, int) or players < 0):
        raise BadOptions(f"players must be a positive integer, not {players!r}")
    return _core.game_from_view(
        name, dict(view), seat, players, dict(options) if options is not None else None, check_seed(seed)
    )


def ten_deck(players: int) -> list[dict[str, Any]]:
    """TEN's deck for ``players`` players (1 to 5, solo uses the 2-player deck): every card as views show it
    (``type``, ``colour``, ``value``, ``id``), in id order, from the core's card data. What a view does not show
    of it is the draw pile. Raises BadOptions for another player count."""
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 5:
        raise BadOptions(f"TEN takes 1 to 5 players, not {players!r}")
    return _core.ten_deck(players)


@dataclass(frozen=True)
class SimResult:
    """Totals of a batch of self-play games."""

    games: int
    decisions: int
    #: Games won (outright or shared) per seat.
    wins: tuple[int, ...]
    #: Games that ended with no winner.
    no_winner: int
    #: Per seat, the sum of rewards in 0..1 (rank-based for rankings, shares of wins, half draws).
    rewards: tuple[float, ...]
    #: Wall-clock time spent in the core.
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Games played per second of core time."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def decisions_per_second(self) -> float:
        """Decisions made per second of core time."""
        return self.decisions / self.seconds if self.seconds > 0 else float("inf")


def simulate(
    game: str,
    seats: Sequence[str],
    games: int,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> SimResult:
    """Plays ``games`` games in Rust, one built-in player per seat (``random``, ``heuristic``, ``ismcts``,
    ``ismcts:N``, or a level: ``easy``, ``normal``, ``hard``); the number of seats is the player count.
    For fair matches with rotated seats and statistics, see :mod:`cardnet.arena`.

    Game ``i`` is exactly ``new_game(game, len(seats), seed=cardnet.derive(seed, i), options)``. The GIL is
    released while it runs. This is the fastest way to run many games.
    """
    if isinstance(seats, str):
        raise BadOptions("seats must be a list of player names, one per seat")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise BadOptions(f"games must be a non-negative integer, not {games!r}")
    raw = _core.simulate(game, list(seats), games, check_seed(seed), dict(options) if options is not None else None)
    return SimResult(
        games=raw["games"],
        decisions=raw["decisions"],
        wins=tuple(raw["wins"]),
        no_winner=raw["no_winner"],
        rewards=tuple(raw["rewards"]),
        seconds=raw["seconds"],
    )
