"""Screens as styled text: (style, text) fragments for prompt_toolkit's formatted text, built from the state.

Nothing here imports prompt_toolkit: the fragments are plain tuples, so screens can be checked from recorded
views without a terminal. Style names (``class:...``) are defined in :mod:`cardnet.ui.app.style`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ... import segments
from ...games import outcome_from_dict
from ..markdown import text_width, wrap_runs
from ..render import watching_words
from ..render.fistful import DYNAMITE, card_label
from ..render.fistful import Renderer as FistfulRenderer
from ..render.cherki import Renderer as CherkiRenderer
from ..render.cherki import card_kind, card_name, kind_name
from ..render.matchstick import card_label as matchstick_label
from ..render.ten import bust_risk, card_text
from ..render.ten import Renderer as TenRenderer
from .moves import BUST_TOKEN, TOKEN, bid_range, by_colour, hand_cards
from .state import AppState, TableState

__all__ = ["Fragments", "lobby_screen", "rematch_words", "table_screen", "text_of"]

Fragments = list[tuple[str, str]]

#: Below this height the seven-segment cards are drawn 3 rows tall instead of 5.
COMPACT_BELOW = 34
#: From this width on the event log stands beside the table instead of under it.
WIDE = 140
#: Columns the table takes when the log stands beside it.
TABLE_WIDTH = 96
_PAINT = {"pink": "class:pink", "green": "class:green"}


def text_of(fragments: Fragments) -> str:
    """The plain text of fragments (for tests and logs)."""
    return "".join(text for _, text in fragments)


def _lines(rows: Sequence[Fragments]) -> Fragments:
    out: Fragments = []
    for row in rows:
        out.extend(row)
        out.append(("", "\n"))
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


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
    if ts.game == "matchstick" and ts.view:
        rows = _matchstick(ts, room, height, no_color)
    elif ts.game == "fistful" and ts.view:
        rows = _fistful(ts, room, height)
    elif ts.game == "cherki" and ts.view:
        rows = _cherki(ts, room)
    elif ts.game == "ten" and ts.view:
        rows = _ten(ts, room)
    elif ts.view:
        rows = [[("", line)] for line in ts.renderer.table(ts.view, ts.seat if ts.seat is not None else 0)]
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
            out.append(left + [("", " " * (TABLE_WIDTH + 1 - used)), ("class:rule", "| ")] + _clip(right, width - TABLE_WIDTH - 3))
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
        return [("class:turn", "Your turn. "), *clock, ("", _turn_hint(ts))]
    names = [ts.renderer.name(s) for s in ts.to_act if s != ts.seat]
    if ts.seat in ts.to_act and not names:
        return [("class:dim", "Your turn is coming...")]
    who = ", ".join(names) if names else "the table"
    return [("class:dim", f"Waiting for {who}...")]


def _turn_hint(ts: TableState) -> str:
    if ts.game == "matchstick":
        return "Space selects cards, Enter plays them, p passes."
    if ts.game == "fistful":
        phase = ts.view.get("public", {}).get("phase")
        if phase in ("setup_discard", "round_end_discard"):
            return "Space selects the cards to discard, Enter discards them."
        if phase == "green8_retrieve":
            return "Pick the card to take back and press Enter."
        return "Pick a card with the arrows and press Enter."
    if ts.game == "ten":
        return _ten_hint(ts)
    if ts.game == "cherki":
        phase = ts.view.get("public", {}).get("phase")
        if phase == "drawn":
            return "Pick the card to discard and press Enter (l lists every move)."
        return "Enter: draw, take or call; l lists your moves."
    return "Enter lists your moves."


def rematch_words(ts: TableState) -> str:
    """Who asked for a rematch and whose vote it still waits for (the players here; built-in players and those
    gone never hold it up)."""
    voters = [ts.renderer.name(s) for s in ts.rematch_votes]
    waiting = [
        ts.renderer.name(s)
        for s, info in enumerate(ts.seats)
        if isinstance(info, Mapping) and info.get("kind") == "human" and info.get("connected") and not info.get("auto")
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


def _seat_marker(ts: TableState, seat: int) -> str:
    info = ts.seats[seat] if seat < len(ts.seats) and isinstance(ts.seats[seat], Mapping) else {}
    if info.get("auto"):
        return " (auto)"
    if info.get("kind") == "human" and not info.get("connected") and seat != ts.seat:
        return " (gone)"
    return ""


# -- Matchstick Tycoon ------------------------------------------------------------------------------------


def _seg_rows(lit: str, added: str, compact: bool, extra: str, no_color: bool) -> list[Fragments]:
    rows: list[Fragments] = []
    for cells in segments.render_cells(lit, added, compact):
        row: Fragments = []
        for char, kind in cells:
            if kind == "added" and no_color:
                # Without colour a matchstick must still look different from a printed segment.
                char = "!" if char == "|" else "="
            style = {"lit": "class:seg.lit", "added": "class:seg.added"}.get(kind, "class:seg.blank")
            row.append((f"{style} {extra}".strip(), char))
        rows.append(row)
    return rows


def _card_row(
    cards: Sequence[tuple[str, str, str, str]], width: int, compact: bool, no_color: bool, focus: int | None
) -> list[Fragments]:
    """Cards ``(lit, added, label, extra style)`` side by side (a label may have several lines, one under the
    other); when they need more than one row, the row with
    ``focus`` (the cursor) is the one shown, with a count of the cards left out."""
    if not cards:
        return [[("class:dim", "  (none)")]]
    cell = 3 if compact else 4
    per_row = max(1, (width - 4) // (cell + 1))
    start = 0
    if len(cards) > per_row and focus is not None:
        start = min(max(0, focus - per_row // 2), len(cards) - per_row)
    chunk = cards[start : start + per_row]
    drawn = [_seg_rows(lit, added, compact, extra, no_color) for lit, added, _, extra in chunk]
    rows: list[Fragments] = []
    before, after = start, len(cards) - start - len(chunk)
    for r in range(len(drawn[0])):
        row: Fragments = [("class:dim", "< " if before and r == 0 else "  ")]
        for d in drawn:
            row += d[r] + [("", " ")]
        if after and r == 0:
            row.append(("class:dim", ">"))
        rows.append(row)
    # A label of several lines (a hand card's value, then its position) takes a row for each.
    for k in range(max(len(label.split("\n")) for _, _, label, _ in chunk)):
        labels: Fragments = [("", "  ")]
        for _, _, label, extra in chunk:
            lines = label.split("\n")
            text = lines[k] if k < len(lines) else ""
            labels += [(f"class:label {extra}".strip(), f"{text:^{cell}}"), ("", " ")]
        if k == 0 and (before or after):
            labels.append(("class:dim", f" ({before} left, {after} right)"))
        rows.append(labels)
    return rows


def _matchstick(ts: TableState, width: int, height: int, no_color: bool) -> list[Fragments]:
    pub: Mapping[str, Any] = ts.view["public"]
    priv: Mapping[str, Any] | None = ts.view.get("private")
    r = ts.renderer
    compact = height < COMPACT_BELOW
    rows: list[Fragments] = []
    if pub.get("revolution"):
        order: Fragments = [("class:revolution", " REVOLUTION "), ("", " 0 is the strongest")]
    else:
        order = [("class:dim", "normal order: F is the strongest")]
    rows.append(
        [("class:heading", "Matchstick Tycoon  "), *order, ("class:dim", f"   pile {pub.get('pile_size', 0)}")]
    )
    passed = set(pub.get("passed") or [])
    seats: Fragments = []
    for p in pub["players"]:
        seat = int(p["seat"])
        turn = seat == pub.get("turn") and not pub.get("over")
        name = r.name(seat) + _seat_marker(ts, seat)
        style = "class:seat.turn" if turn else ("class:seat.me" if seat == ts.seat else "class:seat")
        if p.get("out"):
            finish = p.get("finish")
            text = f"{name}: out" + (f" ({finish}.)" if finish else "")
        else:
            text = f"{name}: {_plural(p['hand_size'], 'card')}, {_plural(p['matchsticks'], 'matchstick')}"
            if seat in passed:
                text += ", passed"
        seats += [(style, (">" if turn else " ") + text), ("", "  ")]
    rows += _wrap_fragments(seats, width)
    top = pub.get("table")
    if top:
        cost = top.get("cost", 0)
        sticks = f" with {_plural(cost, 'matchstick')}" if cost else ""
        rows.append([("class:heading", "Trick: "), ("", f"{r.name(top['seat'])} played {top['count']} x {top['value']}{sticks}")])
        shown = [
            (str(c["lit"]), str(c["added"]), ("~" if c.get("rotated") else "") + str(c["card"]), "")
            for c in top["cards"]
        ]
        rows += _card_row(shown, width, compact, no_color, None)
    else:
        leader = pub.get("turn")
        leads = r.does(leader, "leads", "lead") if isinstance(leader, int) else "the leader leads"
        rows.append([("class:heading", "Trick: "), ("class:dim", f"empty - {leads}")])
    if priv is not None and ts.seat is not None:
        hand = priv.get("hand", [])
        mine = pub["players"][ts.seat]["matchsticks"]
        heading = [
            ("class:heading", "Your hand "),
            ("class:dim", f"({_plural(len(hand), 'card')}, {_plural(mine, 'matchstick')}; value and position under each)"),
        ]
        rows += wrap_runs(heading, width, "", "  ")
        ids = hand_cards(ts)
        drawn = []
        for pos, c in enumerate(hand):
            extra = _focus_style(ts, pos, int(c["id"]), ids)
            # The value it shows (as line mode writes it), then the position typed moves use (`:play 8 2 5`).
            drawn.append((segments.shape(str(c["card"])), "", f"{matchstick_label(str(c['card']))}\n{pos + 1}", extra))
        rows += _card_row(drawn, width, compact, no_color, ts.cursor)
    return rows


def _focus_style(ts: TableState, pos: int, card: int, ids: Sequence[int]) -> str:
    styles = []
    if card in ts.selected:
        styles.append("class:selected")
    if pos == ts.cursor and ts.my_turn and ids:
        styles.append("class:cursor")
    return " ".join(styles)


def _wrap_fragments(items: Fragments, width: int) -> list[Fragments]:
    """Fragments laid out in lines of at most ``width`` cells, breaking only between fragments."""
    rows: list[Fragments] = [[]]
    used = 0
    for style, text in items:
        if used + len(text) > width and rows[-1]:
            rows.append([])
            used = 0
        rows[-1].append((style, text))
        used += len(text)
    return rows


# -- A Fistful of Gold ------------------------------------------------------------------------------------


def _fcard(ts: TableState, seat: int, card: int, extra: str = "") -> tuple[str, str]:
    colours = ts.view["public"].get("colours") or []
    colour = colours[seat] if 0 <= seat < len(colours) else ""
    return (f"{_PAINT.get(colour, '')} {extra}".strip(), f"[{card_label(card)}]")


def _fistful(ts: TableState, width: int, height: int) -> list[Fragments]:
    pub: Mapping[str, Any] = ts.view["public"]
    priv: Mapping[str, Any] | None = ts.view.get("private")
    r = ts.renderer
    assert isinstance(r, FistfulRenderer)
    r.observe(ts.view)
    me = ts.seat if ts.seat is not None else 0
    them = 1 - me
    rows: list[Fragments] = []
    length = f"{pub['length']} match: first to {_plural(pub['target_stars'], 'star')}"
    rows.append(
        [
            ("class:heading", f"A Fistful of Gold - round {pub['round']}, duel {pub['duel']} of {pub['duels_in_round']}"),
            ("class:dim", f"  ({length})"),
        ]
    )
    scores: Fragments = [("class:heading", "Stars")]
    for seat in (me, them):
        scores += [("", f" {r.name(seat)} "), ("class:star", "*" * int(pub["stars"][seat]) or "-")]
    scores += [("class:heading", "   Gold")]
    for seat in (me, them):
        scores += [("", f" {r.name(seat)} "), ("class:gold", str(pub["gold"][seat]))]
    scores += [("class:heading", "   Pot "), ("class:gold", str(pub["pot"]))]
    rows.append(scores)
    barred = pub.get("barred") or [None, None]
    for seat in (them, me):
        who = f"{r.name(seat)}{_seat_marker(ts, seat)} ({r.colour_of(seat)})"
        row: Fragments = [("class:seat.turn" if seat in ts.to_act else "class:seat", f"{who:<22}")]
        for card in pub["played"][seat]:
            row += [_fcard(ts, seat, card), ("", " ")]
        if not pub["played"][seat]:
            row.append(("class:dim", "no card yet"))
        row.append(("class:dim", f"   hand {pub['hand_sizes'][seat]}, discards {pub['discard_sizes'][seat]}"))
        if pub["phase"] == "pick" and pub["picked"][seat] and seat != me:
            row.append(("class:turn", "  has picked"))
        rows.append(row)
    bars: Fragments = []
    for seat in (me, them):
        if pub["phase"] == "pick" and barred[seat] is not None:
            whose = "your" if seat == me else f"{r.name(seat)}'s"
            bars += [("class:dim", f"  {whose} "), _fcard(ts, seat, int(barred[seat]))]
    if bars:
        rows.append([("class:dim", "Barred by the +1 rule:")] + bars)
    last = pub.get("last_duel")
    if last and last.get("round") == pub["round"]:
        a, b = last["cards"]
        steps = [r.step_text(s) for s in last.get("steps", [])] or ["nothing happens"]
        said: Fragments = [("", (": " if n == 0 else "; ") + step) for n, step in enumerate(steps)]
        rows += _wrap_fragments(
            [("class:heading", f"Last duel ({last['duel']}): "), ("", f"{r.name(0)} "), _fcard(ts, 0, a)]
            + [("", f" vs {r.name(1)} "), _fcard(ts, 1, b)]
            + said,
            width,
        )
    for line in r.effects(pub):
        rows.append([("class:dim", line)])
    if priv is not None:
        phase = pub["phase"]
        pile = phase == "green8_retrieve"
        rows.append([("class:heading", "Your discard pile - take one back:" if pile else f"Your hand ({r.colour_of(me)}):")])
        cards = hand_cards(ts)
        rows += _fistful_hand(ts, me, cards, barred[me] if phase == "pick" else None)
        extra: Fragments = []
        if not pile and priv.get("discard"):
            extra += [("class:dim", "Discard pile: ")] + [f for c in priv["discard"] for f in (_fcard(ts, me, c), ("", " "))]
        if priv.get("pick") is not None:
            extra += [("class:dim", "   Your pick: "), _fcard(ts, me, int(priv["pick"]))]
        if extra:
            rows.append(extra)
    for line in r.prompt(pub, me):
        rows.append([("class:dim", line)])
    return rows


def _fistful_hand(ts: TableState, me: int, cards: Sequence[int], barred: int | None) -> list[Fragments]:
    if not cards:
        return [[("class:dim", "  (none)")]]
    top: Fragments = [("", "  ")]
    mid: Fragments = [("", "  ")]
    bottom: Fragments = [("", "  ")]
    notes: Fragments = [("", "  ")]
    for pos, card in enumerate(cards):
        extra = _focus_style(ts, pos, card, cards)
        style, _ = _fcard(ts, me, card, extra)
        face = "DYN" if card == DYNAMITE else f" {card} "
        top += [(style, "+---+"), ("", " ")]
        mid += [(style, "|"), (f"{style} class:face", face), (style, "|"), ("", " ")]
        bottom += [(style, "+---+"), ("", " ")]
        mark = "bar" if card == barred else ("sel" if card in ts.selected else "")
        notes += [("class:dim", f"{mark:^5}"), ("", " ")]
    return [top, mid, bottom, notes]


# -- Cherki ----------------------------------------------------------------------------------------------

_SUIT_STYLE = {"Coins": "class:coins", "Strings": "class:strings", "Myriads": "class:myriads"}


def cherki_face(card: int) -> tuple[str, str]:
    """A money card's style and short face: ``3C``, ``9S*`` (``*`` = red stamp), ``WF``, ``RF*``, ``OT*``."""
    name = card_name(card)
    stamp = name.endswith("*")
    words = name.rstrip("*").split()
    if words[0].isdigit():
        face, style = words[0] + words[1][0], _SUIT_STYLE[words[1]]
    else:
        face, style = "".join(w[0] for w in words), "class:honour"
    return ("class:stamp" if stamp else style), face + ("*" if stamp else "")


