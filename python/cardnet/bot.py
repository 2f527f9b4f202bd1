"""The bot SDK: subclass :class:`Bot`, write ``choose``, and :func:`run_bot` plays it against a host.

    from cardnet.bot import Bot

    class FirstMove(Bot):
        def choose(self, view, legal):
            return 0            # an index into ``legal``, or one of its move objects

The runner handles the handshake, keepalive, reconnects (with the seat token), snapshots and rematches; the bot
only ever sees its own view and the legal moves of a decision the host has opened for it.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path

import trio

from .ai import LEVELS, check_player, with_think
from .net.peer import HostError, Peer
from .protocol import JSONValue, StateMessage


class Bot(ABC):
    """A player: given its view and the legal moves of an open decision, return a move or an index."""

    @abstractmethod
    def choose(self, view: dict[str, JSONValue], legal: list[JSONValue]) -> JSONValue:
        """Return one of ``legal`` (the move object) or its index. ``view`` is ``{"public", "private"}``."""

    def game_started(self, table: dict[str, JSONValue], seat: int) -> None:
        """Called when a game starts (override to reset per-game memory)."""

    def game_over(self, state: StateMessage) -> None:
        """Called with the final state of each game (override to learn or log)."""


class RandomBot(Bot):
    """Picks uniformly among the legal moves (seedable)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, JSONValue], legal: list[JSONValue]) -> JSONValue:
        """A random legal index."""
        return self.rng.randrange(len(legal))


class FirstBot(Bot):
    """Always plays the first legal move (deterministic; handy in tests)."""

    def choose(self, view: dict[str, JSONValue], legal: list[JSONValue]) -> JSONValue:
        """Index 0."""
        return 0


class BuiltinBot(Bot):
    """One of the core's built-in players (heuristic, ISMCTS) playing over the wire from its view alone.

    Each decision rebuilds a full game from the bot's view with every hidden fact dealt at random
    (:func:`cardnet.game_from_view`) and lets the player choose there, so it knows exactly what a person in
    that seat would know.
    """

    def __init__(
        self, player: str = "heuristic", level: str | None = None, seed: int | None = None, think_ms: int | None = None
    ) -> None:
        self.player, self.level, self.think_ms = player, level, think_ms
        self.rng = random.Random(seed)
        self.game = ""
        self.players: int | None = None
        self.options: dict[str, JSONValue] = {}
        self.seat: int | None = None

    def game_started(self, table: dict[str, JSONValue], seat: int) -> None:
        """Remember the game, player count and options the table announced."""
        game, players, options = table.get("game"), table.get("players"), table.get("options")
        self.game = game if isinstance(game, str) else ""
        self.players = players if isinstance(players, int) and not isinstance(players, bool) else None
        self.options = dict(options) if isinstance(options, dict) else {}
        self.seat = seat if seat >= 0 else None

    def choose(self, view: dict[str, JSONValue], legal: list[JSONValue]) -> JSONValue:
        """The built-in player's move, searched on a game rebuilt from ``view``."""
        from . import ai, games

        if len(legal) == 1 or self.seat is None:
            return 0
        rebuilt = games.game_from_view(
            self.game, view, self.seat, self.players, self.options, seed=self.rng.getrandbits(64)
        )
        seed = self.rng.getrandbits(64)
        return ai.choose(rebuilt, self.seat, player=self.player, level=self.level, seed=seed, think_ms=self.think_ms)


