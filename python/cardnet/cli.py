"""The ``cardnet`` command (also ``python -m cardnet``).

Only argparse and the standard library are imported up front; each subcommand imports what it needs when
it runs, so ``cardnet --help`` stays fast. Network subcommands come from ``cardnet.commands.net`` (host, join,
bot, replay) and ``cardnet.commands.discovery`` (list) when those modules are present.

Exit codes: 0 ok, 1 runtime failure, 2 usage error, 141 (128 + SIGPIPE) when the reader of the output went away.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# Importing the package (which this module is part of) already loaded cardnet.ai; this costs nothing.
from .ai import LEVELS
from .i18n import gettext as _
from .errors import BadOptions

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
#: The shell's exit code of a command stopped by a signal is this plus the signal's number.
EXIT_SIGNAL_BASE = 128

DEFAULT_GAME = "matchstick"


def _version() -> str:
    from . import __version__, build_info

    info = build_info()
    return f"cardnet {__version__} ({info['profile']} build, source {str(info['source_digest'])[:12]})"


def _parse_options(pairs: Sequence[str] | None, game: str) -> dict[str, Any]:
    """``KEY=VALUE`` strings typed against the game's option specs (the one ``--option`` parser)."""
    from .games import parse_options

    return parse_options(game, pairs)


def player_name_arg(text: str) -> str:
    """``--player-name``: a name a host accepts (1 to 32 characters, no control characters)."""
    from .identity import BadName, check_name

    try:
        return check_name(text)
    except BadName as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _cmd_play(args: argparse.Namespace) -> int:
    from .ui.plain import play_plain

    if args.player_name is not None:
        # Every part of the client (local tables, the lobby's tables and joins) asks identity.default_name().
        os.environ["CARDNET_NAME"] = args.player_name

    if args.resume is not None:
        given = [flag for flag, value in _new_game_flags(args) if value]
        if given:
            drop = ", ".join(given)
            print(
                _("cardnet play: --resume takes the game and its seats from the journal; drop {flags}").format(
                    flags=drop
                ),
                file=sys.stderr,
            )
            return EXIT_USAGE
        game = None
    else:
        game = args.game
        bad_seat = _seat_problem(game or DEFAULT_GAME, args.players, args.seat)
        if bad_seat:
            print(_error("cardnet play", bad_seat), file=sys.stderr)
            return EXIT_USAGE
    if not args.plain and _full_screen_possible():
        if _thinking_player(args) is None:
            return EXIT_USAGE
        return _play_full_screen(args, game)
    if game is None and args.resume is None:
        game = DEFAULT_GAME
    from .net.local import LocalError

    player = _thinking_player(args)
    if player is None:
        return EXIT_USAGE
    options = _parse_options(args.option, game) if game is not None else {}
    # The line-mode game is the only local game this module provides; a full-screen client can take over
    # the non --plain case without changing the flags.
    try:
        return play_plain(
            game,
            players=args.players,
            seed=args.seed,
            options=options,
            bot=player,
            seat=args.seat,
            journal=args.journal,
            resume=args.resume,
        )
    except LocalError as e:
        print(f"cardnet play: {e}", file=sys.stderr)
        return EXIT_FAILURE


def _thinking_player(args: argparse.Namespace) -> str | None:
    """The built-in players' name for ``play``: ``--level`` or ``--bot``, with ``--think`` applied; None (after
    saying why) when ``--think`` does not fit it."""
    from .ai import with_think

    try:
        return with_think(args.level or args.bot, args.think)
    except BadOptions as exc:
        print(f"cardnet play: --think: {exc.reason}", file=sys.stderr)
        return None


def _full_screen_possible() -> bool:
    """The full-screen client needs a terminal on both ends; anything else gets line mode."""
    return sys.stdout.isatty() and sys.stdin.isatty() and os.environ.get("TERM") != "dumb"


def _play_full_screen(args: argparse.Namespace, game: str | None) -> int:
    from .ui.app import StartRequest, run_app
    from .ui.app.lobby import parse_address

    try:
        addresses = [parse_address(text) for text in args.connect or []]
    except ValueError as e:
        print(_error("cardnet play", f"--connect: {e}"), file=sys.stderr)
        return EXIT_USAGE
    start = StartRequest(
        ask_name=True,
        game=game,
        players=args.players,
        seed=args.seed,
        options=_parse_options(args.option, game) if game is not None else {},
        player=_thinking_player(args) or args.level or args.bot,
        seat=args.seat,
        journal=args.journal,
        resume=args.resume,
        connect=addresses,
        interfaces=list(args.interface or []),
        probe=not args.no_probe,
    )
    return run_app(start)


