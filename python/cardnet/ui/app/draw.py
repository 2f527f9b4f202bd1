"""Screens as styled text: (style, text) fragments for prompt_toolkit's formatted text, built from the state.

Nothing here imports prompt_toolkit: the fragments are plain tuples, so screens can be checked from recorded
views without a terminal. Style names (``class:...``) are defined in :mod:`cardnet.ui.app.style`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence

from ...games import outcome_from_dict
from ..markdown import wrap_runs
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
        rows = [[("class:dim", "Waiting for the table...")]]
    rows.append(_turn_line(ts))
    if ts.banner:
        # Above everything, so a lost connection is never missed.
        rows.insert(0, [("class:banner", f" {ts.banner} ")])
    if ts.over and isinstance(ts.outcome, Mapping):
        rows += [[("class:heading", line)] for line in ts.renderer.outcome_lines(outcome_from_dict(ts.outcome))]
    if ts.over and ts.rematch_votes:
        rows.append([("class:turn", rematch_words(ts))])
    side = _pane(ts) if ts.pane else [[("class:log", line)] for line in ts.log]
    if width >= WIDE:
        # A wide terminal gets the log (or the pane) beside the table, as tall as the screen.
        log: list[Fragments] = (side if ts.pane else side[-height:]) if height > 0 else []
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
        label = "-- seats and chat (t: back to the log) " if ts.pane else "-- log (t: seats and chat) "
        rows.append([("class:rule", label[: max(0, min(width, 80) - 1)].ljust(max(0, min(width, 80) - 1), "-"))])
        if ts.pane:
            rows += _pane(ts, room - 1)
        else:
            rows += side[-(room - 1) :] if room > 1 else []
    return _lines([_clip(r, width) for r in rows[:height]])


def _web_seat(ts: TableState, no_color: bool) -> list[Fragments]:
    """The web seat's address and its QR code (about 29 by 15 cells), for a guest's phone to scan. In colour it
    is drawn black on white, as a camera expects; without colour, light blocks on the terminal's background."""
    from ...web.qr import qr_lines

    assert ts.web_url is not None
    rows: list[Fragments] = [
        [("class:heading", "Guests without cardnet: scan this, or open "), ("class:message", ts.web_url)]
    ]
    rows += [[("class:qr", line)] for line in qr_lines(ts.web_url, dark_on_light=not no_color)]
    rows.append([("class:dim", "w: the table")])
    return rows


def seat_words(ts: TableState, seat: int) -> str:
    """How a seat is held, in player words: you, a person (connected or gone), a built-in player, open."""
    info = ts.seats[seat] if seat < len(ts.seats) and isinstance(ts.seats[seat], Mapping) else {}
    kind = info.get("kind")
    if seat == ts.seat:
        return "you" + (", reconnecting" if not ts.connected else "")
    if kind == "open":
        return "open, waiting for a player"
    if kind == "bot":
        return "built-in player"
    if info.get("auto"):
        return "gone; a built-in player plays for them"
    if kind == "human":
        return "connected" if info.get("connected") else "gone"
    return str(kind or "?")


def _pane(ts: TableState, height: int | None = None) -> list[Fragments]:
    """The seats panel and the chat: who holds each seat, then the newest chat lines that fit."""
    rows: list[Fragments] = [[("class:heading", "Seats")]]
    watching = watching_words(ts.spectators)
    if watching:
        rows[0].append(("class:dim", f"  {watching}"))
    if ts.seat is None:
        rows[0].append(("class:dim", ", you among them" if watching else "  (you are watching)"))
    for seat in range(ts.players):
        words = seat_words(ts, seat)
        style = "class:error" if words.startswith("gone") else ("class:seat.me" if seat == ts.seat else "")
        rows.append([("", f"  {seat}. {ts.renderer.name(seat):<12} "), (style, words)])
    rows.append([("class:heading", "Chat"), ("class:dim", "  (/ or Tab to write)")])
    room = None if height is None else max(0, height - len(rows))
    chat = ts.chat if room is None else (ts.chat[-room:] if room else [])
    rows += [[("class:log", line)] for line in chat] or [[("class:dim", "  nothing said yet")]]
    return rows if height is None else rows[:height]


