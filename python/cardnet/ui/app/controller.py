"""The client's trio side: the lobby's and the table's controllers wired together, and what opens first.

The controller runs on the trio side (guest mode, on the UI's own thread). Key handlers call its lobby or table
controller; those that need the network start a trio task and return at once, so a key never blocks the screen.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import trio

from ...i18n import ENV_VAR, LANGUAGES, UnknownLanguage, current_language, parse_language, set_language
from ...i18n import N_
from ...i18n import gettext as _
from . import connection as C
from .lobby import ManualListings
from .lobby_controller import LobbyController
from .runner import Runner
from .start import StartRequest
from .state import AppState
from .table_controller import TableController

__all__ = ["Controller", "StartRequest"]


class Controller:
    """The lobby (:attr:`lobby`) and the table (:attr:`table`) over one :class:`Runner` (:attr:`runner`)."""

    def __init__(self, state: AppState, redraw: Callable[[], None]) -> None:
        self.state = state
        self.runner = Runner(state, redraw)
        self.table = TableController(self.runner, on_open=self._table_opened, on_leave=self._table_left)
        self.lobby = LobbyController(self.runner, self.table)

    def _table_opened(self) -> None:
        self.lobby.stop_discovery()

    def _table_left(self) -> None:
        self.lobby.refresh()
        self.lobby.start_discovery()

    async def run(self, start: StartRequest, scope: trio.CancelScope) -> None:
        """The app's trio side: open what ``start`` asks for, then serve until ``scope`` is cancelled."""
        with scope:
            await self._serve(start)

    async def _serve(self, start: StartRequest) -> None:
        lobby = self.lobby
        async with trio.open_nursery() as nursery:
            self.runner.nursery = nursery
            self.runner.token = trio.lowlevel.current_trio_token()
            lobby.manual = ManualListings(start.connect, C.probe_table)
            lobby.interfaces = C.lan_interfaces(start.interfaces)
            lobby.probe = start.probe
            lobby.refresh()
            nursery.start_soon(lobby.follow, "manual", lobby.manual)
            if start.resume is not None or start.game is not None:
                # Guarded like any table opened from the lobby: a bad journal becomes a message, not a crash.
                self.runner.spawn(lambda: self.table.open_local(start), N_("Starting the game"))
            else:
                lobby.start_discovery()
                if start.ask_name and not C.name_is_known():
                    lobby.ask_name()
            await trio.sleep_forever()

    def switch_language(self, typed: str = "") -> None:
        """F2 (the next language) or ``:lang CODE``: speaks it from the next redraw on, every screen re-worded,
        and keeps it in config.toml for the next run. What was already said (the log, the chat) stays as said."""
        st = self.state
        if typed.strip():
            try:
                language = parse_language(typed.strip())
            except UnknownLanguage as exc:
                st.error = exc.reason
                return
        else:
            codes = list(LANGUAGES)
            language = codes[(codes.index(current_language()) + 1) % len(codes)]
        set_language(language)
        # Words made once and kept (the lobby's entries, the seats' names, the title) are made again.
        self.lobby.refresh()
        self.table.reword()
        st.error = ""
        try:
            C.remember_language(language)
        except OSError as exc:
            st.message = _("Language: {language}, for this session only: cannot write {path} ({reason}).").format(
                language=LANGUAGES[language], path=C.config_path(), reason=exc.strerror
            )
            return
        named = os.environ.get(ENV_VAR, "")
        if named:
            # Kept, but the environment still chooses at the next start: say so rather than seem to forget.
            st.message = _("Language: {language} (kept, but {variable}={value} chooses at start).").format(
                language=LANGUAGES[language], variable=ENV_VAR, value=named
            )
            return
        st.message = _("Language: {language} (kept for next time; F2 switches again).").format(
            language=LANGUAGES[language]
        )

    def clear(self) -> None:
        """Esc: close the list of choices or help, else clear the selection and messages."""
        st = self.state
        ts = st.table
        if st.help_open:
            st.help_open = False
        elif ts is not None and ts.choices:
            ts.choices = []
        elif st.form is not None:
            st.form = None
        elif ts is not None and ts.selected:
            ts.selected.clear()
        st.error = ""
