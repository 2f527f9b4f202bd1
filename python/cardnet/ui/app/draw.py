"""Screens as styled text: (style, text) fragments for prompt_toolkit's formatted text, built from the state.

Nothing here imports prompt_toolkit: the fragments are plain tuples, so screens can be checked from recorded
views without a terminal. Style names (``class:...``) are defined in :mod:`cardnet.ui.app.style`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence

from ...games import outcome_from_dict
from ...i18n import gettext as _
from ...i18n import ngettext
from ..markdown import text_width, wrap_runs
from ..render import watching_words
from ..render.screen import Fragments
from .state import AppState, TableState

__all__ = ["Fragments", "lobby_screen", "rematch_words", "table_screen", "text_of"]

#: From this width on the event log stands beside the table instead of under it.
WIDE = 140
#: Columns the table takes when the log stands beside it.
TABLE_WIDTH = 96


def text_of(fragments: Fragments) -> str:
    """The plain text of fragments (for tests and logs)."""
    return "".join(text for _, text in fragments)


def _lines(rows: Sequence[Fragments]) -> Fragments:
    out: Fragments = []
    for row in rows:
        out.extend(row)
        out.append(("", "\n"))
    return out


def _clip(row: Fragments, width: int) -> Fragments:
    """``row`` cut to ``width`` cells so a narrow terminal never wraps a drawn card row."""
    out: Fragments = []
    left = width
    for style, text in row:
        if left <= 0:
            break
        out.append((style, text[:left]))
        left -= len(text)
    return out


# -- the table screens ------------------------------------------------------------------------------------


def table_screen(ts: TableState, width: int, height: int, no_color: bool = False) -> Fragments:
    """The whole table area: the game's own drawing, whose turn it is, and the newest log lines that fit."""
    room = TABLE_WIDTH if width >= WIDE else width
    if ts.showing_qr:
        rows = _web_seat(ts, no_color)
    elif ts.view:
        rows = ts.screen.draw(ts, room, height, no_color)
    else:
        rows = [[("class:dim", _("Waiting for the table..."))]]
    # Words wrap at the table's width (a longer language's sentence goes on under itself, never cut).
    rows += wrap_runs(_turn_line(ts), room, "", "  ")
    if ts.banner:
        # Above everything, so a lost connection is never missed.
        rows[:0] = wrap_runs([("class:banner", f" {ts.banner} ")], room, "", " ")
    if ts.over and isinstance(ts.outcome, Mapping):
        for line in ts.renderer.outcome_lines(outcome_from_dict(ts.outcome)):
            indent = line[: len(line) - len(line.lstrip())]
            rows += wrap_runs([("class:heading", line)], room, indent, indent + "  ")
    if ts.over and ts.rematch_votes:
        rows += wrap_runs([("class:turn", rematch_words(ts))], room, "", "  ")
    if width >= WIDE:
        log_width = width - TABLE_WIDTH - 3
        side = _pane(ts, height, log_width) if ts.pane else _log_rows(ts.log, log_width, height)
        # A wide terminal gets the log (or the pane) beside the table, as tall as the screen.
        log: list[Fragments] = side if height > 0 else []
        rows = [_clip(r, TABLE_WIDTH) for r in rows[:height]]
        out: list[Fragments] = []
        for n in range(max(len(rows), len(log))):
            left = rows[n] if n < len(rows) else []
            used = sum(len(text) for _, text in left)
            right = log[n] if n < len(log) else []
            out.append(
                left
                + [("", " " * (TABLE_WIDTH + 1 - used)), ("class:rule", "| ")]
                + _clip(right, width - TABLE_WIDTH - 3)
            )
        return _lines(out[:height])
    room = height - len(rows) - 1
    if room > 0:
        label = "-- " + (_("seats and chat (t: back to the log)") if ts.pane else _("log (t: seats and chat)")) + " "
        rows.append([("class:rule", label[: max(0, min(width, 80) - 1)].ljust(max(0, min(width, 80) - 1), "-"))])
        if ts.pane:
            rows += _pane(ts, room - 1, width)
        else:
            rows += _log_rows(ts.log, width, room - 1)
    return _lines([_clip(r, width) for r in rows[:height]])


def _web_seat(ts: TableState, no_color: bool) -> list[Fragments]:
    """The web seat's address and its QR code (about 29 by 15 cells), for a guest's phone to scan. In colour it
    is drawn black on white, as a camera expects; without colour, light blocks on the terminal's background."""
    from ...web.qr import qr_lines

    assert ts.web_url is not None
    rows: list[Fragments] = [
        [("class:heading", _("Guests without cardnet: scan this, or open:") + " "), ("class:message", ts.web_url)]
    ]
    rows += [[("class:qr", line)] for line in qr_lines(ts.web_url, dark_on_light=not no_color)]
    rows.append([("class:dim", _("w: the table"))])
    return rows


