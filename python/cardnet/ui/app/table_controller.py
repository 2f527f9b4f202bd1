"""One table on the full screen: the host's messages into the table's state, the player's keys into moves.

Every move offered comes from the open decision's legal list; what a selection or a game's own key means is the
table's game screen's to say (``ui/render/screen``). The screen changes only when the host answers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import time

import trio

from . import connection as C
from .moves import all_choices, bid_range, hand_cards, pass_choice, quick_choice, selection_choices, settle_choice
from .runner import Runner
from .start import StartRequest
from .state import SENDING, AppState, Choice, TableState

__all__ = ["CHAT_ERRORS", "FORCED_NOTE", "SETTLE_TEXT", "TableController", "say_bye"]

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


async def say_bye(link: C.Link) -> None:
    """Leaving a joined table on purpose: its kept seat token is forgotten and the host is told ``bye`` (for at most
    a second). A host that is already gone needs no goodbye, so a closed connection is not an error here."""
    link.forget_seat()
    with trio.move_on_after(1.0):
        try:
            await link.peer.bye()
        except (C.PeerError, OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            return


class TableController:
    """The table the client sits at or watches (at most one at a time)."""

    def __init__(self, runner: Runner, on_open: Callable[[], None], on_leave: Callable[[], None]) -> None:
        self.runner = runner
        #: Called when a table opens (the lobby stops browsing) and when the player leaves it (back to the lobby).
        self.on_open, self.on_leave = on_open, on_leave
        self.link: C.Link | None = None
        self._table_scope: trio.CancelScope | None = None
        #: Set when a decision with a turn timer arrives (the countdown task sleeps until then).
        self._timer = trio.Event()

    @property
    def state(self) -> AppState:
        """The client's state (the runner's)."""
        return self.runner.state

    # -- the connection ------------------------------------------------------------------------------------

    async def open_local(self, start: StartRequest) -> None:
        """Hosts a table in this process (a new game or a resumed journal) and sits at it until it ends."""
        self.state.busy = "Setting up the table..."
        self.runner.redraw()
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

    async def join(self, address: str, port: int, password: str | None, spectate: bool, interfaces: list[str]) -> None:
        """Joins (or watches) the table at ``address``:``port`` until it ends; asks the password when the host wants one."""
        self.state.busy = f"Joining {address}:{port}..."
        self.runner.redraw()
        try:
            await self._serve_table(
                lambda nursery: C.join_remote(
                    nursery, address, port, password=password, spectate=spectate, interfaces=interfaces
                )
            )
        except BaseException as error:
            exc = C.single_error(error)
            if not isinstance(exc, C.PeerError) or exc.code != "auth_failed":
                raise
            self.state.busy = ""
            if password is not None:
                self.state.error = f"join: {exc.reason}"
            self.runner.ask(
                f"Password for {address}:{port}: ",
                lambda text: self.runner.spawn(lambda: self.join(address, port, text, spectate, interfaces), "join"),
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
            self.on_open()
            st = self.state
            st.table = TableState.open(link.game, link.players, link.seat, link.title, link.journal)
            st.table.set_seats(link.seats())
            st.table.listening = list(link.listening)
            st.table.web_url = link.web_url
            st.screen, st.busy, st.error, st.message = "table", "", "", ""
            if link.listening:
                where = " or ".join(link.listening)
                st.message = f"Others join at {where} (cardnet play --connect {link.listening[0]})"
            self.runner.redraw()
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
            self.runner.redraw()
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
                # Found again by its table id, perhaps at another address: the title says where it is now.
                ts.title = link.current_title()
                self.state.error, self.state.message = "", "Reconnected: back at your seat."
            self.runner.redraw()
        ts.connected = False
        ts.banner = "DISCONNECTED - the table is gone (b: back to the lobby)."
        if link.peer.failure is not None:
            ts.banner = f"DISCONNECTED - {link.peer.failure} (b: back to the lobby)."
        elif link.peer.session.closed_by_host:
            # On purpose, not lost: nothing is retried.
            ts.banner = "TABLE CLOSED - the host closed the table (b: back to the lobby)."
        self.runner.redraw()

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
        self.runner.redraw()

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
        self.runner.spawn(lambda: self._send(ts, choice), "move")

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

    def toggle_qr(self) -> None:
        """``w``: the web seat's address and QR code in place of the table, or back."""
        ts = self.state.table
        if ts is not None and ts.web_url is not None:
            ts.qr = not ts.showing_qr

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
        self.runner.ask("say: ", self.say, secret=False)

    def say(self, text: str) -> None:
        """Sends a chat line (the host relays it to every seat, us included; its limits come back as errors)."""
        link = self.link
        if link is None:
            self.state.error = "Chat needs a table."
        elif len(text.strip()) > C.MAX_CHAT_CHARS:
            self.state.error = f"Chat: {CHAT_ERRORS['chat_too_long']} (this one has {len(text.strip())})."
        elif text.strip():
            self.runner.spawn(lambda: link.peer.chat(text.strip()), "chat")

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
        self.runner.spawn(link.rematch, "rematch")

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

    # -- leaving -------------------------------------------------------------------------------------------

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
            self.runner.ask(
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
        self.runner.spawn(bye, "leave")
        self.on_leave()

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
        link, nursery = self.link, self.runner.nursery
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
