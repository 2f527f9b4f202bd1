"""The one table factory: ``cardnet host``, local play and the tests build and resume tables here.

:func:`table_config` turns what a person asked for (game, seats, bots, seed, options) into a
:class:`~cardnet.table.TableConfig`; :func:`create_table` builds the table (the core checks the player count
and options before any file exists) and starts its journal; :func:`resume_table` takes a journal and rebuilds
the table exactly.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import trio

from ..errors import UnknownGame
from ..games import GAMES
from ..identity import default_name
from ..journal import Journal, JournalContents, TornTail, default_journal_path
from ..protocol import Encodable
from ..table import Engine, Table, TableConfig, core_engine

__all__ = ["Resumed", "create_table", "listen_record", "rename_table", "resume_table", "table_config"]


def table_config(
    game: str,
    *,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    bots: Mapping[int, str] | None = None,
    name: str | None = None,
    turn_timer: float | None = None,
) -> TableConfig:
    """A new table's configuration: the game's default player count, a random seed unless one is given (a
    given seed marks the table "seeded"), a fresh table id, and a name from the player's (``NAME's GAME``, see
    :func:`cardnet.identity.default_name`). Raises UnknownGame
    when the player count must come from a game the core does not know."""
    if players is None:
        info = GAMES.get(game)
        if info is None:
            raise UnknownGame(f"unknown game {game!r} (games: {', '.join(GAMES)})")
        players = int(info.default_players)
    return TableConfig(
        game=game,
        players=players,
        seed=seed if seed is not None else secrets.randbits(63),
        options=dict(options or {}),
        seeded=seed is not None,
        name=name or f"{default_name()}'s {game}",
        table_id=secrets.token_hex(8),
        turn_timer=turn_timer,
        bots=dict(bots or {}),
    )


def create_table(
    config: TableConfig,
    *,
    journal: str | os.PathLike[str] | None = None,
    fsync: bool = False,
    engine: Engine | None = None,
    clock: Callable[[], float] = trio.current_time,
) -> tuple[Table, Journal]:
    """Build the table (raises the core's error for a bad setup, before any file exists) and start its journal
    at ``journal`` (default: under the user's state directory); raises JournalError when it cannot."""
    table = Table(config, engine or core_engine(), clock=clock)
    path = journal if journal is not None else default_journal_path(config.table_id)
    book = Journal.create(path, fsync=fsync)
    book.append(config.record())
    return table, book


@dataclass
class Resumed:
    """A table rebuilt from its journal, the journal open for appending, and any torn tail that was cut."""

    table: Table
    journal: Journal
    torn: TornTail | None
    #: The TCP port the table last listened on (its journal's last ``listen`` record); None when it never
    #: listened, or its journal is from before ports were recorded.
    port: int | None = None
    #: The port its web seat last served on (the same record's ``web``); None without a web seat, or when the
    #: journal is from before web ports were recorded.
    web_port: int | None = None


def listen_record(port: int, interfaces: Sequence[str], web_port: int | None = None) -> dict[str, Encodable]:
    """The journal record of where a table listens (and its web seat, if it has one), so ``--resume`` can listen
    there again: a browser can only come back to the address it was given."""
    record: dict[str, Encodable] = {"kind": "listen", "port": port, "interfaces": list(interfaces)}
    if web_port is not None:
        record["web"] = web_port
    return record


def _last_ports(records: Sequence[Mapping[str, Any]]) -> tuple[int | None, int | None]:
    """The table's and the web seat's port of the last ``listen`` record with a valid port."""
    for rec in reversed(records):
        if rec.get("kind") == "listen":
            port = rec.get("port")
            if isinstance(port, int) and 0 < port < 65536:
                web = rec.get("web")
                return port, web if isinstance(web, int) and 0 < web < 65536 else None
    return None, None


def resume_table(
    path: str | os.PathLike[str],
    *,
    fsync: bool = False,
    engine: Engine | None = None,
    clock: Callable[[], float] = trio.current_time,
) -> Resumed:
    """Continue the table recorded in ``path``: raises JournalError when the file cannot be used and
    ValueError when its records do not replay (the journal is then closed again, untouched)."""
    tables: list[Table] = []

    def replay(contents: JournalContents) -> None:
        # Replayed before the journal is opened for writing, so a journal that does not replay keeps its tail.
        try:
            tables.append(Table.from_records(contents.records, engine or core_engine(), clock=clock))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"cannot resume {path}: {exc}") from None

    journal, contents = Journal.open_resume(path, fsync=fsync, accept=replay)
    port, web_port = _last_ports(contents.records)
    return Resumed(tables[0], journal, contents.torn, port, web_port)


def rename_table(table: Table, journal: Journal | None, name: str) -> None:
    """Show ``table`` as ``name`` from now on (its ``table`` message, so every list and lobby) and journal the
    new name, so a resumed table keeps it: mDNS probing renamed the table because its name was taken."""
    record = table.rename(name)
    if journal is not None:
        journal.append(record)
