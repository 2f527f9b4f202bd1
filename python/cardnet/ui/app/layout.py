"""The screen's layout: title bar, the lobby or table, a message line, the ``:`` line and the status line with
the keys that work here; the move chooser and help float above."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.processors import ConditionalProcessor, PasswordProcessor
from prompt_toolkit.widgets import Frame

from ...games import GAMES
from ...i18n import current_language
from ...rulebook import rules_games, rules_text
from .commands import CONTEXTS, MOVE_COMMANDS, for_context
from .draw import Fragments, lobby_screen, table_screen
from .filters import Filters, active_context
from .state import AppState

__all__ = ["build_layout", "help_fragments"]

#: Rows the bars around the main area take (title, message, status).
BARS = 3
#: Most moves the chooser shows at once (it scrolls with the cursor).
CHOICES_SHOWN = 12
#: How each game's screen draws its cards, for the help.
CARD_NOTES = {
    "matchstick": (
        "On screen: matchsticks added to a card are drawn in orange (= and ! without colour); a card",
        "played turned shows ~ before its printed type; under your cards is each card's position.",
        "Select several cards with Space: Enter then offers every value they can show together.",
    ),
    "cherki": (
        "On screen: your hand is grouped by kind; 3C is the 3 of Coins (yellow), S Strings (green),",
        "M Myriads (blue); WF, RF and OT are the honours; * (red) marks the red stamp. Under each card: its id.",
    ),
    "ten": (
        "On screen: R5 is a red 5 (B blue, O orange, G green), B# a blue wild, *8 an 8 of any colour, *# a card",
        "of any colour and number, $3 currency 3. 'Next draw: N of M' counts the cards left that would bust you.",
        "Keys: d draw, s stop, n numbers, c currency, arrows + Enter buy or pay, +/- and Enter bid, p pass or skip.",
    ),
    "fistful": (
        "On screen: cards are drawn in their owner's colour ([D] is the Dynamite); 'bar' under a card",
        "marks the one the +1 rule bars this duel. Gold, the pot and the stars are at the top.",
    ),
}


def build_layout(
    st: AppState, filters: Filters, command_line: Buffer, size: Callable[[], tuple[int, int]]
) -> tuple[Layout, Window]:
    """The layout and its main window (which holds the focus when the command line does not)."""

    def main() -> StyleAndTextTuples:
        columns, rows = size()
        height = max(1, rows - BARS - (1 if st.command_open else 0))
        if st.screen == "table" and st.table is not None:
            return table_screen(st.table, columns, height, st.no_color)  # type: ignore[return-value]
        return lobby_screen(st, columns, height)  # type: ignore[return-value]

    main_window = Window(FormattedTextControl(main, focusable=True, show_cursor=False), wrap_lines=False)
    body = HSplit(
        [
            Window(FormattedTextControl(lambda: _title(st)), height=1, style="class:title"),
            main_window,
            Window(FormattedTextControl(lambda: _message(st)), height=1),
            ConditionalContainer(
                Window(
                    BufferControl(
                        command_line,
                        input_processors=[
                            ConditionalProcessor(PasswordProcessor(), Condition(lambda: st.prompt_secret))
                        ],
                    ),
                    height=1,
                    get_line_prefix=lambda *_: [("class:heading", st.prompt or ":")],
                ),
                filter=Condition(lambda: st.command_open),
            ),
            Window(FormattedTextControl(lambda: _status(st)), height=1, style="class:status"),
        ]
    )
    floats = [
        Float(
            ConditionalContainer(
                Frame(Window(FormattedTextControl(lambda: _choices(st, size()[1])), wrap_lines=False), title="Choose a move"),
                filter=filters.choices,
            ),
            # Low on the screen, over the log, so the hand and the table stay in view.
            bottom=2,
        ),
        Float(
            ConditionalContainer(
                Frame(Window(FormattedTextControl(lambda: _scrolled_help(st)), wrap_lines=True), title="Help"),
                filter=filters.help,
            ),
            left=2,
            right=2,
            top=1,
            bottom=1,
        ),
    ]
    return Layout(FloatContainer(body, floats), focused_element=main_window), main_window


def _title(st: AppState) -> StyleAndTextTuples:
    where = st.table.title if st.screen == "table" and st.table is not None else "lobby"
    return [("", f" cardnet - {where}")]


def _message(st: AppState) -> StyleAndTextTuples:
    if st.error:
        return [("class:error", st.error)]
    return [("class:message", st.message)]


def _status(st: AppState) -> StyleAndTextTuples:
    context = active_context(st)
    if context == "help":
        return [("class:status", " Up/Down scroll   Esc or ? closes help   ^Q quit")]
    out: StyleAndTextTuples = [("class:status", " ")]
    watching = context == "table" and st.table is not None and st.table.seat is None
    if watching:
        out.append(("class:status", "watching  "))
    for command in for_context(context):
        if watching and command.name in MOVE_COMMANDS:
            continue
        if command.games and context == "table" and st.table is not None and st.table.game not in command.games:
            continue
        if command.shown:
            key, _, label = command.shown.partition(" ")
            out += [("class:status.key", key), ("class:status", f" {label}  ")]
    return out


def _choices(st: AppState, rows: int) -> StyleAndTextTuples:
    ts = st.table
    if ts is None or not ts.choices:
        return []
    # At most half the screen, so the hand above stays in view.
    shown = max(3, min(CHOICES_SHOWN, rows // 2 - 3))
    first = max(0, min(ts.choice_cursor - shown // 2, len(ts.choices) - shown))
    out: StyleAndTextTuples = []
    for pos in range(first, min(len(ts.choices), first + shown)):
        style = "class:choice.cursor" if pos == ts.choice_cursor else "class:choice"
        out += [(style, f" {ts.choices[pos].label} "), ("", "\n")]
    out.append(("class:dim", f" {ts.choice_cursor + 1} of {len(ts.choices)} - Up/Down, Enter plays, Esc back"))
    return out


def _scrolled_help(st: AppState) -> StyleAndTextTuples:
    lines = "".join(fragment[1] for fragment in help_fragments(st)).split("\n")
    st.help_offset = min(st.help_offset, max(0, len(lines) - 5))
    return [("", "\n".join(lines[st.help_offset :]))]


def help_fragments(st: AppState) -> StyleAndTextTuples:
    """The help screen: how to play the current game (when at a table) and every key, by screen."""
    out: Fragments = []
    ts = st.table
    if st.screen == "table" and ts is not None:
        info = GAMES.get(ts.game)
        if info is not None:
            out += [("class:heading", info.title + "\n"), ("", info.summary + "\n\n")]
        out += [("", line + "\n") for line in ts.renderer.help()]
        out.append(("", "Type ':' and a move in those words to play it directly.\n"))
        out += [("", line + "\n") for line in CARD_NOTES.get(ts.game, ())]
        out.append(("", "\n"))
    names = {"always": "Everywhere", "help": "Help", "lobby": "Lobby", "form": "New table form", "table": "At a table", "choices": "Move list"}
    for context in CONTEXTS:
        out.append(("class:heading", names[context] + "\n"))
        for command in for_context(context):
            if command.context != context:
                continue
            keys = ", ".join(_key_name(k) for k in command.keys) or f":{command.name}"
            out.append(("", f"  {keys:<16} {command.doc}\n"))
    if st.screen == "table" and ts is not None and ts.game in rules_games():
        rules = rules_text(ts.game, current_language())
        out += [("", "\n"), ("class:heading", "The rules (Up/Down scroll)\n"), ("", rules)]
    return out  # type: ignore[return-value]


def _key_name(key: str) -> str:
    return {"c-q": "Ctrl-Q", "escape": "Esc", "enter": "Enter", "space": "Space", "tab": "Tab"}.get(key, key)
