"""The command registry: every action of the client, its keys, where it works and its help text.

Key bindings (:mod:`cardnet.ui.app.keys`), the status line, the help screen and the ``:`` command line are all
built from this one list, so a key and its help never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...i18n import N_
from ...i18n import gettext as _
from ..render.screen import GameKey, all_screens
from .controller import Controller
from .lobby import form_change

__all__ = ["COMMANDS", "MOVE_COMMANDS", "Command", "by_name", "for_context"]


#: The contexts a command can work in; the filters module says which one is active.
CONTEXTS = ("always", "help", "lobby", "form", "table", "choices")


@dataclass(frozen=True)
class Command:
    """One action: ``keys`` in prompt_toolkit's names, shown in the status line as ``shown``."""

    name: str
    context: str
    keys: tuple[str, ...]
    shown: str
    doc: str
    run: Callable[[Controller, str], None]
    #: What the table's game must have for its status line to show this command: ``cards`` (a card row the
    #: arrows walk), ``own`` (the command is one of the game's own keys, shown only in games that have it), or
    #: nothing (every game).
    needs: str = ""
    #: The one context whose status line shows ``shown`` (empty: every context the command works in).
    status_in: str = ""


def _quit(c: Controller, _arg: str) -> None:
    c.state.quitting = True


def _help(c: Controller, _arg: str) -> None:
    c.state.help_open = not c.state.help_open
    c.state.help_offset = 0


def _help_scroll(step: int) -> Callable[[Controller, str], None]:
    def run(c: Controller, _arg: str) -> None:
        c.state.help_offset = max(0, c.state.help_offset + step)

    return run


def _lobby_move(step: int) -> Callable[[Controller, str], None]:
    def run(c: Controller, _arg: str) -> None:
        if c.state.entries:
            c.state.lobby_cursor = (c.state.lobby_cursor + step) % len(c.state.entries)

    return run


def _form_field(step: int) -> Callable[[Controller, str], None]:
    def run(c: Controller, _arg: str) -> None:
        form = c.state.form
        if form is not None:
            from .lobby import form_fields

            form.field_index = (form.field_index + step) % len(form_fields(form))

    return run


def _form_value(step: int) -> Callable[[Controller, str], None]:
    def run(c: Controller, _arg: str) -> None:
        if c.state.form is not None:
            form_change(c.state.form, step)

    return run


def _choice_move(step: int) -> Callable[[Controller, str], None]:
    def run(c: Controller, _arg: str) -> None:
        ts = c.state.table
        if ts is not None and ts.choices:
            ts.choice_cursor = (ts.choice_cursor + step) % len(ts.choices)

    return run


def _choice_enter(c: Controller, _arg: str) -> None:
    ts = c.state.table
    if ts is not None and ts.choices:
        c.table.choose(ts.choices[ts.choice_cursor])


def _connect(c: Controller, arg: str) -> None:
    try:
        c.lobby.add_address(arg)
    except ValueError as exc:
        c.state.error = str(exc)


def _refresh(c: Controller, _arg: str) -> None:
    c.lobby.refresh()
    c.state.message = _("Lobby refreshed.")


def _game_key(name: str) -> Callable[[Controller, str], None]:
    def run(c: Controller, _arg: str) -> None:
        c.table.game_key(name)

    return run


def _game_keys() -> list[Command]:
    """Every game's own keys (one command per name; its screen says what the key does in that game)."""
    seen: dict[str, GameKey] = {}
    for screen in all_screens():
        for key in screen.keys:
            seen.setdefault(key.name, key)
    # A game key's words are marked in its screen's module; they are translated when shown, like the rest.
    return [Command(k.name, "table", k.keys, k.shown, k.doc, _game_key(k.name), "own") for k in seen.values()]


