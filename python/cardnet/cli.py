"""The ``cardnet`` command (also ``python -m cardnet``).

Only argparse and the standard library are imported up front; each subcommand imports what it needs when
it runs, so ``cardnet --help`` stays fast. Network subcommands come from ``cardnet.commands.net`` (host, join,
bot, replay) and ``cardnet.commands.discovery`` (list) when those modules are present.

Exit codes: 0 ok, 1 runtime failure, 2 usage error.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2

DEFAULT_GAME = "matchstick"


def _version() -> str:
    from . import __version__, build_info

    info = build_info()
    return f"cardnet {__version__} ({info['profile']} build, source {str(info['source_digest'])[:12]})"


def _parse_options(pairs: Sequence[str] | None, game: str) -> dict[str, Any]:
    """``KEY=VALUE`` strings typed against the game's option specs (the one ``--option`` parser)."""
    from .games import parse_options

    return parse_options(game, pairs)


def _cmd_play(args: argparse.Namespace) -> int:
    from .ui.plain import play_plain

    if args.resume is not None:
        given = [flag for flag, value in _new_game_flags(args) if value]
        if given:
            drop = ", ".join(given)
            print(f"cardnet play: --resume takes the game and its seats from the journal; drop {drop}", file=sys.stderr)
            return EXIT_USAGE
        game = None
    else:
        game = args.game
    if not args.plain and _full_screen_possible():
        return _play_full_screen(args, game)
    if game is None and args.resume is None:
        game = DEFAULT_GAME
    from .ui.local import LocalError

    options = _parse_options(args.option, game) if game is not None else {}
    # The line-mode game is the only local game this module provides; a full-screen client can take over
    # the non --plain case without changing the flags.
    try:
        return play_plain(
            game,
            players=args.players,
            seed=args.seed,
            options=options,
            level=args.level,
            bot=args.bot,
            seat=args.seat,
            journal=args.journal,
            resume=args.resume,
        )
    except LocalError as e:
        print(f"cardnet play: {e}", file=sys.stderr)
        return EXIT_FAILURE


def _full_screen_possible() -> bool:
    """The full-screen client needs a terminal on both ends; anything else gets line mode."""
    return sys.stdout.isatty() and sys.stdin.isatty() and os.environ.get("TERM") != "dumb"


def _play_full_screen(args: argparse.Namespace, game: str | None) -> int:
    from .ui.app import StartRequest, run_app
    from .ui.app.lobby import parse_address

    try:
        addresses = [parse_address(text) for text in args.connect or []]
    except ValueError as e:
        print(f"cardnet play: --connect: {e}", file=sys.stderr)
        return EXIT_USAGE
    start = StartRequest(
        game=game,
        players=args.players,
        seed=args.seed,
        options=_parse_options(args.option, game) if game is not None else {},
        player=args.level or args.bot,
        seat=args.seat,
        journal=args.journal,
        resume=args.resume,
        connect=addresses,
        interfaces=list(args.interface or []),
    )
    return run_app(start)


def _new_game_flags(args: argparse.Namespace) -> list[tuple[str, object]]:
    """The flags that define a new game, with whether each was given (meaningless with --resume)."""
    return [
        ("GAME", args.game),
        ("--players", args.players),
        ("--level", args.level),
        ("--seed", args.seed is not None),
        ("--option", args.option),
        ("--seat", args.seat != 0),
    ]


def _cmd_rules(args: argparse.Namespace) -> int:
    from .games import GAMES

    info = GAMES[args.game]
    out = sys.stdout
    out.write(f"{info.title} ({info.name})\n\n")
    out.write(_wrap(info.summary) + "\n\n")
    out.write(f"Players: {info.min_players}-{info.max_players} (default {info.default_players})\n")
    for count, note in info.house_rules_players.items():
        out.write(f"  {count} player(s): house rules - {note}\n")
    if info.options:
        out.write("\nOptions (--option KEY=VALUE):\n")
        for spec in info.options:
            house = " [house rules]" if spec.house_rules else ""
            out.write(f"  {spec.name} = {spec.describe()}; default {_show(spec.default)}{house}\n")
            out.write(_wrap(spec.doc, indent="      ") + "\n")
    else:
        out.write("\nNo options.\n")
    return EXIT_OK


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _wrap(text: str, indent: str = "") -> str:
    import textwrap

    return textwrap.fill(text, width=78, initial_indent=indent, subsequent_indent=indent)