def _seat_problem(game: str, players: int | None, seat: int) -> str | None:
    """Why ``--seat`` cannot be taken in this game (None when it can)."""
    from .games import GAMES

    count = players if players is not None else GAMES[game].default_players
    if 0 <= seat < count:
        return None
    return _("argument --seat: a {count}-player game has seats 0 to {last}, not {seat}").format(
        count=count, last=count - 1, seat=seat
    )


def _new_game_flags(args: argparse.Namespace) -> list[tuple[str, object]]:
    """The flags that define a new game, with whether each was given (meaningless with --resume)."""
    return [
        ("GAME", args.game),
        ("--players", args.players),
        ("--level", args.level),
        ("--seed", args.seed is not None),
        ("--option", args.option),
        ("--seat", args.seat != 0),
        ("--think", args.think),
    ]


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.summary:
        sys.stdout.write(_summary(args.game))
        return EXIT_OK
    from .i18n import current_language
    from .rulebook import rules_text

    text = rules_text(args.game, current_language())
    if sys.stdout.isatty() and sys.stdin.isatty():
        import pydoc
        import shutil

        from .ui.markdown import as_overstrike, markdown_lines

        # In a terminal the rules are formatted and wrapped to its width; bold by overstriking, which less
        # shows. pydoc honours $PAGER and falls back to less or more, then to plain output.
        width = shutil.get_terminal_size((80, 24)).columns - 1
        pydoc.pager(as_overstrike(markdown_lines(text, width)))
    else:
        # Into a pipe or a file: the Markdown source, for a reader or another tool.
        sys.stdout.write(text)
    return EXIT_OK


def _summary(game: str) -> str:
    """The short form of ``cardnet rules``: what the game is, its player counts and options."""
    from .games import GAMES

    from .game_words import core_text
    from .i18n import ngettext

    info = GAMES[game]
    lines = [f"{info.title} ({info.name})", "", _wrap(core_text(info.summary)), ""]
    low, high = info.min_players, info.max_players
    if low == high:
        lines.append(_("Players: {count}").format(count=low))
    else:
        lines.append(
            _("Players: {low} to {high} (default {default})").format(low=low, high=high, default=info.default_players)
        )
    for count, note in info.house_rules_players.items():
        if note.startswith("house rules"):
            text = ngettext("{count} player: {note}", "{count} players: {note}", count)
        else:
            text = ngettext("{count} player: house rules: {note}", "{count} players: house rules: {note}", count)
        lines.append(_wrap(text.format(count=count, note=core_text(note)), indent="  "))
    if info.options:
        lines += ["", _("Options (--option KEY=VALUE):")]
        for spec in info.options:
            fields = {"name": spec.name, "values": spec.describe(), "default": _show(spec.default)}
            if spec.house_rules:
                lines.append("  " + _("{name} = {values}; default {default} [house rules]").format(**fields))
            else:
                lines.append("  " + _("{name} = {values}; default {default}").format(**fields))
            lines.append(_wrap(core_text(spec.doc), indent="      "))
    else:
        lines += ["", _("No options.")]
    lines += ["", _("The whole rules: cardnet rules {game}").format(game=game)]
    return "\n".join(lines) + "\n"


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _wrap(text: str, indent: str = "") -> str:
    import textwrap

    return textwrap.fill(text, width=78, initial_indent=indent, subsequent_indent=indent)


def _cmd_arena(args: argparse.Namespace) -> int:
    from .arena import run_arena

    from .ai import with_think

    # The think time is hard's: the other levels keep their counts, so the match still compares levels.
    seats = [with_think(s, args.think) if s == "hard" else s for s in args.seats]
    return run_arena(
        args.game,
        seats,
        args.games,
        jobs=args.jobs,
        seed=args.seed,
        options=_parse_options(args.option, args.game),
        as_json=args.json,
        sprt_elo=args.sprt,
        ray=args.ray is not None,
        ray_address=args.ray or None,
    )