def _cherki(ts: TableState, width: int) -> list[Fragments]:
    pub: Mapping[str, Any] = ts.view["public"]
    priv: Mapping[str, Any] | None = ts.view.get("private")
    r = ts.renderer
    assert isinstance(r, CherkiRenderer)
    me = ts.seat if ts.seat is not None else 0
    # The table as line mode says it; the hand is drawn below as cards, grouped by kind.
    rows: list[Fragments] = [row for line in r.table({"public": pub, "private": None}, me) for row in _fit(line, "", width)]
    if priv is None:
        return rows
    cards = hand_cards(ts)
    rows += wrap_runs([("class:heading", f"Your hand ({len(cards)} cards, by kind; number = card id):")], width, "", "  ")
    top: Fragments = [("", "  ")]
    mid: Fragments = [("", "  ")]
    ids: Fragments = [("", "  ")]
    kind = None
    for pos, card in enumerate(cards):
        gap = "  " if kind is not None and card_kind(card) != kind else " "
        kind = card_kind(card)
        style, face = cherki_face(card)
        extra = _focus_style(ts, pos, card, cards)
        full = f"{style} {extra}".strip()
        top += [("", gap), (full, "+---+")]
        mid += [("", gap), (full, "|"), (f"{full} class:face", f"{face:^3}"), (full, "|")]
        ids += [("", gap), ("class:label", f"{card:^5}")]
    per_row = max(1, (width - 4) // 6)
    if len(cards) > per_row:
        # Too many for one row at this width: the faces alone, still grouped.
        chips = [f for card in cards for f in (_cherki_chip(ts, card, cards), ("", " "))]
        rows += [[("", "  "), *row] for row in _wrap_fragments(chips, width - 2)]
    else:
        rows += [top, mid, list(top), ids]
    if priv.get("pair_kind") is None:
        rows += wrap_runs(_cherki_progress(cards), width, "", "  ")
    for line in r.hand_lines(priv, pub, me)[-2:]:
        if not line.startswith("Your hand") and not line.startswith("  "):
            rows += _fit(line, "class:dim", width)
    return rows


def _fit(line: str, style: str, width: int) -> list[Fragments]:
    """A line of text as it is when it fits, else wrapped at words under its own indent (never cut off)."""
    if text_width(line) <= width:
        return [[(style, line)]]
    indent = line[: len(line) - len(line.lstrip())]
    return wrap_runs([(style, line)], width, indent, indent + "  ")


def _cherki_progress(cards: Sequence[int]) -> Fragments:
    """The sets the hand holds towards a call (two triples and a pair), as the player builds them."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card_kind(card)] = counts.get(card_kind(card), 0) + 1
    triples = [k for k, n in counts.items() for _ in range(n // 3)]
    pairs = [k for k, n in counts.items() if n % 3 == 2]
    have: Fragments = [("class:heading", "Towards a call: ")]
    have.append(("class:green" if len(triples) >= 2 else "", f"triples {len(triples)} of 2"))
    if triples:
        have.append(("class:dim", " (" + ", ".join(kind_name(k) for k in triples) + ")"))
    have.append(("class:green" if pairs else "", f", pairs {len(pairs)} of 1"))
    if pairs:
        have.append(("class:dim", " (" + ", ".join(kind_name(k) for k in pairs) + ")"))
    return have


def _cherki_chip(ts: TableState, card: int, cards: Sequence[int]) -> tuple[str, str]:
    style, face = cherki_face(card)
    extra = _focus_style(ts, cards.index(card), card, cards)
    return (f"{style} {extra}".strip(), f"[{face} {card}]")


# -- TEN -------------------------------------------------------------------------------------------------

#: A colour's first letter on a chip, so cards stay apart without colour.
_TEN_LETTER = {"red": "R", "blue": "B", "orange": "O", "green": "G"}


def ten_chip(card: Mapping[str, Any]) -> tuple[str, str]:
    """A TEN card's style and short face: ``R5`` (red 5), ``B#`` (blue wild, any number), ``*8`` (an 8 of any
    colour), ``*#`` (anything), ``$3`` (currency 3)."""
    kind = card.get("type")
    colour = str(card.get("colour", ""))
    style = f"class:ten.{colour}" if colour else ("class:ten.currency" if kind == "currency" else "class:ten.wild")
    if kind == "number":
        face = f"{_TEN_LETTER.get(colour, '?')}{card['value']}"
    elif kind == "colour_wild":
        face = f"{_TEN_LETTER.get(colour, '?')}#"
    elif kind == "number_wild":
        face = f"*{card['value']}"
    elif kind == "any_wild":
        face = "*#"
    else:
        face = f"${card.get('value', '?')}"
    return style, face


