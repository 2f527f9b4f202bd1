"""What ``cardnet bot`` tells a person: a line per finished game (its number, the result in words, the running
tally) and a summary at the end. ``--json`` keeps the machine form instead (one JSON line per game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from ..bot import Bot
from ..games import outcome_from_dict
from ..i18n import gettext as _
from ..i18n import ngettext
from ..protocol import JSONValue, StateMessage

__all__ = ["ReportingBot", "result_words"]


def result_words(outcome: JSONValue, seat: int) -> tuple[str, int, bool] | None:
    """The result for ``seat`` in words, its score and whether it won; None for an outcome of unknown shape."""
    if not isinstance(outcome, dict):
        return None
    try:
        result = outcome_from_dict(outcome)
    except (KeyError, TypeError, ValueError):
        return None
    if not 0 <= seat < len(result.scores):
        return None
    won = seat in result.winners
    if won:
        words = _("won") if len(result.winners) == 1 else _("shared the win")
    elif not result.winners:
        words = _("nobody won")
    else:
        words = _("lost (place {place} of {players})").format(
            place=result.order.index(seat) + 1, players=len(result.scores)
        )
    return words, result.scores[seat], won


@dataclass
class _Tally:
    games: int = 0
    wins: int = 0


class ReportingBot(Bot):
    """Plays as ``inner`` does and prints a line to ``out`` as each game ends."""

    def __init__(self, inner: Bot, out: TextIO) -> None:
        self.inner = inner
        self.out = out
        self.seat = -1
        self.tally = _Tally()

    def choose(self, view: dict[str, JSONValue], legal: list[JSONValue]) -> JSONValue:
        return self.inner.choose(view, legal)

    def game_started(self, table: dict[str, JSONValue], seat: int) -> None:
        self.seat = seat
        self.inner.game_started(table, seat)

    def game_over(self, state: StateMessage) -> None:
        self.inner.game_over(state)
        self.tally.games += 1
        found = result_words(state.outcome, self.seat)
        if found is None:
            print(_("Game {number}: over.").format(number=self.tally.games), file=self.out, flush=True)
            return
        words, score, won = found
        self.tally.wins += won
        line = _("Game {number}: {result}, score {score}. Won {wins} of {games} so far.").format(
            number=self.tally.games, result=words, score=score, wins=self.tally.wins, games=self.tally.games
        )
        print(line, file=self.out, flush=True)

    def summary(self, name: str, moves: int) -> str:
        """The closing line: games played and won, and the moves made."""
        played = ngettext("{count} game played", "{count} games played", self.tally.games).format(
            count=self.tally.games
        )
        made = ngettext("{count} move", "{count} moves", moves).format(count=moves)
        # Counted apart: Spanish "1 ganada" but "2 ganadas".
        won = ngettext("{count} won", "{count} won", self.tally.wins).format(count=self.tally.wins)
        return _("{name} at seat {seat}: {played}, {won}, {moves}.").format(
            name=name, seat=self.seat, played=played, won=won, moves=made
        )