def _elo_pair(text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        elo0, elo1 = (float(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected ELO0,ELO1 (two numbers), not '{text}'").format(text=text)
        ) from None
    if not elo0 < elo1:
        raise argparse.ArgumentTypeError(_("ELO0 must be below ELO1"))
    return elo0, elo1


def _game_names() -> list[str]:
    from .games import GAMES

    return list(GAMES)


def _arena_seats(text: str) -> list[str]:
    """``--seats``: built-in players or difficulty levels, comma-separated, checked here so a typo is a usage
    error. Levels keep their names (the table shows ``hard``); the core plays a level as exactly the player
    ``play --level`` gets, and the JSON lists those players under ``seats``."""
    from . import ai

    try:
        return [ai.check_player(part.strip()) for part in text.split(",")]
    except BadOptions as exc:
        raise argparse.ArgumentTypeError(exc.reason) from None


def _check_game(name: str) -> str:
    names = _game_names()
    if name not in names:
        raise argparse.ArgumentTypeError(
            _("unknown game '{name}' (games: {games})").format(name=name, games=", ".join(names) or _("none"))
        )
    return name


def seed_arg(text: str) -> int:
    """An argparse type for ``--seed``: the one seed check of :func:`cardnet.games.parse_seed`."""
    from .errors import BadOptions
    from .games import parse_seed

    try:
        return parse_seed(text)
    except BadOptions as exc:
        raise argparse.ArgumentTypeError(exc.reason) from None


def _level(text: str) -> str:
    if text not in LEVELS:
        raise argparse.ArgumentTypeError(
            _("invalid choice: '{value}' (choose from {choices})").format(value=text, choices=", ".join(LEVELS))
        )
    return text


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not an integer: '{text}'").format(text=text)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1"))
    return value


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (network subcommands included when their module exists)."""
    from .argparse_words import Parser

    parser = Parser(
        prog="cardnet",
        description=_("LAN party card games with no server. Without a command, opens the lobby (as cardnet play)."),
    )
    parser.add_argument("--version", action="store_true", help=_("print the version and build, then exit"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play", help=_("open the full-screen client (the lobby, or GAME at once); --plain for line mode")
    )
    play.add_argument(
        "game",
        nargs="?",
        type=_check_game,
        help=_("start this game at once (default: the lobby; line mode: matchstick)"),
    )
    play.add_argument("--players", type=_positive, help=_("number of seats (default: the game's usual count)"))
    play.add_argument(
        "--level",
        type=_level,
        help=_("difficulty of the built-in players: easy, normal or hard (default: none, --bot decides)"),
    )
    play.add_argument("--bot", default="normal", help=_("built-in player when no --level is given (default normal)"))
    play.add_argument(
        "--think",
        type=_positive,
        metavar="MS",
        help=_(
            "the built-in players (normal, hard, ismcts) think MS milliseconds per decision instead of their fixed"
            " count: stronger on a fast machine, no longer the same move for the same seed (default: the fixed count)"
        ),
    )
    play.add_argument("--seed", type=seed_arg, help=_("deal from this seed (default: random)"))
    play.add_argument("--seat", type=int, default=0, help=_("your seat (default 0)"))
    play.add_argument(
        "--player-name",
        type=player_name_arg,
        metavar="NAME",
        help=_(
            "your name at the table (default: CARDNET_NAME, the name the full-screen client remembers, or the login)"
        ),
    )
    play.add_argument(
        "--plain", action="store_true", help=_("line mode: no full screen, works in any terminal (default: off)")
    )
    play.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help=_("game option, repeatable (default: the game's own)")
    )
    play.add_argument(
        "--connect",
        action="append",
        metavar="HOST:PORT",
        help=_("list this table in the lobby, repeatable (default: only the tables LAN discovery finds)"),
    )
    play.add_argument(
        "--interface",
        action="append",
        metavar="IP",
        help=_("find and host LAN tables here, repeatable (default: this machine's LAN addresses)"),
    )
    play.add_argument(
        "--no-probe",
        action="store_true",
        help=_(
            "announce a LAN table hosted here at once (default: first check, ~1.3 s, that no other table on the"
            " LAN has the same name); only for a name you know is unique"
        ),
    )
    saved = play.add_mutually_exclusive_group()
    saved.add_argument(
        "--journal",
        type=Path,
        metavar="FILE",
        help=_("journal the game here (default: under the user's state directory)"),
    )
    saved.add_argument(
        "--resume", type=Path, metavar="JOURNAL", help=_("continue a local game from its journal (default: a new game)")
    )
    play.set_defaults(func=_cmd_play)

    rules = sub.add_parser("rules", help=_("show a game's rules in full (through a pager on a terminal)"))
    rules.add_argument("game", type=_check_game, help=_("the game whose rules to show"))
    rules.add_argument(
        "--summary", action="store_true", help=_("only what the game is, its players and options (default: off)")
    )
    rules.set_defaults(func=_cmd_rules)

    arena = sub.add_parser(
        "arena",
        help=_("pit built-in players against each other: rotated seats, intervals, Elo"),
        description=_(
            "Plays a match between built-in players. Each deal is played once per rotation of the seats (twice,"
            " swapped, for two players), so every player plays every seat equally. Reports win share and mean reward"
            " with 95% intervals, the Elo difference (two players) or a Bradley-Terry fit (more), and think time per"
            " move. Players: random, heuristic, careless:P, ismcts, ismcts:N, {levels}."
        ).format(levels=", ".join(LEVELS)),
    )
    arena.add_argument("game", type=_check_game, help=_("the game to play"))
    arena.add_argument(
        "--seats",
        type=_arena_seats,
        required=True,
        metavar="P1,P2,...",
        help=_(
            "the players, one per seat, comma-separated: easy, normal, hard, random, heuristic, careless:P, ismcts or"
            " ismcts:N"
            " (e.g. hard,easy; required)"
        ),
    )
    arena.add_argument(
        "--games",
        type=_positive,
        required=True,
        help=_(
            "games to play, rounded up to whole deals (a multiple of the player count); the most with --sprt (required)"
        ),
    )
    arena.add_argument(
        "--jobs",
        type=_positive,
        help=_("games played at once (default 1 thread; with --ray, one task per CPU of the cluster)"),
    )
    arena.add_argument(
        "--think",
        type=_positive,
        metavar="MS",
        help=_(
            "hard seats think MS milliseconds per decision instead of their fixed count (shown as hard@MS; the"
            " games are then no longer reproducible from the seed; default: the fixed count)"
        ),
    )
    arena.add_argument(
        "--seed", type=seed_arg, default=1, help=_("the match's seed; deal d is dealt from derive(seed, d) (default 1)")
    )
    arena.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help=_("game option (repeatable; default: the game's)")
    )
    arena.add_argument(
        "--sprt",
        type=_elo_pair,
        metavar="ELO0,ELO1",
        help=_(
            "two players: stop when the sequential test (pentanomial GSPRT, alpha=beta=0.05) decides between the"
            " first player being ELO0 and ELO1 Elo stronger (default: play every game)"
        ),
    )
    arena.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help=_(
            "run the games as Ray tasks on the cluster at ADDRESS (no ADDRESS: $RAY_ADDRESS, else a new local one);"
            " same results as a local run of the same seed (default: local threads; needs cardnet[cluster])"
        ),
    )
    arena.add_argument(
        "--json", action="store_true", help=_("print one JSON document and nothing else (default: a table)")
    )
    arena.set_defaults(func=_cmd_arena)

    # Another part of the project provides host, join, list, bot and replay; its module must stay cheap to
    # import (it imports trio and friends only when its commands run).
    if importlib.util.find_spec("cardnet.commands") is not None:
        for name in ("cardnet.commands.net", "cardnet.commands.discovery"):
            if importlib.util.find_spec(name) is not None:
                importlib.import_module(name).add_parsers(sub)
    # Every command takes --lang (main() reads it before parsing); listed here so each --help shows it.
    for command_parser in [parser, *sub.choices.values()]:
        command_parser.add_argument(
            "--lang",
            metavar="LANG",
            help=_(
                "speak this language: en, id, es or fi (default: $CARDNET_LANG, else the one kept from F2 in the"
                " full-screen client, else the locale, else en)"
            ),
        )
    return parser


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    for action in parser._actions:
        # The sub-commands' action is the one that takes a parser (argparse's PARSER), its choices their names.
        if action.nargs == argparse.PARSER and isinstance(action.choices, dict):
            return list(action.choices)
    return []


def _take_lang_option(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang L`` (or ``--lang=L``) taken out of ``argv`` wherever it stands, before the other options.

    The language must be known before the parser is built, so that its help texts can speak it, and
    ``--lang`` works in front of any command or behind it. A ``--lang`` with no value stays for the
    parser to refuse; nothing after ``--`` is looked at.
    """
    rest: list[str] = []
    lang: str | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        if arg.startswith("--lang="):
            lang = arg[len("--lang=") :]
        elif arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
            i += 1
        else:
            rest.append(arg)
        i += 1
    return lang, rest