def _ten_chips(cards: Sequence[Mapping[str, Any]], extra: Mapping[int, str] | None = None) -> Fragments:
    out: Fragments = []
    for card in cards:
        style, face = ten_chip(card)
        more = (extra or {}).get(int(card["id"]), "")
        out += [(f"{style} {more}".strip(), f"[{face}]"), ("", " ")]
    return out


def _ten(ts: TableState, width: int) -> list[Fragments]:
    pub: Mapping[str, Any] = ts.view["public"]
    r = ts.renderer
    assert isinstance(r, TenRenderer)
    me = ts.seat
    r.me = me if me is not None else 0
    active = int(pub["active"])
    rows: list[Fragments] = []
    head: Fragments = [("class:heading", f"TEN - turn {pub['turn']}"), ("", f"  {r.name(active)} to play")]
    if pub.get("house_rules"):
        head.append(("class:turn", f"  SOLO (house rules): reach {pub['solo_target']} points"))
    top = pub["discard"].get("top")
    head.append(("class:dim", f"  draw pile {pub['draw_pile']}, discards {pub['discard']['size']}"))
    if top:
        head += [("class:dim", " top "), ten_chip(top)]
    rows += _wrap_fragments(head, width)
    tab = pub["tableau"]
    numbers, currency = int(tab["numbers"]), int(tab["currency"])
    line: Fragments = [("class:heading", "Tableau ")]
    line += _ten_chips(tab["cards"]) if tab["cards"] else [("class:dim", "empty ")]
    rows += _wrap_fragments(line, width)
    sums: Fragments = [
        ("", "Bust at 11: numbers-currency "),
        ("class:error" if numbers - currency >= 8 else "", str(numbers - currency)),
        ("", ", currency "),
        ("class:error" if currency >= 8 else "", str(currency)),
        ("class:dim", f". Safe next card: {r.margin(numbers, currency)}"),
    ]
    # Wrapped at words with a hanging indent: a continuation reads on, it never starts with stray punctuation.
    rows += wrap_runs(sums, width, "  ", "    ")
    if pub["phase"] == "draw":
        risk = bust_risk(pub, ts.players)
        share = f" ({100 * risk.busting // risk.unseen}%)" if risk.unseen else ""
        rows.append(
            [
                ("", "  Next draw: "),
                ("class:error" if risk.busting else "class:green", f"{risk.busting} of {risk.unseen}"),
                ("", f" cards left would bust you{share}"),
            ]
        )
    rows += _ten_market(ts, pub, width)
    rows.append([("class:heading", "Players"), ("class:dim", "  (points: what each collection scores now)")])
    for seat, info in enumerate(pub["seats"]):
        turn = seat == active and not ts.over
        style = "class:seat.turn" if turn else ("class:seat.me" if seat == me else "class:seat")
        name = r.name(seat) + _seat_marker(ts, seat)
        seat_row: Fragments = [
            (style, f"{'>' if turn else ' '}{name:<12}"),
            ("class:gold", f"{info['score']:>3} pts"),
            ("class:dim", f"  tokens {info['tokens']:>2}  busts {info['bust_tokens']}  "),
        ]
        seat_row += _ten_chips(by_colour(info["collection"])) if info["collection"] else [("class:dim", "no cards")]
        # A long collection goes on under its first cards, not under the name.
        indent = sum(len(text) for _, text in seat_row[:3])
        if width - indent < 12:
            rows.append(seat_row[:3])
            indent = 2
        cards = _wrap_fragments(seat_row[3:], width - indent)
        rows.append((seat_row[:3] if indent > 2 else [("", "  ")]) + cards[0])
        rows += [[("", " " * indent)] + more for more in cards[1:]]
    rows += _ten_pending(ts, pub, width)
    return rows


