"""The full-screen client's one door to the network side: tables hosted in this process, tables joined over
TCP, and the journals that can be resumed.

Everything the app needs from ``cardnet.host``, ``cardnet.peer``, ``cardnet.protocol``, ``cardnet.journal`` and
``cardnet.ui.local`` is imported here and nowhere else in ``cardnet.ui.app``, so moving those modules means
fixing the imports of this file only.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import trio

from ...games import GAMES
from ...i18n import gettext as _
from ...i18n import ngettext
from ...identity import BadName, check_name, config_path, save_language, save_name, saved_name
from ...journal import JournalError, default_journal_dir, read_journal
from ...net import discovery
from ...net.factory import listen_record, rename_table
from ...net.host import Host
from ...net.seats import SeatStore
from ...net.peer import (
    ChatMessage,
    ConnectionLost,
    HostError,
    Peer,
    PeerError,
    PeerEvent,
    Reconnected,
    Reconnecting,
    RematchVotes,
    SeatsChanged,
)
from ...protocol import MAX_CHAT_CHARS, JSONValue, ProtocolError, StateMessage
from ...table import Table, core_engine
from ...web.qr import web_url
from ...web.server import start_web_seat
from .lobby import TableInfo, table_entry
from .state import LobbyEntry
from ...net.local import (
    LocalError,
    LocalSetup,
    local_host,
    local_peer,
    new_local_table,
    resume_local_table,
    single_error,
)
from ...net.local import player_name as _player_name

__all__ = [
    "BadName",
    "ChatMessage",
    "ConnectionLost",
    "DiscoveryError",
    "DiscoveryListings",
    "HostError",
    "LocalError",
    "MAX_CHAT_CHARS",
    "Link",
    "PeerError",
    "PeerEvent",
    "ProtocolError",
    "Reconnected",
    "Reconnecting",
    "RematchVotes",
    "ResumeEntry",
    "SeatsChanged",
    "StateMessage",
    "host_local",
    "config_path",
    "join_remote",
    "name_is_known",
    "player_name",
    "remember_language",
    "remember_name",
    "lan_interfaces",
    "probe_table",
    "resumable_journals",
    "seat_store",
    "single_error",
]


def player_name() -> str:
    """The name this user plays under (:func:`cardnet.identity.default_name`)."""
    return _player_name()


def name_is_known() -> bool:
    """Whether the player's name was given (``CARDNET_NAME``) or remembered, so nobody needs to ask it."""
    return bool(os.environ.get("CARDNET_NAME")) or saved_name() is not None


def remember_name(name: str) -> str:
    """Plays under ``name`` from now on and keeps it in the user's config; returns it as it will be shown.
    Raises :class:`BadName` (a name a host refuses) or OSError (the config cannot be written: the name still
    holds for this session)."""
    checked = check_name(name)
    os.environ["CARDNET_NAME"] = checked
    save_name(checked)
    return checked


def remember_language(language: str) -> None:
    """Keeps ``language`` in the user's config for the next run; raises OSError when the file cannot be written."""
    save_language(language)


def local_title(game: str, players: int, seat: int) -> str:
    """The title bar's words for a table hosted here: the game, how many play, the player's seat."""
    info = GAMES.get(game)
    return ngettext(
        "{game}: {players} player, you are seat {seat}",
        "{game}: {players} players, you are seat {seat}",
        players,
    ).format(game=info.title if info is not None else game, players=players, seat=seat)


@dataclass
class Link:
    """One running session at a table: the peer the screen reads, and what the table is."""

    peer: Peer
    game: str
    players: int
    seat: int | None
    title: str
    journal: Path | None = None
    #: ``HOST:PORT`` addresses others join at, when this process hosts a LAN table.
    listening: list[str] = field(default_factory=list)
    #: The address of the web seat guests open in a browser, when this process hosts a LAN table with one.
    web_url: str | None = None
    #: Whether the table runs in this process (it stops when we leave).
    local: bool = False
    #: Closes a table hosted here on purpose: every peer is told the host is stopping (``shutting_down``), so
    #: their clients say the table was closed instead of reconnecting.
    host: Host | None = None
    #: How a remote table's title reads at an address: its host may come back on another port after a restart.
    titled: Callable[[str, int], str] | None = None

    def current_title(self) -> str:
        """The title naming the address the peer reaches the table at now."""
        return self.title if self.titled is None else self.titled(self.peer.host, self.peer.port)

    async def close_table(self) -> None:
        """Tells the peers of a table hosted here that it closes (for at most a second)."""
        if self.host is not None:
            with trio.move_on_after(1.0):
                await self.host.shutdown()

    def forget_seat(self) -> None:
        """Leaving on purpose: the kept seat token is dropped (the seat goes to a built-in player)."""
        self.peer.forget_seat()

    @property
    def events(self) -> AsyncIterator[PeerEvent]:
        """The peer's events, in the order the host sent them."""
        return self.peer.events.__aiter__()

    async def move(self, decision_id: int, move: JSONValue | None = None, *, index: int | None = None) -> int:
        """Answers a decision by index into its legal list or with a move object; returns the ref used."""
        return await self.peer.move(decision_id, move, index=index)

    def seats(self) -> list[JSONValue]:
        """The seats as the host described them when we joined (later changes arrive as events)."""
        return list(self.peer.state.table_info.seats)

    async def rematch(self) -> None:
        """Votes for another game at the same table."""
        await self.peer.rematch()