def _set_language(option: str | None) -> str | None:
    """Speaks the language chosen by ``--lang``, ``CARDNET_LANG``, the settings kept in config.toml or the locale;
    the error text if none fits."""
    from .i18n import ENV_VAR, UnknownLanguage, choose_language, set_language
    from .identity import saved_language

    try:
        set_language(choose_language(option, saved=saved_language()))
    except UnknownLanguage as e:
        if option:
            return _("argument --lang: {reason}").format(reason=e.reason)
        return f"{ENV_VAR}: {e.reason}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit code.

    A closed standard input reads as an empty one (line mode then leaves as at the end of piped input), and
    output into a pipe that closes early (``cardnet replay J | head``) ends quietly with the shell's code for
    SIGPIPE, 141."""
    for name in ("stdin", "stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "r" if name == "stdin" else "w", encoding="utf-8"))
    try:
        code = _run(argv)
        sys.stdout.flush()
    except BaseException as exc:
        if not _only_broken_pipes(exc):
            raise
        # Nothing more can reach the reader; later writes (and the flush at exit) go nowhere instead of failing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_SIGNAL_BASE + signal.SIGPIPE
    return code


def _error(prog: str, message: str) -> str:
    """A usage or run-time error line as argparse writes its own (``cardnet: error: ...``), in the player's
    language: argparse's own message id, so both read alike."""
    return (_("%(prog)s: error: %(message)s\n") % {"prog": prog, "message": message}).rstrip("\n")


