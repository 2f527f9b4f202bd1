"""The lobby on the full screen: the tables LAN discovery and typed addresses list, unfinished games to resume,
the new-table form, and the player's name."""

from __future__ import annotations

import trio

from ...i18n import N_
from ...i18n import gettext as _
from . import connection as C
from . import remembered
from .lobby import (
    ListingSource,
    ManualListings,
    focused_key,
    form_settings,
    new_form,
    parse_address,
    remember,
    resume_entry,
)
from .runner import Runner
from .start import StartRequest
from .state import AppState, LobbyEntry
from .table_controller import TableController

__all__ = ["LobbyController"]


class LobbyController:
    """What the lobby's keys do; a table opened from it is the :class:`TableController`'s."""

    def __init__(self, runner: Runner, table: TableController) -> None:
        self.runner, self.table = runner, table
        self.manual: ManualListings | None = None
        #: The latest list from each listing source: ``manual`` (by address), ``lan`` (discovery).
        self.listed: dict[str, list[LobbyEntry]] = {}
        self._discovery: trio.CancelScope | None = None
        self.interfaces: list[str] = []
        #: Whether LAN tables hosted from the lobby's form probe for a unique name (``--no-probe`` turns it off).
        self.probe = True
        #: Where the new-table form keeps its last choices per game.
        self.form_memory = remembered.default_path()

    @property
    def state(self) -> AppState:
        """The client's state (the runner's)."""
        return self.runner.state

    def ask_name(self) -> None:
        """Asks the name to play under (once: it is remembered in the user's config)."""
        default = C.player_name()
        self.runner.ask(
            _("Your name at the tables (Enter: {name}):").format(name=default) + " ", self.set_name, secret=False
        )
        # Asked again from the answer to the last question: the line opens now, not at some later redraw.
        self.runner.redraw()

    def set_name(self, text: str) -> None:
        """Plays under ``text`` (or the name shown as the default) from now on, and remembers it."""
        try:
            name = C.remember_name(text.strip() or C.player_name())
        except C.BadName as exc:
            self.state.error = _("Name: {problem}.").format(problem=exc)
            self.ask_name()
            return
        except OSError as exc:
            self.state.error = _("Name kept for this session only: cannot write {path} ({reason}).").format(
                path=C.config_path(), reason=exc.strerror
            )
            return
        self.state.error, self.state.message = "", _("You play as {name} (':name NAME' changes it).").format(name=name)

    def start_discovery(self) -> None:
        """Lists the tables LAN discovery finds while the lobby is shown (not while playing: a table needs none)."""
        if not self.interfaces or self._discovery is not None:
            return
        scope = self._discovery = trio.CancelScope()
        source = C.DiscoveryListings(self.interfaces)

        async def discover() -> None:
            try:
                with scope:
                    await self.follow("lan", source)
            finally:
                self._discovery = None
                self.listed.pop("lan", None)
                self.refresh()

        self.runner.spawn(discover, N_("LAN discovery"))

    def stop_discovery(self) -> None:
        """Stops browsing (a table was opened)."""
        if self._discovery is not None:
            self._discovery.cancel()

    def refresh(self) -> None:
        """Rebuilds the lobby list (new table, tables listed by every source, unfinished games) keeping the
        cursor in range."""
        st = self.state
        tables: list[LobbyEntry] = []
        seen: set[tuple[str | None, int | None]] = set()
        for key in ("manual", "lan"):
            for entry in self.listed.get(key, []):
                # A table given by address and also found on the LAN is listed once.
                if (entry.address, entry.port) not in seen:
                    seen.add((entry.address, entry.port))
                    tables.append(entry)
        resumes = [
            resume_entry(r.path, r.game, r.players, r.modified, r.seat, r.public) for r in C.resumable_journals()
        ]
        st.entries = [LobbyEntry("new", _("New table"), _("host a game here against built-in players"))]
        st.entries += tables + resumes
        st.lobby_cursor = min(st.lobby_cursor, len(st.entries) - 1)

    async def follow(self, key: str, source: ListingSource) -> None:
        """Keeps the lobby listing what ``source`` lists (under ``key``) until it stops."""
        async for tables in source.listings():
            self.listed[key] = tables
            self.refresh()
            self.runner.redraw()

    def add_address(self, text: str) -> None:
        """Adds a ``HOST:PORT`` table to the lobby (asked what it is at once)."""
        host, port = parse_address(text)
        if self.manual is not None:
            self.manual.add(host, port)
        self.state.message = _("Added {address}; Enter joins it.").format(address=f"{host}:{port}")

    def enter(self) -> None:
        """Enter on the lobby: open the form, join a table, or resume a journal."""
        st = self.state
        form = st.form
        if form is not None:
            if focused_key(form) == "password":
                self.runner.ask(
                    _("Table password (empty for none):") + " ", lambda text: setattr(form, "password", text)
                )
                return
            req = form_settings(form)
            remembered.save(self.form_memory, remember(form))
            st.form = None
            start = StartRequest(
                req.game,
                req.players,
                None,
                req.options,
                req.level,
                interfaces=req.interfaces,
                open_seats=req.open_seats,
                password=req.password,
                probe=self.probe,
            )
            self.runner.spawn(lambda: self.table.open_local(start), N_("New table"))
            return
        if not st.entries:
            return
        entry = st.entries[st.lobby_cursor]
        if entry.kind == "new":
            st.form = new_form(self.interfaces, remembered=remembered.load(self.form_memory))
        elif entry.kind == "resume" and entry.path is not None:
            path = entry.path
            self.runner.spawn(lambda: self.table.open_local(StartRequest(resume=path)), N_("Resuming"))
        elif entry.kind == "table":
            self.join_entry(spectate=False)

    def join_entry(self, *, spectate: bool, password: str | None = None) -> None:
        """Joins (or watches) the table under the lobby cursor."""
        st = self.state
        entry = st.entries[st.lobby_cursor] if st.entries else None
        if entry is None or entry.kind != "table" or entry.address is None or entry.port is None:
            st.error = _("Pick a table to join first.")
            return
        address, port = entry.address, entry.port
        self.runner.spawn(lambda: self.table.join(address, port, password, spectate, self.interfaces), N_("Joining"))
