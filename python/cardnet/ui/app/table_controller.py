"""One table on the full screen: the host's messages into the table's state, the player's keys into moves.

Every move offered comes from the open decision's legal list; what a selection or a game's own key means is the
table's game screen's to say (``ui/render/screen``). The screen changes only when the host answers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import time

import trio

from ...i18n import N_, format_number
from ...i18n import gettext as _
from . import connection as C
from .moves import all_choices, bid_range, hand_cards, pass_choice, quick_choice, selection_choices, settle_choice
from .runner import Runner
from .start import StartRequest
from .state import SENDING, AppState, Choice, TableState

__all__ = ["CHAT_ERRORS", "FORCED_NOTE", "SETTLE_TEXT", "TableController", "say_bye"]

#: The host's chat refusals, in player words (translated when shown; {limit}: the longest line).
CHAT_ERRORS = {
    "chat_rate": N_("too many lines at once; wait a moment"),
    "chat_too_long": N_("a line holds at most {limit} characters"),
    "chat_disabled": N_("this table has no chat"),
}

#: The message line when the client played a seat's only legal move for it ({move}: the move).
FORCED_NOTE = N_("Your only move: {move}")
#: What ``e`` (settle a payment) says when it cannot pay on its own.
SETTLE_TEXT = {
    "cards": N_("The rest is paid with cards: pick each with the arrows and Enter."),
    "nothing": N_("You owe nothing now."),
}


def chat_error(code: str) -> str:
    """A chat refusal of the host in player words."""
    return _(CHAT_ERRORS[code]).format(limit=C.MAX_CHAT_CHARS)


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
        #: The message line saying which only move was played for the player (cleared at the next decision).
        self._forced_message = ""

    @property
    def state(self) -> AppState:
        """The client's state (the runner's)."""
        return self.runner.state

    # -- the connection ------------------------------------------------------------------------------------

    async def open_local(self, start: StartRequest) -> None:
        """Hosts a table in this process (a new game or a resumed journal) and sits at it until it ends."""
        self.state.busy = _("Setting up the table...")
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
        self.state.busy = _("Joining {address}...").format(address=f"{address}:{port}")
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
                self.state.error = _("Joining: {reason}").format(reason=exc.reason)
            self.runner.ask(
                _("Password for {address}:").format(address=f"{address}:{port}") + " ",
                lambda text: self.runner.spawn(
                    lambda: self.join(address, port, text, spectate, interfaces), N_("Joining")
                ),
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
            st.table = TableState.open(link.game, link.players, link.seat, link.current_title(), link.journal)
            st.table.set_seats(link.seats())
            st.table.listening = list(link.listening)
            st.table.web_url = link.web_url
            st.screen, st.busy, st.error, st.message = "table", "", "", ""
            if link.listening:
                st.message = _("Others join at {addresses} (cardnet play --connect {address})").format(
                    addresses=" | ".join(link.listening), address=link.listening[0]
                )
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
                who = _("{name} (watching)").format(name=event.name) if event.spectator else event.name
                earlier = "(" + _("earlier") + ") " if event.earlier else ""
                ts.add_chat(f"{earlier}<{who}> {event.text}")
            elif isinstance(event, C.ConnectionLost):
                ts.connected = False
                if self.state.message == _("Reconnected: back at your seat."):
                    # Said of the last connection, not of this one: the banner says what holds now.
                    self.state.message = ""
                if event.silent:
                    # The connection is still open but the host's heartbeat stopped: it hangs, or the LAN does.
                    ts.banner = _("HOST NOT ANSWERING - {reason}; reconnecting with your seat token").format(
                        reason=event.reason
                    )
                else:
                    ts.banner = _("CONNECTION LOST - reconnecting with your seat token ({reason})").format(
                        reason=event.reason
                    )
            elif isinstance(event, C.Reconnecting):
                ts.banner = _(
                    "HOST UNREACHABLE - reconnect attempt {attempt} failed, next in {seconds} s ({reason})"
                ).format(attempt=event.attempt, seconds=format_number(event.delay, 1), reason=event.reason)
            elif isinstance(event, C.Reconnected):
                ts.connected, ts.banner = True, ""
                # Found again by its table id, perhaps at another address: the title says where it is now.
                ts.title = link.current_title()
                self.state.error, self.state.message = "", _("Reconnected: back at your seat.")
            self.runner.redraw()
        ts.connected = False
        ts.banner = _("DISCONNECTED - the table is gone (b: back to the lobby).")
        if link.peer.failure is not None:
            ts.banner = _("DISCONNECTED - {reason} (b: back to the lobby).").format(reason=link.peer.failure)
        elif link.peer.session.closed_by_host:
            # On purpose, not lost: nothing is retried.
            ts.banner = _("TABLE CLOSED - the host closed the table (b: back to the lobby).")
        self.runner.redraw()

    def reword(self) -> None:
        """After a language switch: the words the table keeps (its title, the seats' names) made again."""
        ts, link = self.state.table, self.link
        if ts is None:
            return
        if link is not None:
            ts.title = link.current_title()
        ts.rename()

    def _on_state(self, ts: TableState, msg: C.StateMessage) -> None:
        ts.renderer.observe(msg.view)
        if ts.game_no is not None and msg.game_no != ts.game_no:
            ts.add_log("-- " + _("Game {number} begins (same seats)").format(number=msg.game_no + 1) + " --")
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
            if self._forced_message and self.state.message == self._forced_message:
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
                self.state.message = _("Game over. b: back to the lobby   Ctrl-Q: quit")
            else:
                self.state.message = _("Game over. r: rematch   b: back to the lobby   Ctrl-Q: quit")

    def _on_error(self, ts: TableState, err: C.HostError) -> None:
        if err.code in CHAT_ERRORS:
            self.state.error = _("Chat: {problem}.").format(problem=chat_error(err.code))
            return
        if err.ref is not None:
            ts.acked = err.ref
        # The one move in flight may be refused before its sender has learned its ref.
        if ts.pending is not None and (err.ref == ts.pending or (ts.pending == SENDING and err.ref is not None)):
            ts.pending = None
            self.state.error = _("Refused: {reason}").format(reason=err.reason)
        else:
            self.state.error = _("Host: {reason} ({code})").format(reason=err.reason, code=err.code)

    async def _maybe_forced(self, ts: TableState) -> None:
        """A decision with one legal move is answered for the player, as line mode does."""
        if ts.my_turn and len(ts.legal) == 1 and ts.decision_id is not None:
            text = ts.renderer.move_text(ts.legal[0])
            self.state.message = self._forced_message = _(FORCED_NOTE).format(move=text)
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
            self.state.error = _("The game is over.")
            return None
        if ts.seat is None:
            self.state.error = _("You are watching this table: moves are for the players.")
            return None
        if not ts.connected:
            self.state.error = _("Not connected: your move can wait until the client is back at the table.")
            return None
        if not ts.my_turn:
            self.state.error = _("Sent, waiting for the host.") if ts.pending is not None else _("It is not your turn.")
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
        self.runner.spawn(lambda: self._send(ts, choice), N_("Move"))

    def play_selection(self) -> None:
        """Enter at a table: the selected cards (or the one under the cursor) as a move."""
        ts = self.state.table
        if ts is not None:
            self.offer(selection_choices(ts), _("Select cards first (Space), then press Enter."))

    def list_moves(self) -> None:
        """Lists every legal move to pick from."""
        ts = self.state.table
        if ts is not None:
            self.offer(all_choices(ts), _("No move to make."))

    def pass_turn(self) -> None:
        """``p``: pass, when the game has a pass."""
        ts = self.state.table
        if ts is None:
            return
        choice = pass_choice(ts)
        self.offer([choice] if choice else [], _("This game has no pass."))

    def typed_move(self, text: str) -> None:
        """A move typed in the line-mode words (``play 8 3 17``, ``pick D``); the host judges it."""
        ts = self.state.table
        if ts is None:
            self.state.error = _("Unknown command: {text}").format(text=text)
            return
        try:
            move = ts.renderer.parse_move(text, ts.view)
        except ValueError as exc:
            # The renderer's own refusal (MoveTextError: a position not in the hand, a card named twice).
            self.state.error = str(exc)
            return
        if move is None:
            self.state.error = _("Not understood: {text!r} (? shows the keys and how to type moves)").format(text=text)
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
            self.state.error = _("No '{name}' in this game.").format(name=name)
        elif key.action == "settle":
            self.settle()
        elif key.action == "bid":
            self.change_bid(key.step)
        elif key.move is not None:
            self.quick(dict(key.move), key.what)

    def quick(self, move: dict[str, Any], what: str) -> None:
        """A one-key move of the game's own; says ``what`` (a sentence of the catalogs) when it is not one of the
        open decision's moves."""
        ts = self.state.table
        if ts is None:
            return
        choice = quick_choice(ts, move)
        self.offer([choice] if choice else [], _(what))

    def settle(self) -> None:
        """``e`` in a payment: pays the least that settles the debt, one piece per decision."""
        ts = self.state.table
        if ts is None:
            return
        choice = settle_choice(ts)
        if choice is None:
            self.state.error = _(SETTLE_TEXT["cards"]) if ts.screen.owes(ts) else _(SETTLE_TEXT["nothing"])
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
                self.state.message = _(SETTLE_TEXT["cards"])
            return
        self.choose(choice)

    def change_bid(self, step: int) -> None:
        """``+``/``-``: the bid form's amount, kept within the legal range."""
        ts = self.state.table
        bids = bid_range(ts) if ts is not None else None
        if ts is None or bids is None:
            self.state.error = _("There is no bid to make now.")
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
            self.state.error = _("Chat needs a table.")
            return
        self.runner.ask(_("say:") + " ", self.say, secret=False)

    def say(self, text: str) -> None:
        """Sends a chat line (the host relays it to every seat, us included; its limits come back as errors)."""
        link = self.link
        if link is None:
            self.state.error = _("Chat needs a table.")
        elif len(text.strip()) > C.MAX_CHAT_CHARS:
            self.state.error = _("Chat: {problem} (this one has {count}).").format(
                problem=chat_error("chat_too_long"), count=len(text.strip())
            )
        elif text.strip():
            self.runner.spawn(lambda: link.peer.chat(text.strip()), N_("Chat"))

    def rematch(self) -> None:
        """Votes for another game once this one is over."""
        ts, link = self.state.table, self.link
        if ts is not None and ts.seat is None:
            self.state.error = _("Spectators do not vote for a rematch; the seated players do.")
            return
        if ts is None or link is None or not ts.over:
            self.state.error = _("A rematch can be asked for once the game is over.")
            return
        self.state.message = _("Rematch asked; waiting for the other seats.")
        self.runner.spawn(link.rematch, N_("Rematch"))

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
            # Translators: the answers that mean yes, separated by |, lower case (y and yes are always understood).
            yes = {"y", "yes", *_("y|yes").lower().split("|")}
            self.runner.ask(
                _("Leaving closes the table for {names}. Leave? (y/n)").format(names=", ".join(others)) + " ",
                lambda text: self.leave(confirmed=True) if text.strip().lower() in yes else None,
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
        st.message = _("Left the table.")
        self.runner.spawn(bye, N_("Leaving"))
        self.on_leave()

    def _others_seated(self) -> list[str]:
        """The people seated at a table hosted here, besides us (leaving closes it under them)."""
        ts, link = self.state.table, self.link
        if ts is None or link is None or not link.local or not link.listening:
            return []
        return [
            str(info.get("name") or _("seat {number}").format(number=i))
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
            return _("The game is saved; continue it with: cardnet play --resume {path}").format(path=ts.journal)
        return ""
