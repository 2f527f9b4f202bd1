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

from ...game_words import core_text
from ...games import GAMES
from ...i18n import N_, current_language
from ...i18n import gettext as _
from ...rulebook import rules_games, rules_text
from ..markdown import Line, markdown_lines, text_width, wrap_runs
from ..render.screen import GameScreen
from .commands import CONTEXTS, MOVE_COMMANDS, Command, for_context
from .draw import lobby_screen, table_screen
from .filters import Filters, active_context
from .state import AppState

__all__ = ["build_layout", "help_lines"]

#: Rows the bars around the main area take (title, message, status).
BARS = 3
#: Most rows the message line grows to when a message (a long refusal in a long language) needs them.
MESSAGE_ROWS = 3
#: Most moves the chooser shows at once (it scrolls with the cursor).
CHOICES_SHOWN = 12
#: The help's words (translated when shown).
HELP_TEXT = {
    "type_moves": N_("Type ':' and a move in those words to play it directly."),
    "rules_heading": N_("The rules (Up/Down scroll)"),
    "status": N_("Up/Down scroll   Esc or ? closes help   ^Q quit"),
    "language": N_(
        "Language: F2 switches between English, Bahasa Indonesia, Español and Suomi (or type ':lang fi'); the"
        " choice is kept in config.toml. --lang and CARDNET_LANG still win for one run."
    ),
}
#: The help's heading for the keys of each screen (translated when shown).
CONTEXT_NAMES = {
    "always": N_("Everywhere"),
    "help": N_("Help"),
    "lobby": N_("Lobby"),
    "form": N_("New table form"),
    "table": N_("At a table"),
    "choices": N_("Move list"),
}
#: Columns the help's key names take before their description (when the help is wide enough for two columns).
KEY_COLUMN = 16
#: The narrowest description column worth keeping beside the keys; narrower help puts keys on a line of their own.
MIN_DOC_COLUMN = 24
#: Columns the help box loses to the screen edges (2 each side), its frame and a space inside (1 each side).
HELP_MARGIN = 8
#: Rows the help box loses: a row above and below it, and its frame.
HELP_ROWS_LOST = 4


