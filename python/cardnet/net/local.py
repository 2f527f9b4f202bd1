"""A table run in this process for its own user: built from a new game or a resumed journal, with the user's
seat, its host and the user's in-process peer.

``cardnet play`` (line mode and full screen) and ``cardnet host`` without ``--headless`` seat their user
through here, so local play goes through the code a LAN table uses: a :class:`~cardnet.table.Table` with its
journal, the trio :class:`~cardnet.net.host.Host`, and a :class:`~cardnet.net.peer.Peer` connected over an
in-memory stream instead of TCP.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from pathlib import Path

import trio

from ..errors import IllegalMove
from ..games import GAMES
from ..i18n import gettext as _
from ..i18n import ngettext
from ..identity import default_name
from ..journal import Journal, JournalError
from ..protocol import token_hash
from ..table import Table
from .factory import create_table, resume_table, table_config
from .host import Host, HostOptions
from .peer import Peer

__all__ = [
    "LocalError",
    "LocalSetup",
    "local_host",
    "local_peer",
    "new_local_table",
    "own_seat_token",
    "player_name",
    "resume_local_table",
    "single_error",
]


class LocalError(Exception):
    """The local table cannot be set up or resumed (bad journal, unusable path); exit code 1."""


@dataclass
class LocalSetup:
    """A table ready to run locally: which seat is the player's, and the token that holds it."""

    table: Table
    journal: Journal
    seat: int
    token: str
    header: str


def _players(count: int) -> str:
    return ngettext("{count} player", "{count} players", count).format(count=count)


def player_name() -> str:
    """The local player's name at a table (:func:`cardnet.identity.default_name`)."""
    return default_name()


def new_local_table(
    game: str,
    players: int | None,
    seed: int | None,
    options: Mapping[str, Any] | None,
    player: str,
    seat: int,
    journal_path: Path | None,
    open_seats: int = 0,
) -> LocalSetup:
    """A new table with the player at ``seat``; the last ``open_seats`` other seats wait for people, built-in
    players (``player``) take the rest."""
    info = GAMES[game]
    count = players if players is not None else int(info.default_players)
    if not 0 <= seat < count:
        raise IllegalMove(
            "no_such_seat",
            _("seat {seat} does not exist in a {count}-player game").format(seat=seat, count=count),
        )
    config = table_config(
        game,
        players=count,
        seed=seed,
        options=options,
        bots={s: player for s in [s for s in range(count) if s != seat][: count - 1 - open_seats]},
        name=_("{player}'s {game}").format(player=player_name(), game=game),
    )
    # The core checks the player count and options here, before a journal file exists.
    try:
        table, journal = create_table(config, journal=journal_path)
    except JournalError as exc:
        raise LocalError(str(exc)) from None
    title = info.title
    # Only a seed the player chose is shown: a random deal's seed would reveal every hidden card.
    if config.seeded:
        header = _("{title}: {players}, you are seat {seat}, seed {seed}.")
    else:
        header = _("{title}: {players}, you are seat {seat}, random deal.")
    header = header.format(title=title, players=_players(count), seat=seat, seed=seed)
    return LocalSetup(table, journal, seat, own_seat_token(table, journal, seat), header)


def resume_local_table(path: Path) -> LocalSetup:
    """The one-person table journalled at ``path``, its player's seat re-keyed; raises :class:`LocalError` for a
    journal that cannot be resumed here (unreadable, in use, or with more than one seat for people)."""
    try:
        resumed = resume_table(path)
    except (JournalError, ValueError) as exc:
        raise LocalError(str(exc)) from None
    table, journal = resumed.table, resumed.journal
    people = [s for s in table.seats if s.kind != "bot"]
    if len(people) != 1:
        journal.close()
        raise LocalError(
            _("{path} has {count} seats for people, not one; continue it with: cardnet host --resume {path}").format(
                path=path, count=len(people)
            )
        )
    mine = people[0]
    token = own_seat_token(table, journal, mine.index)
    info = GAMES.get(table.config.game)
    title = info.title if info else table.config.game
    fields = {"title": title, "players": _players(table.config.players), "seat": mine.index, "state": table.state_id}
    if resumed.torn is None:
        header = _("{title}: {players}, you are seat {seat}; resumed at state {state}.").format(**fields)
    else:
        header = _("{title}: {players}, you are seat {seat}; resumed at state {state} ({problem}).").format(
            problem=resumed.torn.describe(), **fields
        )
    return LocalSetup(table, journal, mine.index, token, header)


def own_seat_token(table: Table, journal: Journal, index: int, name: str | None = None) -> str:
    """A token for the seat the table's own user plays, taken before the table listens so that no guest who
    joins first can take it: an open seat is claimed in the user's name; a seat they held before (a resumed
    table) is re-keyed, which the host may do because the journal keeps only token hashes. ``name`` (default: the
    user's usual one) names a newly claimed seat. Journalled either way. The seat counts as connected, and a table
    it fills starts, only once the user's peer greets the host with the token, so the player sees every move."""
    seat = table.seats[index]
    token = secrets.token_urlsafe(32)
    journal.append(table.apply_seat_record(index, seat.name or name or player_name(), token_hash(token)))
    return token


def local_peer(host: Host, name: str, *, seat: int | None, token: str | None, password: str | None = None) -> Peer:
    """A peer of ``host`` over an in-process memory stream (no reconnecting: the host lives in this process);
    ``password`` answers the table's challenge when it has one."""

    async def connect() -> trio.abc.Stream:
        return host.open_local_stream()

    return Peer("in-process", 0, name=name, seat=seat, token=token, password=password, connect=connect, reconnect=False)


def single_error(exc: BaseException) -> BaseException:
    """The one error inside nested exception groups (trio wraps a task's error in its nursery's group)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def local_host(setup: LocalSetup, *, password: str | None = None, lan: bool = False) -> Host:
    """The host of a table its own user sits at. The user's seat is never handed to a built-in player while
    the table is theirs alone (absence means thinking); a LAN table (``lan``) keeps the usual seat timeout for
    the others."""
    timeout = HostOptions.seat_timeout if lan else math.inf
    return Host(setup.table, journal=setup.journal, options=HostOptions(password=password, seat_timeout=timeout))