async def host_local(
    nursery: trio.Nursery,
    *,
    game: str | None = None,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    player: str = "random",
    seat: int = 0,
    journal: Path | None = None,
    resume: Path | None = None,
    interfaces: Sequence[str] = (),
    open_seats: int = 0,
    password: str | None = None,
    probe: bool = True,
) -> Link:
    """Hosts a table in this process (new, or resumed from ``resume``) with built-in players in every other
    seat, sits the user at ``seat`` (or their seat in the journal) and returns the link once connected.

    With ``interfaces`` the table also listens on TCP there (a LAN table: ``open_seats`` seats wait for people,
    who need ``password`` when one is set; it is announced on the LAN, after mDNS name probing unless ``probe`` is
    off); the link's ``listening`` names the addresses. Raises
    :class:`LocalError` for an unusable journal, ``OSError`` when an address cannot be listened on, and the
    core's errors for a bad game setup. The table runs in ``nursery`` and stops with it; its journal is closed
    then.
    """
    setup: LocalSetup
    if resume is not None:
        setup = resume_local_table(resume)
    else:
        if game is None:
            raise LocalError("name a game to play")
        setup = new_local_table(game, players, seed, options, player, seat, journal, open_seats)
    table = setup.table
    host = local_host(setup, password=password, lan=bool(interfaces))

    async def serve(*, task_status: trio.TaskStatus[int | None] = trio.TASK_STATUS_IGNORED) -> None:
        try:
            if interfaces:
                await host.serve(list(interfaces), 0, task_status=task_status)
            else:
                await host.serve_in_process(task_status=task_status)
        finally:
            setup.journal.close()

    try:
        port = await nursery.start(serve)
    except BaseException:
        setup.journal.close()
        raise
    web_port: int | None = None
    if interfaces and port is not None:
        try:
            web_port = await start_web_seat(nursery, host, list(interfaces), port)
        except OSError:
            # The table plays on without its web seat: cardnet peers join as ever.
            logging.getLogger(__name__).warning("cannot serve the web seat", exc_info=True)
        # Where it listens, so `cardnet host --resume` (a table with guests resumes there) serves the same
        # addresses: a guest's open browser page can only come back to the one it was loaded from.
        setup.journal.append(listen_record(port, interfaces, web_port))
        nursery.start_soon(_advertise, host, port, interfaces, probe)

    peer = local_peer(host, _player_name(), seat=None, token=setup.token, password=password)
    await nursery.start(peer.run)
    config = table.config
    link = Link(peer, config.game, config.players, setup.seat, setup.header, setup.journal.path, local=True, host=host)
    link.titled = lambda _host, _port: local_title(config.game, config.players, setup.seat)
    link.listening = [f"{address}:{port}" for address in interfaces]
    if web_port is not None:
        link.web_url = web_url(interfaces[0], web_port)
    return link


def seat_store() -> SeatStore:
    """The seat tokens every client shares, by table id (a problem with the file is logged, not shown: the
    screen is the game's)."""
    return SeatStore(warn=logging.getLogger(__name__).warning)


async def join_remote(
    nursery: trio.Nursery,
    address: str,
    port: int,
    *,
    password: str | None = None,
    spectate: bool = False,
    interfaces: Sequence[str] = (),
) -> Link:
    """Joins the table at ``address:port`` over TCP as a player (or a spectator); raises :class:`PeerError`
    when refused (code ``auth_failed`` when a password is needed or wrong).

    A player who sat at this table before, in this client or in ``cardnet join`` (the seat tokens are kept by
    table id in :class:`~cardnet.net.seats.SeatStore`), gets that seat back; a token the table no longer knows
    is forgotten and the player joins as a newcomer. When the table stops answering at its address, it is looked
    up again by its id on ``interfaces`` (a host restarted on another port).
    """
    seats = seat_store()
    locate = _locator(interfaces) if interfaces else None

    def make() -> Peer:
        # A table its host closes on purpose ends here; one that is lost is reconnected to (and looked for).
        return Peer(
            address,
            port,
            name=_player_name(),
            password=password,
            spectate=spectate,
            seats=seats,
            locate=locate,
            wait_for_restart=False,
        )

    peer = make()
    try:
        await nursery.start(peer.run)
    except BaseException as error:
        exc = single_error(error)
        stale = isinstance(exc, PeerError) and exc.code in ("bad_token", "replaced")
        if not (stale and peer.session.token_from_store):
            raise
        peer.forget_seat()
        peer = make()
        await nursery.start(peer.run)
    table = peer.state.table_info
    back = peer.session.token_from_store

    def titled(at: str, on: int) -> str:
        # Worded each time it is shown: the title follows a language switched at the table.
        if spectate:
            text = _("{table} at {address} (watching)")
        elif back:
            text = _("{table} at {address} (playing, seat taken back)")
        else:
            text = _("{table} at {address} (playing)")
        return text.format(table=table.name, address=f"{at}:{on}")

    return Link(peer, table.game, table.players, peer.state.seat, titled(address, port), titled=titled)