def _cmd_arena(args: argparse.Namespace) -> int:
    from .arena import run_arena

    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    return run_arena(
        args.game,
        seats,
        games=args.games,
        jobs=args.jobs,
        seed=args.seed,
        options=_parse_options(args.option, args.game),
        as_json=args.json,
    )


def _game_names() -> list[str]:
    from .games import GAMES

    return list(GAMES)


def _check_game(name: str) -> str:
    names = _game_names()
    if name not in names:
        raise argparse.ArgumentTypeError(f"unknown game {name!r} (games: {', '.join(names) or 'none'})")
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
    from .ai import LEVELS

    if text not in LEVELS:
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(LEVELS)})")
    return text


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (network subcommands included when their module exists)."""
    parser = argparse.ArgumentParser(
        prog="cardnet",
        description="LAN party card games with no server. Without a command, plays a local game.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and build, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play", help="open the full-screen client (lobby, or GAME at once); --plain for line mode"
    )
    play.add_argument(
        "game", nargs="?", type=_check_game, help="start this game at once (line mode: default matchstick)"
    )
    play.add_argument("--players", type=_positive, help="number of seats (default: the game's)")
    play.add_argument("--level", type=_level, help="difficulty of the built-in players: easy, normal or hard")
    play.add_argument("--bot", default="random", help="built-in player when no --level is given (default random)")
    play.add_argument("--seed", type=seed_arg, help="deal from this seed (default: random)")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--plain", action="store_true", help="line mode: no full screen, works in any terminal")
    play.add_argument("--option", action="append", metavar="KEY=VALUE", help="game option (repeatable)")
    play.add_argument(
        "--connect", action="append", metavar="HOST:PORT", help="list this table in the lobby (repeatable)"
    )
    play.add_argument(
        "--interface",
        action="append",
        metavar="IP",
        help="where a LAN table made in the lobby listens (repeatable; default: this machine's LAN addresses)",
    )
    saved = play.add_mutually_exclusive_group()
    saved.add_argument(
        "--journal", type=Path, metavar="FILE", help="journal the game here (default: under the user's state directory)"
    )
    saved.add_argument("--resume", type=Path, metavar="JOURNAL", help="continue a local game from its journal")
    play.set_defaults(func=_cmd_play)

    rules = sub.add_parser("rules", help="print a game's summary and options")
    rules.add_argument("game", type=_check_game)
    rules.set_defaults(func=_cmd_rules)

    arena = sub.add_parser("arena", help="pit built-in players against each other (batch self-play)")
    arena.add_argument("game", type=_check_game)
    arena.add_argument("--seats", required=True, help="one player per seat, comma-separated (e.g. ismcts,random)")
    arena.add_argument("--games", type=_positive, required=True)
    arena.add_argument("--jobs", type=_positive, default=1, help="threads to spread the games over")
    arena.add_argument("--seed", type=seed_arg, default=1)
    arena.add_argument("--option", action="append", metavar="KEY=VALUE", help="game option (repeatable)")
    arena.add_argument("--json", action="store_true", help="print one JSON document and nothing else")
    arena.set_defaults(func=_cmd_arena)

    # Another part of the project provides host, join, list, bot and replay; its module must stay cheap to
    # import (it imports trio and friends only when its commands run).
    if importlib.util.find_spec("cardnet.commands") is not None:
        for name in ("cardnet.commands.net", "cardnet.commands.discovery"):
            if importlib.util.find_spec(name) is not None:
                importlib.import_module(name).add_parsers(sub)
    return parser


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    # `cardnet`, `cardnet --plain` and `cardnet matchstick` all mean `cardnet play ...`.
    if not argv or (argv[0] not in _commands(parser) and argv[0] not in ("-h", "--help", "--version")):
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
        print(f"cardnet: error: {e.reason}", file=sys.stderr)
        return EXIT_USAGE
    except CardnetError as e:
        print(f"cardnet: {e.code}: {e.reason}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_FAILURE
