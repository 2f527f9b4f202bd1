"""Local play: the host runs in-process, built-in players hold the other seats, and the line-mode UI is a peer.

``cardnet play`` goes through the code a LAN table uses: a :class:`~cardnet.table.Table` with its journal, the
trio :class:`~cardnet.net.host.Host`, and a :class:`~cardnet.net.peer.Peer` connected over an in-memory stream instead
of TCP. The UI sees only what the protocol sends its seat (its view, its events, its legal moves), exactly like
a remote player, and a game cut short continues from its journal with ``cardnet play --resume``.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import trio

from ..errors import BadOptions, IllegalMove
from ..games import GAMES
from ..identity import default_name
from ..journal import Journal, JournalError
from ..net.factory import create_table, resume_table, table_config
from ..net.host import Host, HostOptions
from ..net.peer import Peer, PeerError
from ..protocol import token_hash
from ..table import Table
from .line import PlainGame

__all__ = [
    "LocalError",
    "LocalSetup",
    "local_peer",
    "new_local_table",
    "play_local",
    "player_name",
    "rekey_own_seat",
    "resume_local_table",
    "single_error",
]


class LocalError(Exception):
    """The local table cannot be set up or resumed (bad journal, unusable path); exit code 1."""


@dataclass
class LocalSetup:
    """A table ready to run locally: which seat is the player's, and the token that resumes it."""

    table: Table
    journal: Journal
    seat: int
    token: str | None
    header: str


def _players(count: int) -> str:
    return f"{count} player" + ("" if count == 1 else "s")


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
        raise IllegalMove("no_such_seat", f"seat {seat} does not exist in a {count}-player game")
    config = table_config(
        game,
        players=count,
        seed=seed,
        options=options,
        bots={s: player for s in [s for s in range(count) if s != seat][: count - 1 - open_seats]},
        name=f"{player_name()}'s {game}",
    )
    # The core checks the player count and options here, before a journal file exists.
    try:
        table, journal = create_table(config, journal=journal_path)
    except JournalError as exc:
        raise LocalError(str(exc)) from None
    title = info.title
    # Only a seed the player chose is shown: a random deal's seed would reveal every hidden card.
    deal = f"seed {seed}" if config.seeded else "random deal"
    header = f"{title}: {_players(count)}, you are seat {seat}, {deal}."
    return LocalSetup(table, journal, seat, None, header)


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
            f"{path} has {len(people)} seats for people, not one; continue it with: cardnet host --resume {path}"
        )
    mine = people[0]
    token = rekey_own_seat(table, journal, mine.index)
    info = GAMES.get(table.config.game)
    title = info.title if info else table.config.game
    torn = "" if resumed.torn is None else f" ({resumed.torn.describe()})"
    header = (
        f"{title}: {_players(table.config.players)}, you are seat {mine.index}; "
        f"resumed at state {table.state_id}{torn}."
    )
    return LocalSetup(table, journal, mine.index, token, header)


async def _play(build: Callable[[], LocalSetup], stdin: TextIO, stdout: TextIO) -> int:
    setup = build()
    table = setup.table
    path = setup.journal.path
    stdout.write(f"journal: {path}\n")
    stdout.write(setup.header + "\n")
    stdout.write("Type a number or a move; 'help' for commands.\n")
    stdout.flush()
    # The player's own seat is never handed to a built-in player: in local play, absence means thinking.
    host = Host(table, journal=setup.journal, options=HostOptions(seat_timeout=math.inf))
    hint = f"The game is saved; continue it with: cardnet play --resume {path}"
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(host.serve_in_process)
            peer = local_peer(host, player_name(), seat=setup.seat if setup.token is None else None, token=setup.token)
            await nursery.start(peer.run)
            cfg = table.config
            ui = PlainGame(peer, cfg.game, setup.seat, cfg.players, stdin, stdout, leave_lines=[hint, "Bye."])
            code = await ui.run()
            nursery.cancel_scope.cancel()
    finally:
        setup.journal.close()
    return code


def rekey_own_seat(table: Table, journal: Journal, index: int) -> str | None:
    """A fresh token for the host's own resumed seat (None when nobody sat there yet, so it is simply taken).

    The host may re-key its own seat because the journal keeps only token hashes; the new hash is journalled.
    """
    seat = table.seats[index]
    if seat.kind != "human":
        return None
    token = secrets.token_urlsafe(32)
    journal.append(table.apply_seat_record(index, seat.name or player_name(), token_hash(token)))
    return token


def local_peer(
    host: Host, name: str, *, seat: int | None, token: str | None, password: str | None = None
) -> Peer:
    """A peer of ``host`` over an in-process memory stream (no reconnecting: the host lives in this process);
    ``password`` answers the table's challenge when it has one."""

    async def connect() -> trio.abc.Stream:
        return host.open_local_stream()

    return Peer(
        "in-process", 0, name=name, seat=seat, token=token, password=password, connect=connect, reconnect=False
    )


def single_error(exc: BaseException) -> BaseException:
    """The one error inside nested exception groups (trio wraps a task's error in its nursery's group)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def play_local(
    game: str | None,
    *,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    player: str = "random",
    seat: int = 0,
    journal: Path | None = None,
    resume: Path | None = None,
    stdin: TextIO,
    stdout: TextIO,
) -> int:
    """Runs one local game (new, or resumed from ``resume``) through an in-process host; returns the exit code.

    ``player`` is the built-in player (or level) of every other seat. Raises :class:`LocalError` when the
    journal cannot be created or resumed, and the core's errors for a bad game setup.
    """
    if resume is not None:

        def build() -> LocalSetup:
            return resume_local_table(resume)

    else:
        if game is None:
            raise BadOptions("name a game to play")

        def build() -> LocalSetup:
            return new_local_table(game, players, seed, options, player, seat, journal)

    try:
        return trio.run(_play, build, stdin, stdout)
    except BaseExceptionGroup as group:
        inner = single_error(group)
        if isinstance(inner, PeerError):
            raise LocalError(f"the local table refused the player: {inner}") from None
        if inner is group:
            raise
        raise inner from None
