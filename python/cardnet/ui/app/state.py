"""The one state object of the full-screen client.

Layout, key bindings and styles only read it (through filters and text callbacks); commands change it. It holds
no prompt_toolkit object, so screens can be checked from recorded views without a terminal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from .remembered import Remembered
from ..render import GenericRenderer, renderer_for, seat_labels
from ..render.screen import Choice, GameScreen, screen_for

__all__ = ["AppState", "Choice", "LobbyEntry", "NewTableForm", "TableState"]

#: ``TableState.pending`` while a move is being written, before the connection has given it a ref.
SENDING = -1
#: Lines of the event log kept in memory (the screen shows the newest that fit).
LOG_LIMIT = 400


@dataclass
class TableState:
    """What one table screen shows: the host's latest state for this seat and the player's selection.

    Nothing here is changed by a key before the host answers: a move is sent, ``pending`` is set, and the screen
    keeps showing the host's last state until the next update or the refusal arrives.
    """

    game: str
    players: int
    seat: int | None
    title: str
    renderer: GenericRenderer
    journal: Path | None = None
    view: dict[str, Any] = field(default_factory=dict)
    to_act: list[int] = field(default_factory=list)
    decision_id: int | None = None
    legal: list[Any] = field(default_factory=list)
    over: bool = False
    outcome: Any = None
    game_no: int | None = None
    seats: list[Any] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    cursor: int = 0
    selected: set[int] = field(default_factory=set)
    choices: list[Choice] = field(default_factory=list)
    choice_cursor: int = 0
    pending: int | None = None
    #: When the host's turn timer runs out for our open decision (``time.monotonic()`` seconds), if it has one.
    deadline: float | None = None
    pending_text: str = ""
    #: The ref of the last move the host acknowledged (an ack can come before the sender has its ref).
    acked: Any = None
    #: The amount of the bid form (kept inside the legal range of the open auction decision).
    bid: int = 0
    #: Paying the least that settles the debt, one piece per decision, until it is settled (``e``).
    settling: bool = False
    connected: bool = True
    #: The banner over the table while the connection is down (empty when connected).
    banner: str = ""
    #: Chat lines (``name: text``), newest last; also written to the log.
    chat: list[str] = field(default_factory=list)
    #: Whether the seats-and-chat pane replaces the event log.
    pane: bool = False
    #: The seats that asked for a rematch of the game just over (the host's ``rematch`` messages).
    rematch_votes: list[int] = field(default_factory=list)
    #: How many spectators watch (the host's ``seats`` message says); None until the host says.
    spectators: int | None = None
    #: ``HOST:PORT`` addresses others join at, when this process hosts the table on the LAN.
    listening: list[str] = field(default_factory=list)
    #: The address guests open in a browser (the table's web seat), when this process hosts it.
    web_url: str | None = None
    #: Whether the web seat's QR code replaces the table's drawing (``w``); None: while seats are open.
    qr: bool | None = None

    @property
    def open_seats(self) -> int:
        """Seats still waiting for a person (the game starts when there are none)."""
        return sum(1 for info in self.seats if isinstance(info, Mapping) and info.get("kind") == "open")

    @property
    def showing_qr(self) -> bool:
        """Whether the screen shows the web seat's address and QR code instead of the table."""
        if self.web_url is None:
            return False
        return self.qr if self.qr is not None else self.open_seats > 0

    @classmethod
    def open(cls, game: str, players: int, seat: int | None, title: str, journal: Path | None = None) -> TableState:
        """A table screen before the first state arrives; seats are named until the host sends names."""
        # Seats named as every client names them (``You``, ``Seat 2``) until the host's seat list arrives.
        names = seat_labels([{}] * players, seat)
        return cls(game, players, seat, title, renderer_for(game, names), journal)

    def rename(self) -> None:
        """Names the seats again (after a language switch: ``You`` and ``Seat 2`` are words too)."""
        if self.seats:
            self.set_seats(self.seats)
        else:
            self.renderer.names = seat_labels([{}] * self.players, self.seat)

    @property
    def screen(self) -> GameScreen:
        """How this table's game is drawn and played from the keys (its renderer's full-screen half)."""
        return screen_for(self.game)

    @property
    def my_turn(self) -> bool:
        """Whether the host has asked this seat for a move and no answer is on its way."""
        return self.decision_id is not None and self.seat in self.to_act and self.pending is None

    def add_chat(self, line: str) -> None:
        """Keeps a chat line for the chat pane (and the log), dropping the oldest past the limit."""
        self.chat.append(line)
        del self.chat[:-LOG_LIMIT]
        self.add_log(line)

    def add_log(self, line: str) -> None:
        """Appends event lines (a text may hold several), dropping the oldest past the limit."""
        self.log.extend(part.rstrip() for part in line.split("\n"))
        del self.log[:-LOG_LIMIT]

    def set_seats(self, seats: list[Any], spectators: int | None = None) -> None:
        """Takes the host's seat list (and, when it says, how many spectators watch) and names the seats after
        it."""
        self.seats = seats
        if spectators is not None:
            self.spectators = spectators
        names = seat_labels(seats, self.seat)
        if len(names) == self.players:
            self.renderer.names = names


@dataclass
class LobbyEntry:
    """One line of the lobby: what it is, and what Enter does with it."""

    kind: str  # "new" | "table" | "resume"
    label: str
    detail: str = ""
    address: str | None = None
    port: int | None = None
    password: bool = False
    path: Path | None = None


@dataclass
class NewTableForm:
    """The fields of the "New table" form; each is a list of choices and the index of the chosen one."""

    games: list[str]
    game: int = 0
    players: int = 0
    level: int = 0
    options: dict[str, int] = field(default_factory=dict)
    field_index: int = 0
    #: 0 = this machine only; n = a LAN table listening on ``interfaces[n - 1]``.
    where: int = 0
    interfaces: list[str] = field(default_factory=list)
    bots: int = 0
    password: str = ""
    #: The last choices per game (from earlier runs); a game chosen in the form starts from them.
    remembered: Remembered = field(default_factory=Remembered)


@dataclass
class AppState:
    """Everything the client shows; ``screen`` is ``"lobby"`` or ``"table"``."""

    screen: str = "lobby"
    entries: list[LobbyEntry] = field(default_factory=list)
    lobby_cursor: int = 0
    form: NewTableForm | None = None
    table: TableState | None = None
    help_open: bool = False
    help_offset: int = 0
    command_open: bool = False
    #: A question on the bottom line (a password); empty when the line takes commands.
    prompt: str = ""
    prompt_secret: bool = False
    message: str = ""
    error: str = ""
    busy: str = ""
    no_color: bool = False
    quitting: bool = False