def _ten_market(ts: TableState, pub: Mapping[str, Any], width: int) -> list[Fragments]:
    market = by_colour(pub.get("market") or [])
    if not market:
        return [[("class:heading", "Market "), ("class:dim", "empty")]]
    buying = pub["phase"] in ("buy", "final_buy") and ts.my_turn
    cards = hand_cards(ts) if buying else []
    extra = {c: _focus_style(ts, pos, c, cards) for pos, c in enumerate(cards)}
    out: Fragments = [("class:heading", "Market "), ("class:dim", "(price = number) ")]
    out += _ten_chips(market, extra)
    rows = _wrap_fragments(out, width)
    if buying and 0 <= ts.cursor < len(cards):
        card = TenRenderer.find(market, cards[ts.cursor])
        tokens = pub["seats"][ts.seat]["tokens"] if ts.seat is not None else 0
        if card is not None:
            rows.append([("class:dim", f"  At the cursor: {card_text(card)} for {card['value']}; you have {tokens} tokens.")])
    return rows


def _ten_pending(ts: TableState, pub: Mapping[str, Any], width: int) -> list[Fragments]:
    r = ts.renderer
    rows: list[Fragments] = []
    auction = pub.get("auction")
    if auction:
        high = auction.get("high_seat")
        state = f"high bid {auction['high_bid']} by {r.name(high)}" if high is not None else "no bid yet"
        order = ", ".join(r.name(s) for s in auction["order"])
        rows += _wrap_fragments(
            [("class:heading", "Auction "), ten_chip(auction["card"]), ("", f" {state}; one bid each ({order}), now {r.name(auction['next'])}.")],
            width,
        )
        low_high = bid_range(ts)
        if ts.my_turn and low_high is not None:
            low, top = low_high
            rows.append(
                [("", "  Your bid: "), ("class:cursor", f"< {ts.bid} >"), ("class:dim", f"  legal {low} to {top}; +/- change, Enter bids, p passes")]
            )
    offer = pub.get("offer")
    if offer:
        rows.append([("class:heading", "Offer "), ten_chip(offer["card"]), ("", f" for {offer['price']} tokens: a accepts, p declines.")])
    pay = pub.get("payment")
    if pay:
        who = r.name(pay["payer"])
        rows += _wrap_fragments(
            [("class:heading", "Payment "), ("", f"{who} {'owe' if who == 'You' else 'owes'} {pay['owed']} for "), ten_chip(pay["card"]), ("", f" (price {pay['price']}, paid {pay['paid']})")],
            width,
        )
        if pay["payer"] == ts.seat and ts.my_turn:
            rows += _ten_pay_rows(ts, pub, pay, width)
    final = pub.get("final_round")
    if final:
        order = ", ".join(r.name(s) for s in final["order"])
        rows.append([("class:heading", "Final buy round "), ("", f"({order}): now {r.name(final['next'])}.")])
    return rows


