"""What the client does: open tables, feed the host's messages into the state, send moves.

The controller runs on the trio side (guest mode, on the UI's own thread). Key handlers call its methods; those
that need the network start a trio task and return at once, so a key never blocks the screen.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import time

import trio

from ...errors import CardnetError
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
from .moves import all_choices, bid_range, hand_cards, pass_choice, quick_choice, selection_choices, settle_choice
from .state import SENDING, AppState, Choice, LobbyEntry, TableState

__all__ = ["CHAT_ERRORS", "Controller", "StartRequest"]

#: The host's chat refusals, in player words.
CHAT_ERRORS = {
    "chat_rate": "too many lines at once; wait a moment",
    "chat_too_long": f"a line holds at most {C.MAX_CHAT_CHARS} characters",
    "chat_disabled": "this table has no chat",
}

#: How the status line begins when the client played a seat's only legal move for it.
FORCED_NOTE = "Your only move: "
#: What ``e`` (settle a payment) says when it cannot pay on its own.
SETTLE_TEXT = {
    "cards": "The rest is paid with cards: pick each with the arrows and Enter.",
    "nothing": "You owe nothing now.",
}


@dataclass
class StartRequest:
    """What the command line asked the app to open first: a local game, a resumed journal, or the lobby."""

    game: str | None = None
    players: int | None = None
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    player: str = "normal"
    seat: int = 0
    journal: Path | None = None
    resume: Path | None = None
    connect: list[tuple[str, int]] = field(default_factory=list)
    interfaces: list[str] = field(default_factory=list)
    open_seats: int = 0
    password: str | None = None
    #: Whether a LAN table hosted here checks by mDNS probing that its name is unique before announcing it.
    probe: bool = True
    #: Whether the lobby asks the player's name when none is known yet (``cardnet play`` in a terminal does).
    ask_name: bool = False


async def say_bye(link: C.Link) -> None:
    """Leaving a joined table on purpose: its kept seat token is forgotten and the host is told ``bye`` (for at most
    a second). A host that is already gone needs no goodbye, so a closed connection is not an error here."""
    link.forget_seat()
    with trio.move_on_after(1.0):
        try:
            await link.peer.bye()
        except (C.PeerError, OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            return


class Controller:
    """Owns the :class:`AppState` and the trio nursery the tables run in."""

    def __init__(self, state: AppState, redraw: Callable[[], None]) -> None:
        self.state = state
        self.redraw = redraw
        self.nursery: trio.Nursery | None = None
        self.token: trio.lowlevel.TrioToken | None = None
        self.link: C.Link | None = None
        self.manual: ManualListings | None = None
        #: The latest list from each listing source: ``manual`` (by address), ``lan`` (discovery).
        self.listed: dict[str, list[LobbyEntry]] = {}
        self._discovery: trio.CancelScope | None = None
        self.interfaces: list[str] = []
        #: Whether LAN tables hosted from the lobby's form probe for a unique name (``--no-probe`` turns it off).
        self.probe = True
        self._table_scope: trio.CancelScope | None = None
        #: Set when a decision with a turn timer arrives (the countdown task sleeps until then).
        self._timer = trio.Event()
        #: What the next line typed at the prompt is for (a password), and where it goes.
        self.prompt_answer: Callable[[str], None] | None = None
        #: Where the new-table form keeps its last choices per game.
        self.form_memory = remembered.default_path()

    # -- running tasks -------------------------------------------------------------------------------------

    def spawn(self, work: Callable[[], Awaitable[None]], what: str) -> None:
        """Runs ``work`` as a trio task; an error it raises becomes the screen's error line, not a crash."""
        nursery, token = self.nursery, self.token
        if nursery is None or token is None:
            self.state.error = "not ready yet"
            return

        async def guarded() -> None:
            try:
                await work()
            except BaseException as exc:
                inner = C.single_error(exc)
                known = (CardnetError, C.PeerError, C.LocalError, C.ProtocolError, C.DiscoveryError, OSError, ValueError)
                if not isinstance(inner, known):
                    raise
                self.state.error = f"{what}: {inner}"
                self.state.busy = ""
            self.redraw()

        # Key handlers run outside trio's context; the token hands the task over on the same thread.
        token.run_sync_soon(nursery.start_soon, guarded)

    async def run(self, start: StartRequest, scope: trio.CancelScope) -> None:
        """The app's trio side: open what ``start`` asks for, then serve until ``scope`` is cancelled."""
        with scope:
            await self._serve(start)

    async def _serve(self, start: StartRequest) -> None:
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            self.token = trio.lowlevel.current_trio_token()
            self.manual = ManualListings(start.connect, C.probe_table)
            self.interfaces = C.lan_interfaces(start.interfaces)
            self.probe = start.probe
            self.refresh_lobby()
            nursery.start_soon(self._follow, "manual", self.manual)
            if start.resume is not None or start.game is not None:
                # Guarded like any table opened from the lobby: a bad journal becomes a message, not a crash.
                self.spawn(lambda: self._open_local(start), "play")
            else:
                self.start_discovery()
                if start.ask_name and not C.name_is_known():
                    self.ask_name()
            await trio.sleep_forever()

    def ask_name(self) -> None:
        """Asks the name to play under (once: it is remembered in the user's config)."""
        default = C.player_name()
        self.ask(f"Your name at the tables (Enter: {default}): ", self.set_name, secret=False)
        # Asked again from the answer to the last question: the line opens now, not at some later redraw.
        self.redraw()

    def set_name(self, text: str) -> None:
        """Plays under ``text`` (or the name shown as the default) from now on, and remembers it."""
        try:
            name = C.remember_name(text.strip() or C.player_name())
        except C.BadName as exc:
            self.state.error = f"Name: {exc}."
            self.ask_name()
            return
        except OSError as exc:
            self.state.error = f"Name kept for this session only: cannot write {C.config_path()} ({exc.strerror})."
            return
        self.state.error, self.state.message = "", f"You play as {name} (':name NAME' changes it)."

    def start_discovery(self) -> None:
        """Lists the tables LAN discovery finds while the lobby is shown (not while playing: a table needs none)."""
        if not self.interfaces or self._discovery is not None:
            return
        scope = self._discovery = trio.CancelScope()
        source = C.DiscoveryListings(self.interfaces)

        async def discover() -> None:
            try:
                with scope:
                    await self._follow("lan", source)
            finally:
                self._discovery = None
                self.listed.pop("lan", None)
                self.refresh_lobby()

        self.spawn(discover, "LAN discovery")

    def stop_discovery(self) -> None:
        """Stops browsing (a table was opened)."""
        if self._discovery is not None:
            self._discovery.cancel()

    # -- the lobby -----------------------------------------------------------------------------------------

    def refresh_lobby(self) -> None:
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
        st.entries = [LobbyEntry("new", "New table", "host a game here against built-in players")]
        st.entries += tables + resumes
        st.lobby_cursor = min(st.lobby_cursor, len(st.entries) - 1)

    async def _follow(self, key: str, source: ListingSource) -> None:
        async for tables in source.listings():
            self.listed[key] = tables
            self.refresh_lobby()
            self.redraw()

    def add_address(self, text: str) -> None:
        """Adds a ``HOST:PORT`` table to the lobby (asked what it is at once)."""
        host, port = parse_address(text)
        if self.manual is not None:
            self.manual.add(host, port)
        self.state.message = f"Added {host}:{port}; Enter joins it."

    def ask(self, label: str, answer: Callable[[str], None], *, secret: bool = True) -> None:
        """Opens the prompt line for one answer (a password); ``answer`` gets the text typed."""
        self.state.prompt, self.state.prompt_secret = label, secret
        self.prompt_answer = answer

    def answer(self, text: str) -> bool:
        """Hands a line typed at the prompt to whoever asked; False when nothing had asked."""
        respond = self.prompt_answer
        self.answer_none()
        if respond is None:
            return False
        respond(text)
        return True

    def answer_none(self) -> None:
        """The prompt was closed without an answer."""
        self.prompt_answer = None
        self.state.prompt, self.state.prompt_secret = "", False

    def lobby_enter(self) -> None:
        """Enter on the lobby: open the form, join a table, or resume a journal."""
        st = self.state
        form = st.form
        if form is not None:
            if focused_key(form) == "password":
                self.ask("Table password (empty for none): ", lambda text: setattr(form, "password", text))
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
            self.spawn(lambda: self._open_local(start), "new table")
            return
        if not st.entries:
            return
        entry = st.entries[st.lobby_cursor]
        if entry.kind == "new":
            st.form = new_form(self.interfaces, remembered=remembered.load(self.form_memory))
        elif entry.kind == "resume" and entry.path is not None:
            path = entry.path
            self.spawn(lambda: self._open_local(StartRequest(resume=path)), "resume")
        elif entry.kind == "table":
            self.join_entry(spectate=False)

    def join_entry(self, *, spectate: bool, password: str | None = None) -> None:
        """Joins (or watches) the table under the lobby cursor."""
        st = self.state
        entry = st.entries[st.lobby_cursor] if st.entries else None
        if entry is None or entry.kind != "table" or entry.address is None or entry.port is None:
            st.error = "Pick a table to join first."
            return
        address, port = entry.address, entry.port
        self.spawn(lambda: self._join(address, port, password, spectate), "join")

    # -- tables --------------------------------------------------------------------------------------------

    async def _open_local(self, start: StartRequest) -> None:
        self.state.busy = "Setting up the table..."
        self.redraw()
        await self._serve_table(
            lambda nursery: C.host_local(
                nursery,
                game=start.game,
                players=start.players,
                seed=start.seed,
                options=start.options,
                player=start.player,
                seat=start.seat,
                journal=start.journal,
                resume=start.resume,
                interfaces=start.interfaces,
                open_seats=start.open_seats,
                password=start.password,
                probe=start.probe,
            )
        )

    async def _join(self, address: str, port: int, password: str | None, spectate: bool) -> None:
        self.state.busy = f"Joining {address}:{port}..."
        self.redraw()
        try:
            await self._serve_table(
                lambda nursery: C.join_remote(
                    nursery, address, port, password=password, spectate=spectate, interfaces=self.interfaces
                )
            )
        except BaseException as error:
            exc = C.single_error(error)
            if not isinstance(exc, C.PeerError) or exc.code != "auth_failed":
                raise
            self.state.busy = ""
            if password is not None:
                self.state.error = f"join: {exc.reason}"
            self.ask(
                f"Password for {address}:{port}: ",
                lambda text: self.join_entry(spectate=spectate, password=text),
            )

    async def _serve_table(self, open_link: Callable[[trio.Nursery], Awaitable[C.Link]]) -> None:
        with trio.CancelScope() as scope:
            self._table_scope = scope
            await self._run_table(open_link)
        self._table_scope = None

    async def _run_table(self, open_link: Callable[[trio.Nursery], Awaitable[C.Link]]) -> None:
        async with trio.open_nursery() as nursery:
            link = await open_link(nursery)
            self.link = link
            self.stop_discovery()
            st = self.state
            st.table = TableState.open(link.game, link.players, link.seat, link.title, link.journal)
            st.table.set_seats(link.seats())
            st.table.listening = list(link.listening)
            st.screen, st.busy, st.error, st.message = "table", "", "", ""
            if link.listening:
                where = " or ".join(link.listening)
                st.message = f"Others join at {where} (cardnet play --connect {link.listening[0]})"
            self.redraw()
            nursery.start_soon(self._count_down, st.table)
            await self._pump(link, st.table)
            nursery.cancel_scope.cancel()

    async def _count_down(self, ts: TableState) -> None:
        """Redraws once a second while our decision has a turn timer; sleeps otherwise (no idle redraws)."""
        while True:
            deadline = ts.deadline
            if deadline is None or not ts.my_turn:
                await self._timer.wait()
                self._timer = trio.Event()
                continue
            self.redraw()
            left = deadline - time.monotonic()
            await trio.sleep(left % 1.0 if left > 0 and left % 1.0 > 0.05 else 1.0)

    async def _pump(self, link: C.Link, ts: TableState) -> None:
        """Feeds the host's messages for this seat into the table state until the connection ends."""
        async for event in link.events:
            if isinstance(event, C.StateMessage):
                self._on_state(ts, event)
                await self._maybe_forced(ts)
            elif isinstance(event, C.HostError):
                self._on_error(ts, event)
            elif isinstance(event, C.SeatsChanged):
                ts.set_seats(event.seats, event.spectators)
            elif isinstance(event, C.RematchVotes):
                if event.game_no == ts.game_no:
                    ts.rematch_votes = sorted(event.votes)
            elif isinstance(event, C.ChatMessage):
                who = f"{event.name} (watching)" if event.spectator else event.name
                ts.add_chat(f"{'(earlier) ' if event.earlier else ''}<{who}> {event.text}")
            elif isinstance(event, C.ConnectionLost):
                ts.connected = False
                if event.silent:
                    # The connection is still open but the host's heartbeat stopped: it hangs, or the LAN does.
                    ts.banner = f"HOST NOT ANSWERING - {event.reason}; reconnecting with your seat token"
                else:
                    ts.banner = f"CONNECTION LOST - reconnecting with your seat token ({event.reason})"
            elif isinstance(event, C.Reconnecting):
                ts.banner = (
                    f"HOST UNREACHABLE - reconnect attempt {event.attempt} failed, next in {event.delay:.1f} s "
                    f"({event.reason})"
                )
            elif isinstance(event, C.Reconnected):
                ts.connected, ts.banner = True, ""
                self.state.error, self.state.message = "", "Reconnected: back at your seat."
            self.redraw()
        ts.connected = False
        ts.banner = "DISCONNECTED - the table is gone (b: back to the lobby)."
        if link.peer.failure is not None:
            ts.banner = f"DISCONNECTED - {link.peer.failure} (b: back to the lobby)."
        elif link.peer.session.closed_by_host:
            # On purpose, not lost: nothing is retried.
            ts.banner = "TABLE CLOSED - the host closed the table (b: back to the lobby)."
        self.redraw()

    def _on_state(self, ts: TableState, msg: C.StateMessage) -> None:
        ts.renderer.observe(msg.view)
        if ts.game_no is not None and msg.game_no != ts.game_no:
            ts.add_log(f"-- Game {msg.game_no + 1} begins (same seats) --")
            self.state.message = ""
            ts.rematch_votes = []
        ts.game_no = msg.game_no
        decision_changed = msg.decision_id != ts.decision_id or msg.view.get("private") != ts.view.get("private")
        ts.view = msg.view
        ts.to_act = list(msg.to_act)
        ts.decision_id = msg.decision_id if ts.seat in msg.to_act else None
        if ts.decision_id is None or msg.deadline_ms is None:
            ts.deadline = None
        elif decision_changed or ts.deadline is None:
            ts.deadline = time.monotonic() + msg.deadline_ms / 1000
            self._timer.set()
        ts.legal = list(msg.legal)
        ts.over, ts.outcome = msg.over, msg.outcome
        if msg.ack is not None:
            ts.acked = msg.ack.get("ref")
            if ts.acked == ts.pending:
                ts.pending = None
        if msg.kind == "snapshot":
            ts.pending = None
        for event in msg.events:
            if isinstance(event, dict):
                text = ts.renderer.event_text(event)
                if text:
                    ts.add_log(text)
        if decision_changed:
            if self.state.message.startswith(FORCED_NOTE):
                # The forced move is in the log now; the note would misstate this new decision.
                self.state.message = ""
            ts.selected.clear()
            ts.choices = []
            count = len(hand_cards(ts))
            # A cursor row that is a new list each decision (a market, then payment pieces) starts at its head.
            ts.cursor = 0 if ts.screen.cursor_restarts else min(ts.cursor, max(0, count - 1))
            bids = bid_range(ts)
            if bids is not None:
                ts.bid = bids[0]
            self._settle_next(ts)
        if ts.over:
            if ts.seat is None:
                self.state.message = "Game over. b: back to the lobby   Ctrl-Q: quit"
            else:
                self.state.message = "Game over. r: rematch   b: back to the lobby   Ctrl-Q: quit"

    def _on_error(self, ts: TableState, err: C.HostError) -> None:
        if err.code in CHAT_ERRORS:
            self.state.error = f"Chat: {CHAT_ERRORS[err.code]} ({err.reason})"
            return
        if err.ref is not None:
            ts.acked = err.ref
        # The one move in flight may be refused before its sender has learned its ref.
        if ts.pending is not None and (err.ref == ts.pending or (ts.pending == SENDING and err.ref is not None)):
            ts.pending = None
            self.state.error = f"Refused: {err.reason}"
        else:
            self.state.error = f"Host: {err.reason} ({err.code})"

    async def _maybe_forced(self, ts: TableState) -> None:
        """A decision with one legal move is answered for the player, as line mode does."""
        if ts.my_turn and len(ts.legal) == 1 and ts.decision_id is not None:
            text = ts.renderer.move_text(ts.legal[0])
            self.state.message = f"{FORCED_NOTE}{text}"
            await self._send(ts, Choice(text, index=0))

    async def _send(self, ts: TableState, choice: Choice) -> None:
        link, decision = self.link, ts.decision_id
        if link is None or decision is None:
            return
        ts.pending_text = choice.label.split("   (")[0]
        # Marked as sent before the send yields, so no key can answer the same decision a second time.
        ts.pending = SENDING
        try:
            ref = await link.move(decision, choice.move, index=choice.index)
        except BaseException:
            ts.pending = None
            raise
        ts.pending = None if ts.acked == ref else ref
        ts.choices = []
        self.redraw()

    # -- moves from keys -----------------------------------------------------------------------------------

    def _ready(self) -> TableState | None:
        ts = self.state.table
        if ts is None:
            return None
        if ts.over:
            self.state.error = "The game is over."
            return None
        if ts.seat is None:
            self.state.error = "You are watching this table: moves are for the players."
            return None
        if not ts.connected:
            self.state.error = "Not connected: your move can wait until the client is back at the table."
            return None
        if not ts.my_turn:
            self.state.error = "Sent, waiting for the host." if ts.pending is not None else "It is not your turn."
            return None
        return ts

    def offer(self, choices: list[Choice], nothing: str) -> None:
        """Sends a single choice, lists several, or says ``nothing`` when there is none."""
        ts = self._ready()
        if ts is None:
            return
        self.state.error = ""
        if not choices:
            self.state.error = nothing
        elif len(choices) == 1:
            self.choose(choices[0])
        else:
            ts.choices, ts.choice_cursor = choices, 0

    def choose(self, choice: Choice) -> None:
        """Sends one move to the host (the screen changes only when the host answers)."""
        ts = self._ready()
        if ts is None:
            return
        self.spawn(lambda: self._send(ts, choice), "move")

    def play_selection(self) -> None:
        """Enter at a table: the selected cards (or the one under the cursor) as a move."""
        ts = self.state.table
        if ts is not None:
            self.offer(selection_choices(ts), "Select cards first (Space), then press Enter.")

    def list_moves(self) -> None:
        """Lists every legal move to pick from."""
        ts = self.state.table
        if ts is not None:
            self.offer(all_choices(ts), "No move to make.")

    def pass_turn(self) -> None:
        """``p``: pass, when the game has a pass."""
        ts = self.state.table
        if ts is None:
            return
        choice = pass_choice(ts)
        self.offer([choice] if choice else [], "This game has no pass.")

    def typed_move(self, text: str) -> None:
        """A move typed in the line-mode words (``play 8 3 17``, ``pick D``); the host judges it."""
        ts = self.state.table
        if ts is None:
            self.state.error = f"Unknown command: {text}"
            return
        try:
            move = ts.renderer.parse_move(text, ts.view)
        except ValueError as exc:
            # The renderer's own refusal (MoveTextError: a position not in the hand, a card named twice).
            self.state.error = str(exc)
            return
        if move is None:
            self.state.error = f"Not understood: {text!r} (? shows the keys and how to type moves)"
            return
        for i, legal in enumerate(ts.legal):
            if legal == move:
                self.offer([Choice(ts.renderer.move_text(move), index=i)], "")
                return
        self.offer([Choice(ts.renderer.move_text(move), move=move)], "")

    def game_key(self, name: str) -> None:
        """The table's game's own key ``name`` (a :class:`GameKey` of its screen): its one-key move, settling a
        debt or changing the bid; says so when this game has no such key."""
        ts = self.state.table
        key = next((k for k in ts.screen.keys if k.name == name), None) if ts is not None else None
        if key is None:
            self.state.error = f"No '{name}' in this game."
        elif key.action == "settle":
            self.settle()
        elif key.action == "bid":
            self.change_bid(key.step)
        elif key.move is not None:
            self.quick(dict(key.move), key.what)

    def quick(self, move: dict[str, Any], what: str) -> None:
        """A one-key move of the game's own; says when it is not one of the open decision's moves."""
        ts = self.state.table
        if ts is None:
            return
        choice = quick_choice(ts, move)
        self.offer([choice] if choice else [], f"You cannot {what} now.")

    def settle(self) -> None:
        """``e`` in a payment: pays the least that settles the debt, one piece per decision."""
        ts = self.state.table
        if ts is None:
            return
        choice = settle_choice(ts)
        if choice is None:
            self.state.error = SETTLE_TEXT["cards"] if ts.screen.owes(ts) else SETTLE_TEXT["nothing"]
            return
        ts.settling = True
        self.offer([choice], "")

    def _settle_next(self, ts: TableState) -> None:
        """After each piece of a settling payment, the next one (a decision with one move is forced anyway)."""
        if not ts.settling:
            return
        choice = settle_choice(ts) if ts.my_turn else None
        if choice is not None and len(ts.legal) == 1:
            return
        if choice is None:
            ts.settling = False
            if ts.screen.owes(ts):
                self.state.message = SETTLE_TEXT["cards"]
            return
        self.choose(choice)

    def change_bid(self, step: int) -> None:
        """``+``/``-``: the bid form's amount, kept within the legal range."""
        ts = self.state.table
        bids = bid_range(ts) if ts is not None else None
        if ts is None or bids is None:
            self.state.error = "There is no bid to make now."
            return
        ts.bid = min(max(ts.bid + step, bids[0]), bids[1])

    def toggle_pane(self) -> None:
        """``t``: the seats-and-chat pane in place of the event log, or back."""
        ts = self.state.table
        if ts is not None:
            ts.pane = not ts.pane

    def chat_prompt(self) -> None:
        """``/``: asks for a chat line for the table."""
        if self.link is None:
            self.state.error = "Chat needs a table."
            return
        self.ask("say: ", self.say, secret=False)

    def say(self, text: str) -> None:
        """Sends a chat line (the host relays it to every seat, us included; its limits come back as errors)."""
        link = self.link
        if link is None:
            self.state.error = "Chat needs a table."
        elif len(text.strip()) > C.MAX_CHAT_CHARS:
            self.state.error = f"Chat: {CHAT_ERRORS['chat_too_long']} (this one has {len(text.strip())})."
        elif text.strip():
            self.spawn(lambda: link.peer.chat(text.strip()), "chat")

    def rematch(self) -> None:
        """Votes for another game once this one is over."""
        ts, link = self.state.table, self.link
        if ts is not None and ts.seat is None:
            self.state.error = "Spectators do not vote for a rematch; the seated players do."
            return
        if ts is None or link is None or not ts.over:
            self.state.error = "A rematch can be asked for once the game is over."
            return
        self.state.message = "Rematch asked; waiting for the other seats."
        self.spawn(link.rematch, "rematch")

    def move_cursor(self, step: int) -> None:
        """Left/Right over the cards in hand."""
        ts = self.state.table
        if ts is None:
            return
        count = len(hand_cards(ts))
        if count:
            ts.cursor = (ts.cursor + step) % count

    def toggle_selected(self) -> None:
        """Space: select or unselect the card under the cursor."""
        ts = self.state.table
        if ts is None:
            return
        cards = hand_cards(ts)
        if 0 <= ts.cursor < len(cards):
            ts.selected ^= {cards[ts.cursor]}

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

    def leave(self, *, confirmed: bool = False) -> None:
        """Back to the lobby: a joined table is told we leave (our seat goes to a built-in player); a table
        hosted here stops (asking first while others sit at it), and an unfinished local game waits in the
        resume list."""
        st = self.state
        link, scope = self.link, self._table_scope
        if st.screen != "table" or scope is None:
            return
        others = self._others_seated()
        if others and not confirmed:
            self.ask(
                f"Leaving closes the table for {', '.join(others)}. Leave? (y/n) ",
                lambda text: self.leave(confirmed=True) if text.strip().lower() in ("y", "yes") else None,
                secret=False,
            )
            return

        async def bye() -> None:
            if link is not None and not link.local:
                await say_bye(link)
            elif link is not None and link.listening:
                await link.close_table()
            scope.cancel()

        self.link, st.table, st.screen = None, None, "lobby"
        st.message = "Left the table."
        self.spawn(bye, "leave")
        self.refresh_lobby()
        self.start_discovery()

    def _others_seated(self) -> list[str]:
        """The people seated at a table hosted here, besides us (leaving closes it under them)."""
        ts, link = self.state.table, self.link
        if ts is None or link is None or not link.local or not link.listening:
            return []
        return [
            str(info.get("name") or f"seat {i}")
            for i, info in enumerate(ts.seats)
            if isinstance(info, dict) and i != ts.seat and info.get("kind") == "human" and info.get("connected")
        ]

    def farewell(self, scope: trio.CancelScope) -> None:
        """Quitting: a joined table is told we leave on purpose (``bye``, at most a second) before ``scope``, the
        app's trio side, is cancelled. Called on the trio thread."""
        link, nursery = self.link, self.nursery
        if link is None or nursery is None or (link.local and not link.listening):
            scope.cancel()
            return

        async def bye() -> None:
            if link.local:
                await link.close_table()
            else:
                await say_bye(link)
            scope.cancel()

        nursery.start_soon(bye)

    def closing_words(self) -> str:
        """What to print once the terminal is restored."""
        ts = self.state.table
        if ts is not None and ts.journal is not None and not ts.over:
            return f"The game is saved; continue it with: cardnet play --resume {ts.journal}"
        return ""