# Translators: `shown` is a key as typed, a space, then its word on the status line: keep the key first.
COMMANDS: list[Command] = [
    Command(
        "quit", "always", ("c-q", "c-c"), N_("^Q quit"), N_("Leave cardnet (a local game stays in its journal)."), _quit
    ),
    Command("help", "always", ("?",), N_("? help"), N_("Show or hide this help."), _help),
    Command(
        "lang",
        "always",
        ("f2",),
        N_("F2 language"),
        N_(
            "Switch the language: English, Bahasa Indonesia, Español, Suomi (':lang fi' picks one); kept for next time."
        ),
        lambda c, arg: c.switch_language(arg),
        status_in="lobby",
    ),
    Command("type", "always", (":",), "", N_("Type a command or a move in line-mode words."), lambda c, _: None),
    Command(
        "close", "always", ("escape",), "", N_("Close a list or help; clear the selection."), lambda c, _: c.clear()
    ),
    Command("help-up", "help", ("up", "pageup"), "", N_("Scroll the help up."), _help_scroll(-5)),
    Command("help-down", "help", ("down", "pagedown"), "", N_("Scroll the help down."), _help_scroll(5)),
    Command("lobby-quit", "lobby", ("q",), "", N_("Leave cardnet."), _quit),
    Command("up", "lobby", ("up", "k"), "", N_("Previous entry."), _lobby_move(-1)),
    Command("down", "lobby", ("down", "j"), "", N_("Next entry."), _lobby_move(1)),
    Command(
        "open",
        "lobby",
        ("enter",),
        N_("Enter open"),
        N_("Open the entry: new table, join, resume."),
        lambda c, _: c.lobby.enter(),
    ),
    Command(
        "spectate",
        "lobby",
        ("s",),
        N_("s watch"),
        N_("Watch the table under the cursor."),
        lambda c, _: c.lobby.join_entry(spectate=True),
    ),
    Command("refresh", "lobby", ("f5",), "", N_("Look for unfinished games again."), _refresh),
    Command("connect", "lobby", (), "", N_("':connect HOST:PORT' adds a table by address."), _connect),
    Command(
        "name",
        "lobby",
        (),
        "",
        N_("':name NAME' changes the name you play under (remembered)."),
        lambda c, arg: c.lobby.set_name(arg) if arg.strip() else c.lobby.ask_name(),
    ),
    Command("field-up", "form", ("up",), "", N_("Previous field."), _form_field(-1)),
    Command("field-down", "form", ("down", "tab"), "", N_("Next field."), _form_field(1)),
    Command("less", "form", ("left",), N_("<> change"), N_("Previous value of the field."), _form_value(-1)),
    Command("more", "form", ("right", "space"), "", N_("Next value of the field."), _form_value(1)),
    Command(
        "start",
        "form",
        ("enter",),
        N_("Enter start"),
        N_("Host the table here and sit at seat 0."),
        lambda c, _: c.lobby.enter(),
    ),
    Command(
        "left",
        "table",
        ("left",),
        N_("<> card"),
        N_("Cursor to the previous card."),
        lambda c, _: c.table.move_cursor(-1),
        "cards",
    ),
    Command("right", "table", ("right",), "", N_("Cursor to the next card."), lambda c, _: c.table.move_cursor(1)),
    Command(
        "select",
        "table",
        ("space",),
        N_("Space select"),
        N_("Select or unselect the card."),
        lambda c, _: c.table.toggle_selected(),
        "cards",
    ),
    Command(
        "play",
        "table",
        ("enter",),
        N_("Enter play"),
        N_("Play the selected cards (or the card at the cursor)."),
        lambda c, _: c.table.play_selection(),
    ),
    Command(
        "pass",
        "table",
        ("p",),
        N_("p pass"),
        N_("Pass (in some games passing costs something: the rules say what)."),
        lambda c, _: c.table.pass_turn(),
    ),
    Command(
        "moves",
        "table",
        ("l",),
        N_("l moves"),
        N_("List every legal move to pick from."),
        lambda c, _: c.table.list_moves(),
    ),
    Command(
        "rematch",
        "table",
        ("r",),
        "",
        N_("Ask for a rematch once the game is over (seated players only)."),
        lambda c, _: c.table.rematch(),
    ),
    Command(
        "chat",
        "table",
        ("/", "tab"),
        N_("/ chat"),
        N_("Say something to the table (/ or Tab)."),
        lambda c, _: c.table.chat_prompt(),
    ),
    Command(
        "pane",
        "table",
        ("t",),
        "",
        N_("Seats, how many watch, and chat instead of the log (again: back)."),
        lambda c, _: c.table.toggle_pane(),
    ),
    Command(
        "qr",
        "table",
        ("w",),
        "",
        N_(
            "The address and QR code guests open in a browser, instead of the table (again: back); LAN tables"
            " hosted here, shown by themselves while seats are open."
        ),
        lambda c, _: c.table.toggle_qr(),
    ),
    Command("say", "table", (), "", N_("':say TEXT' sends TEXT to the table's chat."), lambda c, arg: c.table.say(arg)),
    Command(
        "leave",
        "table",
        ("b",),
        "",
        N_(
            "Back to the lobby (a local game can be resumed there; a LAN table hosted here asks first while others sit)."
        ),
        lambda c, _: c.table.leave(),
    ),
    Command("choice-up", "choices", ("up",), "", N_("Previous move."), _choice_move(-1)),
    Command("choice-down", "choices", ("down",), "", N_("Next move."), _choice_move(1)),
    Command("choose", "choices", ("enter",), N_("Enter play"), N_("Play the highlighted move."), _choice_enter),
    Command("cancel", "choices", (), N_("Esc back"), N_("Close the list."), lambda c, _: c.clear()),
    *_game_keys(),
]

#: Commands that make a move or point at cards: a spectator's status line leaves them out.
MOVE_COMMANDS = frozenset(
    {"left", "right", "select", "play", "pass", "moves"} | {c.name for c in COMMANDS if c.needs == "own"}
)


def by_name(name: str) -> Command | None:
    """The command typed on the ``:`` line (its name), or None."""
    for command in COMMANDS:
        if command.name == name:
            return command
    return None


def for_context(context: str) -> list[Command]:
    """Commands that work in ``context`` (those of ``always`` included)."""
    return [c for c in COMMANDS if c.context in (context, "always")]


def run_line(c: Controller, line: str) -> None:
    """Runs a line typed after ``:``: a command name with its argument, else a move in line-mode words."""
    words = line.strip().split(None, 1)
    if not words:
        return
    command = by_name(words[0].lower())
    if command is not None and command.name not in ("play", "pass") and command.context in ("always", "lobby", "table"):
        command.run(c, words[1] if len(words) > 1 else "")
        return
    c.table.typed_move(line.strip())