def _log_rows(log: Sequence[str], width: int, height: int) -> list[Fragments]:
    """The newest log lines that fit in ``height`` rows, each wrapped at words to ``width`` (a long event goes on
    under itself, indented, rather than being cut at the edge). Only whole events are shown, so no row begins
    in the middle of one; an event taller than ``height`` by itself shows its end."""
    rows: list[Fragments] = []
    for line in reversed(log[-max(1, height) :]):
        event = wrap_runs([("class:log", line)], width, "", "  ") if line else [[]]
        if rows and len(rows) + len(event) > height:
            break
        rows[:0] = event
    return rows[-height:] if height > 0 else []


def seat_words(ts: TableState, seat: int) -> str:
    """How a seat is held, in player words: you, a person (connected or gone), a built-in player, open."""
    info = ts.seats[seat] if seat < len(ts.seats) and isinstance(ts.seats[seat], Mapping) else {}
    kind = info.get("kind")
    if seat == ts.seat:
        return _("you") if ts.connected else _("you, reconnecting")
    if kind == "open":
        return _("open, waiting for a player")
    if kind == "bot":
        return _("built-in player")
    if info.get("auto"):
        return _("gone; a built-in player plays for them")
    if kind == "human":
        return _("connected") if info.get("connected") else _("gone")
    return str(kind or "?")


def _seat_gone(ts: TableState, seat: int) -> bool:
    """Whether the seat's person left (the pane shows it as an error)."""
    info = ts.seats[seat] if seat < len(ts.seats) and isinstance(ts.seats[seat], Mapping) else {}
    return seat != ts.seat and info.get("kind") == "human" and (bool(info.get("auto")) or not info.get("connected"))


def _pane(ts: TableState, height: int | None = None, width: int = 80) -> list[Fragments]:
    """The seats panel and the chat: who holds each seat, then the newest chat lines that fit."""
    rows: list[Fragments] = [[("class:heading", _("Seats"))]]
    watching = watching_words(ts.spectators)
    if watching:
        rows[0].append(("class:dim", f"  {watching}"))
    if ts.seat is None:
        rows[0].append(("class:dim", _(", you among them") if watching else "  " + _("(you are watching)")))
    # Names padded to the longest (a bot's "Botti 1 · vaikea" is longer than "Bot 1 · hard"), within reason.
    column = min(24, max([12, *(len(ts.renderer.name(seat)) for seat in range(ts.players))]))
    for seat in range(ts.players):
        words = seat_words(ts, seat)
        style = "class:error" if _seat_gone(ts, seat) else ("class:seat.me" if seat == ts.seat else "")
        prefix = f"  {seat}. {ts.renderer.name(seat):<{column}} "
        said = wrap_runs([(style, words)], max(12, width - len(prefix)))
        rows.append([("", prefix), *said[0]])
        rows += [[("", " " * len(prefix)), *more] for more in said[1:]]
    rows.append([("class:heading", _("Chat")), ("class:dim", "  " + _("(/ or Tab to write)"))])
    room = None if height is None else max(0, height - len(rows))
    if not ts.chat:
        rows.append([("class:dim", "  " + _("nothing said yet"))])
    elif room is None:
        rows += [row for line in ts.chat for row in wrap_runs([("class:log", line)], width, "", "  ")]
    elif room:
        rows += _log_rows(ts.chat, width, room)
    return rows if height is None else rows[:height]


def _turn_line(ts: TableState) -> Fragments:
    if ts.open_seats:
        taken = ts.players - ts.open_seats
        if ts.listening:
            text = ngettext(
                "Waiting for players: {taken} of {total} seat taken; others join at {addresses}.",
                "Waiting for players: {taken} of {total} seats taken; others join at {addresses}.",
                ts.players,
            ).format(taken=taken, total=ts.players, addresses=_or(ts.listening))
        else:
            text = ngettext(
                "Waiting for players: {taken} of {total} seat taken.",
                "Waiting for players: {taken} of {total} seats taken.",
                ts.players,
            ).format(taken=taken, total=ts.players)
        return [("class:turn", text)]
    if ts.over:
        return [("class:turn", _("Game over.") + " "), ("", _outcome_text(ts))]
    if ts.pending is not None:
        return [("class:dim", _("Sent: {move} - waiting for the host...").format(move=ts.pending_text))]
    if ts.my_turn:
        clock: Fragments = []
        if ts.deadline is not None:
            left = max(0, math.ceil(ts.deadline - time.monotonic()))
            clock = [("class:error" if left <= 10 else "class:turn", _("{seconds} s left.").format(seconds=left) + " ")]
        return [("class:turn", _("Your turn.") + " "), *clock, ("", ts.screen.turn_hint(ts))]
    names = [ts.renderer.name(s) for s in ts.to_act if s != ts.seat]
    if ts.seat in ts.to_act and not names:
        return [("class:dim", _("Your turn is coming..."))]
    if not names:
        return [("class:dim", _("Waiting for the table..."))]
    return [("class:dim", _("Waiting for {names}...").format(names=", ".join(names)))]