def _only_broken_pipes(exc: BaseException) -> bool:
    """Whether ``exc`` is a BrokenPipeError, or a group (from trio) made of nothing else."""
    if isinstance(exc, BaseExceptionGroup):
        return exc.split(BrokenPipeError)[1] is None
    return isinstance(exc, BrokenPipeError)


def _run(argv: Sequence[str] | None) -> int:
    lang, argv = _take_lang_option(list(sys.argv[1:] if argv is None else argv))
    if (lang_error := _set_language(lang)) is not None:
        print(_error("cardnet", lang_error), file=sys.stderr)
        return EXIT_USAGE
    parser = build_parser()
    commands = _commands(parser)
    # `cardnet`, `cardnet --plain` and `cardnet matchstick` all mean `cardnet play ...`.
    if argv and not argv[0].startswith("-") and argv[0] not in commands and argv[0] not in _game_names():
        word = argv[0]
        print(_error("cardnet", _("'{word}' is neither a command nor a game").format(word=word)), file=sys.stderr)
        print("  " + _("commands: {names}").format(names=", ".join(commands)), file=sys.stderr)
        print("  " + _("games: {names}").format(names=", ".join(_game_names())), file=sys.stderr)
        print(
            "  " + _("'cardnet --help' describes the commands, 'cardnet COMMAND --help' each one's options"),
            file=sys.stderr,
        )
        return EXIT_USAGE
    if not argv or (argv[0] not in commands and argv[0] not in ("-h", "--help", "--version")):
        argv.insert(0, "play")
    args = parser.parse_args(argv)
    if args.version:
        print(_version())
        return EXIT_OK
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_USAGE
    from .errors import BadOptions, CardnetError, UnknownGame

    try:
        return func(args)
    except (BadOptions, UnknownGame) as e:
        print(_error("cardnet", e.reason), file=sys.stderr)
        return EXIT_USAGE
    except CardnetError as e:
        # The reason is for people; the code stays in the JSON the protocol and the API carry.
        print(_error("cardnet", e.reason), file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_FAILURE