def _locator(interfaces: Sequence[str]) -> Callable[[str], Awaitable[tuple[str, int] | None]]:
    async def locate(table_id: str) -> tuple[str, int] | None:
        try:
            found = await discovery.locate_table(table_id, interfaces, LOCATE_TIMEOUT)
        except (discovery.DiscoveryError, OSError):
            return None
        return None if found is None else (found.host, found.port)

    return locate


#: How long the client looks for a table by id on the LAN after its address stopped answering.
LOCATE_TIMEOUT = 3.0


@dataclass(frozen=True)
class ResumeEntry:
    """An unfinished local game found in the default journal folder."""

    path: Path
    game: str
    players: int
    state_id: int
    modified: float
    #: The player's seat and what the table shows everyone now, for the game's own progress words.
    seat: int = 0
    public: Mapping[str, Any] = field(default_factory=dict)


def resumable_journals(limit: int = 20, folder: Path | None = None) -> list[ResumeEntry]:
    """The newest unfinished one-person games in the journal folder (newest first); unreadable journals and
    games already over are left out."""
    root = folder if folder is not None else default_journal_dir()
    try:
        paths = sorted(root.glob("*.journal"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    found: list[ResumeEntry] = []
    for path in paths:
        if len(found) >= limit:
            break
        try:
            contents = read_journal(path)
            table = Table.from_records(contents.records, core_engine(), clock=lambda: 0.0)
            mtime = path.stat().st_mtime
        except (JournalError, ValueError, KeyError, TypeError, OSError):
            continue
        if table.game.is_over() or sum(1 for s in table.seats if s.kind != "bot") != 1:
            continue
        seat = next(n for n, s in enumerate(table.seats) if s.kind != "bot")
        public = json.loads(table.game.view_json(seat)).get("public")
        found.append(
            ResumeEntry(
                path,
                table.config.game,
                table.config.players,
                table.state_id,
                mtime,
                seat,
                public if isinstance(public, dict) else {},
            )
        )
    return found


def lan_interfaces(given: Sequence[str]) -> list[str]:
    """The addresses LAN tables are found and hosted on: ``given`` (``--interface``), else the machine's LAN
    addresses; none under ``CI`` or ``CARDNET_TEST`` unless given (nothing multicasts on an unnamed interface)."""
    try:
        return discovery.choose_interfaces(given)
    except discovery.InterfaceError:
        return []


async def probe_table(address: str, port: int) -> TableInfo | None:
    """Asks the table at ``address:port`` what it is (its first message); None when no table answers."""
    summary = await discovery.probe_table(address, port)
    return None if summary is None else _info(summary)


def _info(summary: discovery.TableSummary) -> TableInfo:
    return TableInfo(
        summary.name, summary.game, summary.seats_total, summary.seats_taken, summary.password, summary.started
    )


DiscoveryError = discovery.DiscoveryError


class DiscoveryListings:
    """The tables LAN discovery finds on ``interfaces``, live (a table that stops answering drops out)."""

    def __init__(self, interfaces: Sequence[str]) -> None:
        self.interfaces = list(interfaces)

    async def listings(self) -> AsyncIterator[list[LobbyEntry]]:
        """The whole list each time it changes."""
        async with discovery.browse(self.interfaces) as browser:
            async for found in browser.changes():
                yield [table_entry(t.host, t.port, _info(t.summary)) for t in found]


async def _advertise(host: Host, port: int, interfaces: Sequence[str], probe: bool) -> None:
    """Announces a LAN table hosted here; the table plays on without it (HOST:PORT still works)."""
    try:
        await discovery.advertise_table(
            lambda: host.session.table_info(""),
            port,
            interfaces=interfaces,
            probe=probe,
            renamed=partial(rename_table, host.table, host.journal),
        )
    except (discovery.DiscoveryError, OSError):
        return