def _ten_pay_rows(ts: TableState, pub: Mapping[str, Any], pay: Mapping[str, Any], width: int) -> list[Fragments]:
    """What the payer can pay with (the cursor picks one piece), and the least that settles the debt."""
    seat = pub["seats"][ts.seat if ts.seat is not None else 0]
    pieces = hand_cards(ts)
    out: Fragments = [("", "  Pay with: ")]
    for pos, piece in enumerate(pieces):
        extra = _focus_style(ts, pos, piece, pieces)
        if piece == TOKEN:
            out += [(f"class:gold {extra}".strip(), f"[token x{seat['tokens']}]"), ("", " ")]
        elif piece == BUST_TOKEN:
            out += [(f"class:dim {extra}".strip(), f"[bust token x{seat['bust_tokens']} = 3]"), ("", " ")]
        else:
            card = TenRenderer.find(seat["collection"], piece)
            if card is not None:
                style, face = ten_chip(card)
                out += [(f"{style} {extra}".strip(), f"[{face}]"), ("", " ")]
    rows = _wrap_fragments(out, width)
    owed = int(pay["owed"])
    if seat["tokens"] >= owed:
        least = f"{_plural(owed, 'token')} (exact)"
    elif seat["tokens"] + len(seat["collection"]) >= owed:
        least = f"all {_plural(seat['tokens'], 'token')} and {_plural(owed - seat['tokens'], 'card')} (each card is worth 1)"
    else:
        least = f"{_plural(-(-owed // 3), 'bust token')} (3 each, no change)"
    rows += wrap_runs([("class:dim", f"Least that settles {owed}: {least}. e pays it, Enter the piece at the cursor.")], width, "  ", "  ")
    return rows


def _ten_hint(ts: TableState) -> str:
    phase = ts.view.get("public", {}).get("phase")
    if phase == "draw":
        return "d draws, s stops (the risk is shown above)."
    if phase == "prize":
        return "n takes the numbers (then buy), c the currency."
    if phase in ("buy", "final_buy"):
        return "Arrows pick a market card, Enter buys it, p buys nothing."
    if phase == "auction":
        return "+/- set your bid, Enter bids, p passes."
    if phase == "pay":
        return "Arrows pick a token, bust token or card, Enter pays it."
    return "a accepts, p declines."


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
        rows.append([("", "  "), (style, f"{entry.label}{lock}"), ("class:dim", f"  {entry.detail}" if entry.detail else "")])
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