def build_layout(
    st: AppState, filters: Filters, command_line: Buffer, size: Callable[[], tuple[int, int]]
) -> tuple[Layout, Window]:
    """The layout and its main window (which holds the focus when the command line does not)."""

    def main() -> StyleAndTextTuples:
        columns, rows = size()
        extra = len(_message_lines(st, columns)) - 1
        height = max(1, rows - BARS - extra - (1 if st.command_open else 0))
        if st.screen == "table" and st.table is not None:
            return table_screen(st.table, columns, height, st.no_color)  # type: ignore[return-value]
        return lobby_screen(st, columns, height)  # type: ignore[return-value]

    main_window = Window(FormattedTextControl(main, focusable=True, show_cursor=False), wrap_lines=False)
    body = HSplit(
        [
            Window(FormattedTextControl(lambda: _title(st)), height=1, style="class:title"),
            main_window,
            Window(
                FormattedTextControl(lambda: _message(st, size()[0])),
                height=lambda: len(_message_lines(st, size()[0])),
                wrap_lines=False,
            ),
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
            Window(FormattedTextControl(lambda: _status(st, size()[0])), height=1, style="class:status"),
        ]
    )
    floats = [
        Float(
            ConditionalContainer(
                Frame(
                    Window(FormattedTextControl(lambda: _choices(st, size()[1])), wrap_lines=False),
                    title=lambda: _("Choose a move"),
                ),
                filter=filters.choices,
            ),
            # Low on the screen, over the log, so the hand and the table stay in view.
            bottom=2,
        ),
        Float(
            ConditionalContainer(
                Frame(
                    Window(FormattedTextControl(lambda: _scrolled_help(st, *size())), wrap_lines=False),
                    title=lambda: _("Help"),
                ),
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
    where = st.table.title if st.screen == "table" and st.table is not None else _("lobby")
    return [("", f" cardnet - {where}")]


def _message_lines(st: AppState, width: int) -> list[Line]:
    """The error (else the message) wrapped at words: a longer message takes up to MESSAGE_ROWS rows from the
    table instead of being cut at the edge."""
    run = ("class:error", st.error) if st.error else ("class:message", st.message)
    return wrap_runs([run], max(1, width), "", "  ")[:MESSAGE_ROWS] or [[]]


def _message(st: AppState, width: int) -> StyleAndTextTuples:
    lines = _message_lines(st, width)
    out: StyleAndTextTuples = []
    for n, line in enumerate(lines):
        out += [*line, ("", "\n")] if n < len(lines) - 1 else line
    return out


def _shown_for(command: Command, screen: GameScreen) -> bool:
    """Whether the status line of a table of ``screen``'s game shows ``command``."""
    if command.needs == "cards":
        return screen.card_row
    if command.needs == "own":
        return any(key.name == command.name for key in screen.keys)
    if command.name == "pass":
        return screen.has_pass
    return True


def _status(st: AppState, width: int) -> StyleAndTextTuples:
    """The keys that work here, each a key and its word; those that do not fit the width are left out whole
    (a longer language shows fewer, never half of one: ``?`` lists them all)."""
    context = active_context(st)
    if context == "help":
        return [("class:status", " " + _(HELP_TEXT["status"]))]
    out: StyleAndTextTuples = [("class:status", " ")]
    used = 1
    watching = context == "table" and st.table is not None and st.table.seat is None
    if watching:
        out.append(("class:status", _("watching") + "  "))
        used += len(out[-1][1])
    for command in for_context(context):
        if watching and command.name in MOVE_COMMANDS:
            continue
        if context == "table" and st.table is not None and not _shown_for(command, st.table.screen):
            continue
        if command.shown and command.status_in in ("", context):
            key, _space, label = _(command.shown).partition(" ")
            item = [("class:status.key", key), ("class:status", f" {label}  ")]
            size = text_width(key) + text_width(item[1][1])
            if used + size - 2 > width:
                continue
            out += item
            used += size
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
    out.append(
        (
            "class:dim",
            " "
            + _("{number} of {count} - Up/Down, Enter plays, Esc back").format(
                number=ts.choice_cursor + 1, count=len(ts.choices)
            ),
        )
    )
    return out


def _scrolled_help(st: AppState, columns: int, rows: int) -> StyleAndTextTuples:
    lines = help_lines(st, columns - HELP_MARGIN)
    st.help_offset = min(st.help_offset, max(0, len(lines) - (rows - HELP_ROWS_LOST)))
    out: StyleAndTextTuples = []
    for line in lines[st.help_offset :]:
        out += [("", " "), *line, ("", "\n")]
    return out


def help_lines(st: AppState, width: int) -> list[Line]:
    """The help screen at ``width`` columns: how to play the current game (at a table), every key by screen,
    then the game's rules; every paragraph is wrapped at word boundaries."""
    out: list[Line] = []

    def paragraph(text: str, style: str = "") -> None:
        out.extend(wrap_runs([(style, text)], width))

    ts = st.table
    if st.screen == "table" and ts is not None:
        info = GAMES.get(ts.game)
        if info is not None:
            paragraph(info.title, "class:heading")
            paragraph(core_text(info.summary))
            out.append([])
        for text in [
            *ts.renderer.help(),
            _(HELP_TEXT["type_moves"]),
            _(ts.screen.help_note) if ts.screen.help_note else "",
        ]:
            if text:
                paragraph(text)
                out.append([])
    paragraph(_(HELP_TEXT["language"]))
    out.append([])
    two_columns = width - KEY_COLUMN - 3 >= MIN_DOC_COLUMN
    for n, context in enumerate(CONTEXTS):
        if n:
            out.append([])
        paragraph(_(CONTEXT_NAMES[context]), "class:heading")
        for command in for_context(context):
            if command.context != context:
                continue
            keys = ", ".join(_key_name(k) for k in command.keys) or f":{command.name}"
            doc = _(command.doc)
            if two_columns and text_width(keys) <= KEY_COLUMN:
                out.extend(wrap_runs([("", doc)], width, f"  {keys:<{KEY_COLUMN}} ", " " * (KEY_COLUMN + 3)))
            else:
                out.extend(wrap_runs([("", keys)], width, "  ", "  "))
                out.extend(wrap_runs([("", doc)], width, "    ", "    "))
    if st.screen == "table" and ts is not None and ts.game in rules_games():
        out.append([])
        paragraph(HELP_TEXT["rules_heading"], "class:heading")
        out.append([])
        out.extend(markdown_lines(rules_text(ts.game, current_language()), width))
    return out


def _key_name(key: str) -> str:
    names = {"c-q": "Ctrl-Q", "c-c": "Ctrl-C", "escape": "Esc", "enter": "Enter", "space": "Space", "tab": "Tab"}
    return names.get(key, key.upper() if key.startswith("f") and key[1:].isdigit() else key)