def _turn_line(ts: TableState) -> Fragments:
    if ts.open_seats:
        taken = ts.players - ts.open_seats
        where = f"; others join at {' or '.join(ts.listening)}" if ts.listening else ""
        return [("class:turn", f"Waiting for players: {taken} of {ts.players} seats taken{where}.")]
    if ts.over:
        return [("class:turn", "Game over. "), ("", _outcome_text(ts))]
    if ts.pending is not None:
        return [("class:dim", f"Sent: {ts.pending_text} - waiting for the host...")]
    if ts.my_turn:
        clock: Fragments = []
        if ts.deadline is not None:
            left = max(0, math.ceil(ts.deadline - time.monotonic()))
            clock = [("class:error" if left <= 10 else "class:turn", f"{left} s left. ")]
        return [("class:turn", "Your turn. "), *clock, ("", ts.screen.turn_hint(ts))]
    names = [ts.renderer.name(s) for s in ts.to_act if s != ts.seat]
    if ts.seat in ts.to_act and not names:
        return [("class:dim", "Your turn is coming...")]
    who = ", ".join(names) if names else "the table"
    return [("class:dim", f"Waiting for {who}...")]


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
    asked = "Rematch asked by " + _and(voters)
    return asked + (f"; waiting for {_and(waiting)}." if waiting else "; it starts now.")


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _outcome_text(ts: TableState) -> str:
    outcome = ts.outcome
    if not isinstance(outcome, Mapping):
        return "The game stopped without a result."
    winners = outcome.get("winners") or []
    names = [ts.renderer.name(s) for s in winners if isinstance(s, int)]
    if not names:
        return "Nobody won."
    return " and ".join(names) + (" win." if names == ["You"] or len(names) > 1 else " wins.")


# -- the lobby --------------------------------------------------------------------------------------------


def lobby_screen(state: AppState, width: int, height: int) -> Fragments:
    """The lobby: new table, tables to join, games to resume; or the new-table form when it is open."""
    rows: list[Fragments] = [[("class:heading", "cardnet lobby")], []]
    if state.form is not None:
        return _lines(rows + _form_rows(state, width))
    kind = ""
    focus = 0
    for pos, entry in enumerate(state.entries):
        if entry.kind != kind:
            kind = entry.kind
            head = {"new": "Play", "table": "Tables", "resume": "Resume an unfinished game"}[kind]
            rows.append([("class:heading", head)])
        style = "class:cursor" if pos == state.lobby_cursor else ""
        if pos == state.lobby_cursor:
            focus = len(rows)
        lock = " [password]" if entry.password else ""
        rows.append(
            [("", "  "), (style, f"{entry.label}{lock}"), ("class:dim", f"  {entry.detail}" if entry.detail else "")]
        )
    if not any(e.kind == "table" for e in state.entries):
        rows.append([("class:dim", "No table found yet: type ':connect HOST:PORT' to add one.")])
    if state.busy:
        rows.append([("class:turn", state.busy)])
    # A long list scrolls so the entry under the cursor stays on screen.
    first = max(0, min(focus - height + 2, len(rows) - height))
    return _lines([_clip(r, width) for r in rows[first : first + height]])


def _form_rows(state: AppState, width: int) -> list[Fragments]:
    from .lobby import form_fields, form_notes

    form = state.form
    assert form is not None
    rows: list[Fragments] = [[("class:heading", "New table (hosted here; you sit at seat 0)")]]
    for pos, ((label, value), note) in enumerate(zip(form_fields(form), form_notes(form))):
        style = "class:cursor" if pos == form.field_index else ""
        rows.append([("", f"  {label:<16}"), (style, f"< {value} >")])
        if note:
            rows += wrap_runs([("class:dim", note)], width, "    ", "    ")
    rows.append([])
    rows.append([("class:dim", "Up/Down: field   Left/Right: change   Enter: start   Esc: back")])
    return rows