def rematch_words(ts: TableState) -> str:
    """Who asked for a rematch and whose vote it still waits for (the players here; built-in players and those
    gone never hold it up)."""
    voters = [ts.renderer.name(s) for s in ts.rematch_votes]
    waiting = [
        ts.renderer.name(s)
        for s, info in enumerate(ts.seats)
        if isinstance(info, Mapping)
        and info.get("kind") == "human"
        and info.get("connected")
        and not info.get("auto")
        and s not in ts.rematch_votes
    ]
    if waiting:
        return _("Rematch asked by {names}; waiting for {waiting}.").format(names=_and(voters), waiting=_and(waiting))
    return _("Rematch asked by {names}; it starts now.").format(names=_and(voters))


def _and(names: Sequence[str]) -> str:
    """``ann``, ``ann and bob``, ``ann, bob and cy`` in the current language."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def _or(addresses: Sequence[str]) -> str:
    """``A``, ``A or B``, ``A, B or C`` in the current language."""
    if len(addresses) <= 1:
        return "".join(addresses)
    return _("{addresses} or {last}").format(addresses=", ".join(addresses[:-1]), last=addresses[-1])


def _outcome_text(ts: TableState) -> str:
    outcome = ts.outcome
    if not isinstance(outcome, Mapping):
        return _("The game stopped without a result.")
    winners = [s for s in outcome.get("winners") or [] if isinstance(s, int)]
    if not winners:
        return _("Nobody won.")
    if winners == [ts.seat]:
        return _("You win.")
    names = [ts.renderer.name(s) for s in winners]
    return ngettext("{names} wins.", "{names} win.", len(names)).format(names=_and(names))


# -- the lobby --------------------------------------------------------------------------------------------


def lobby_screen(state: AppState, width: int, height: int) -> Fragments:
    """The lobby: new table, tables to join, games to resume; or the new-table form when it is open."""
    rows: list[Fragments] = [[("class:heading", _("cardnet lobby"))], []]
    if state.form is not None:
        return _lines(rows + _form_rows(state, width))
    kind = ""
    focus = 0
    for pos, entry in enumerate(state.entries):
        if entry.kind != kind:
            kind = entry.kind
            head = {"new": _("Play"), "table": _("Tables"), "resume": _("Resume an unfinished game")}[kind]
            rows.append([("class:heading", head)])
        style = "class:cursor" if pos == state.lobby_cursor else ""
        if pos == state.lobby_cursor:
            focus = len(rows)
        lock = " [" + _("password") + "]" if entry.password else ""
        rows.append(
            [("", "  "), (style, f"{entry.label}{lock}"), ("class:dim", f"  {entry.detail}" if entry.detail else "")]
        )
    if not any(e.kind == "table" for e in state.entries):
        rows.append([("class:dim", _("No table found yet: type ':connect HOST:PORT' to add one."))])
    if state.busy:
        rows.append([("class:turn", state.busy)])
    # A long list scrolls so the entry under the cursor stays on screen.
    first = max(0, min(focus - height + 2, len(rows) - height))
    return _lines([_clip(r, width) for r in rows[first : first + height]])


def _form_rows(state: AppState, width: int) -> list[Fragments]:
    from .lobby import form_fields, form_notes

    form = state.form
    assert form is not None
    rows: list[Fragments] = [[("class:heading", _("New table (hosted here; you sit at seat 0)"))]]
    fields = form_fields(form)
    # The labels' column is as wide as the longest label in this language (at least 16, at most a third).
    column = min(max([16, *(len(label) + 1 for label, _value in fields)]), max(16, width // 3))
    for pos, ((label, value), note) in enumerate(zip(fields, form_notes(form))):
        style = "class:cursor" if pos == form.field_index else ""
        rows.append([("", f"  {label:<{column}}"), (style, f"< {value} >")])
        if note:
            rows += wrap_runs([("class:dim", note)], width, "    ", "    ")
    rows.append([])
    keys = _("Up/Down: field   Left/Right: change   Enter: start   Esc: back")
    # As written when it fits (its gaps part the keys), else wrapped at words.
    rows += [[("class:dim", keys)]] if text_width(keys) <= width else wrap_runs([("class:dim", keys)], width)
    return rows