def load_bot(spec: str, think_ms: int | None = None) -> Bot:
    """Build a bot from ``builtin:NAME`` (``random``, ``first``, ``heuristic``, ``ismcts[:N]``, ``easy``,
    ``normal``, ``hard``), ``FILE.py`` (its Bot subclass) or ``module:Class``. ``think_ms`` gives a built-in
    search player (``normal``, ``hard``, ``ismcts``) that think time per decision instead of its iteration
    count (see ``cardnet.ai.with_think``); a ValueError for any other bot."""
    if think_ms is not None:
        name = spec.removeprefix("builtin:")
        if name == spec:
            raise ValueError("a think time is for the built-in players only (builtin:hard and the like)")
        with_think(name, think_ms)  # BadOptions (a ValueError) names what does not fit
        return BuiltinBot(player=name, think_ms=think_ms)
    if spec.startswith("builtin:"):
        name = spec.split(":", 1)[1]
        if name == "random":
            return RandomBot()
        if name == "first":
            return FirstBot()
        if name in LEVELS:
            return BuiltinBot(level=name)
        if name in ("heuristic", "ismcts") or name.startswith(("ismcts:", "careless:")):
            return BuiltinBot(player=check_player(name))
        raise ValueError(
            f"unknown built-in bot {name!r} (random, first, heuristic, careless:P, ismcts, ismcts:N, easy, normal, hard)"
        )
    if spec.endswith(".py"):
        path = Path(spec)
        if not path.is_file():
            raise ValueError(f"no such bot file: {spec}")
        module_spec = importlib.util.spec_from_file_location(f"cardnet_bot_{path.stem}", path)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"cannot load {spec}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[module_spec.name] = module
        module_spec.loader.exec_module(module)
        classes = [
            v
            for v in vars(module).values()
            if isinstance(v, type)
            and issubclass(v, Bot)
            and v.__module__ == module.__name__
            and not getattr(v, "__abstractmethods__", None)
        ]
        if len(classes) != 1:
            raise ValueError(f"{spec} must define exactly one Bot subclass (found {len(classes)})")
        return classes[0]()
    if ":" in spec:
        module_name, class_name = spec.split(":", 1)
        cls = getattr(importlib.import_module(module_name), class_name, None)
        if not (isinstance(cls, type) and issubclass(cls, Bot)):
            raise ValueError(f"{spec} is not a cardnet.bot.Bot subclass")
        return cls()
    raise ValueError(f"bot spec {spec!r}: use builtin:NAME, FILE.py or module:Class")


@dataclass
class BotResult:
    """What a bot session saw: one final state per finished game, and the host's errors."""

    outcomes: list[JSONValue] = field(default_factory=list)
    final_states: list[StateMessage] = field(default_factory=list)
    errors: list[HostError] = field(default_factory=list)
    seat: int | None = None
    moves: int = 0


async def run_bot(
    bot: Bot,
    host: str,
    port: int,
    *,
    name: str = "bot",
    games: int = 1,
    password: str | None = None,
    seat: int | None = None,
    peer: Peer | None = None,
) -> BotResult:
    """Play ``games`` games with ``bot`` at the table on ``host:port`` (voting for rematches in between)."""
    peer = peer or Peer(host, port, name=name, password=password, seat=seat)
    result = BotResult()
    async with trio.open_nursery() as nursery:
        await nursery.start(peer.run)
        result.seat = peer.state.seat
        current_game: int | None = None
        async for event in peer.events:
            if isinstance(event, HostError):
                result.errors.append(event)
                continue
            if not isinstance(event, StateMessage):
                continue
            if event.game_no != current_game and not event.over:
                current_game = event.game_no
                bot.game_started(peer.state.table, peer.state.seat if peer.state.seat is not None else -1)
            if event.over:
                if event.game_no not in {s.game_no for s in result.final_states}:
                    result.final_states.append(event)
                    result.outcomes.append(event.outcome)
                    bot.game_over(event)
                    if len(result.final_states) >= games:
                        break
                    await peer.rematch()
                continue
            # The session re-opens a decision after a reconnect (the host may never have read our answer).
            if event.decision_id is None or not peer.session.needs_answer(event):
                continue
            choice = bot.choose(event.view, event.legal)
            if isinstance(choice, int) and not isinstance(choice, bool):
                await peer.move(event.decision_id, index=choice)
            else:
                await peer.move(event.decision_id, choice)
            result.moves += 1
        nursery.cancel_scope.cancel()
    return result


__all__ = ["Bot", "BotResult", "BuiltinBot", "FirstBot", "RandomBot", "load_bot", "run_bot"]
