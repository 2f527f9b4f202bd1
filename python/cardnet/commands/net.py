"""``cardnet host``, ``cardnet join``, ``cardnet bot`` and ``cardnet replay``.

The CLI calls :func:`add_parsers` with its subparsers; each subcommand's handler takes the parsed arguments and
returns the exit code (0 ok, 1 runtime failure, 2 usage error). trio and the host are imported only when a
subcommand runs, so ``cardnet --help`` stays fast.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from functools import partial
from pathlib import Path
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import trio

    from ..net.host import Host
    from ..net.peer import Peer, PeerError
    from ..table import Table
    from ..ui.line import PlainGame

from ..ai import with_think
from ..cli import player_name_arg, seed_arg
from ..i18n import gettext as _
from ..i18n import pgettext
from ..ui.render import command_word, fit_to_terminal
from .discovery import add_interface_argument, table_address


def add_parsers(subparsers: Any) -> None:
    """Register the network subcommands on an ``argparse`` subparsers object."""
    host = subparsers.add_parser("host", help=_("host a table others can join (you sit at seat 0 unless --headless)"))
    host.add_argument("game", nargs="?", help=_("game name (matchstick, fistful, cherki, ten); not with --resume"))
    host.add_argument("--players", type=int, help=_("number of seats (default: the game's default)"))
    host.add_argument("--bots", type=int, default=0, help=_("seats filled by built-in players"))
    host.add_argument(
        "--bot", default="normal", help=_("built-in player for --bots: random, heuristic, ismcts, easy, normal, hard")
    )
    host.add_argument(
        "--think",
        type=int,
        metavar="MS",
        help=_(
            "the --bot player (normal, hard or ismcts) thinks MS milliseconds per decision instead of its fixed"
            " count: stronger on a fast machine, no longer the same move for the same seed (default: the fixed count)"
        ),
    )
    host.add_argument("--name", default=None, help=_("the table's display name (default: \"PLAYER's GAME\")"))
    host.add_argument(
        "--player-name",
        type=player_name_arg,
        metavar="NAME",
        help=_("your name at seat 0 (default: CARDNET_NAME, the remembered name, or login)"),
    )
    host.add_argument("--port", type=int, default=0, help=_("TCP port (default: any free port)"))
    web = host.add_mutually_exclusive_group()
    web.add_argument(
        "--web-port",
        type=int,
        metavar="PORT",
        help=_(
            "port of the web seat, where guests play in a browser (default: the table's port + 1 if free, else any)"
        ),
    )
    web.add_argument("--no-web", action="store_true", help=_("serve no web seat (browsers cannot join)"))
    add_interface_argument(
        host,
        _(
            "IPv4 address of an interface to listen and announce the table on (repeatable; default: every"
            " non-loopback IPv4 interface that is up; required when CI or CARDNET_TEST is set)"
        ),
    )
    host.add_argument("--no-advertise", action="store_true", help=_("do not announce the table on the LAN"))
    host.add_argument(
        "--no-probe",
        action="store_true",
        help=_(
            "announce at once (default: first check, ~1.3 s, that no other table on the LAN has the same name);"
            " only for a name you know is unique"
        ),
    )
    host.add_argument("--password-file", type=Path, help=_("file holding the table password"))
    group = host.add_mutually_exclusive_group()
    group.add_argument("--journal", type=Path, help=_("journal file (default: under the user's state directory)"))
    group.add_argument("--resume", type=Path, metavar="JOURNAL", help=_("continue the table recorded in JOURNAL"))
    host.add_argument(
        "--fsync", action="store_true", help=_("fsync the journal before acknowledging (group-committed)")
    )
    host.add_argument(
        "--no-native-lane",
        action="store_true",
        help=_("serve every move through Python (the native lane sends the same bytes; this is for comparing)"),
    )
    host.add_argument("--seed", type=seed_arg, help=_("deal seed (marks the table 'seeded')"))
    host.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help=_("game option (repeatable)"))
    host.add_argument(
        "--turn-timer", type=float, metavar="SECONDS", help=_("a built-in player moves when a turn runs out")
    )
    host.add_argument(
        "--seat-timeout",
        type=float,
        default=15.0,
        metavar="SECONDS",
        help=_("how long a gone player's seat waits before a built-in player takes over"),
    )
    host.add_argument(
        "--bot-delay", type=float, default=0.0, metavar="SECONDS", help=_("pause before each built-in move")
    )
    host.add_argument(
        "--keepalive",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help=_(
            "how often the host pings every peer (default 10); peers that hear nothing for three of these"
            " intervals take the host for hung and reconnect"
        ),
    )
    host.add_argument(
        "--max-spectators", type=int, default=32, metavar="N", help=_("spectators the table admits (default 32)")
    )
    host.add_argument(
        "--games", type=int, default=0, help=_("stop after this many finished games (0: run until stopped)")
    )
    host.add_argument(
        "--headless", action="store_true", help=_("do not sit at the table: print the address, log and serve")
    )
    host.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        help=_(
            "what the host logs on stderr (default: info when headless, else warning); debug also says which"
            " path serves the moves and why, whenever that changes"
        ),
    )
    host.set_defaults(func=cmd_host)

    join = subparsers.add_parser("join", help=_("join a table (line mode)"))
    join.add_argument("target", help=_("a table's name (or a unique prefix) on the LAN, or HOST:PORT"))
    join.add_argument("--spectate", action="store_true", help=_("watch instead of taking a seat"))
    join.add_argument(
        "--player-name",
        "--name",
        dest="name",
        type=player_name_arg,
        metavar="NAME",
        help=_("your name at the table (default: CARDNET_NAME, the name the full-screen client remembers, or login)"),
    )
    add_interface_argument(join, _look_for_table_help())
    join.add_argument("--password-file", type=Path, help=_("file holding the table password"))
    join.add_argument("--token", help=_("seat token from an earlier session (resumes that seat)"))
    join.add_argument(
        "--reconnect-for",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help=_("how long to keep trying to reconnect when the host goes away (default: 30)"),
    )
    join.set_defaults(func=cmd_join)

    bot = subparsers.add_parser("bot", help=_("play a bot at a table"))
    bot.add_argument(
        "bot",
        help=_("builtin:PLAYER (random, first, heuristic, ismcts[:N], easy, normal, hard) | FILE.py | module:Class"),
    )
    bot.add_argument("target", help=_("a table's name (or a unique prefix) on the LAN, or HOST:PORT"))
    bot.add_argument(
        "--player-name",
        "--name",
        dest="name",
        type=player_name_arg,
        metavar="NAME",
        help=_("the bot's name at the table (default: from the bot, e.g. 'hard')"),
    )
    bot.add_argument("--games", type=int, default=1, help=_("games to play (rematches in between)"))
    bot.add_argument(
        "--think",
        type=int,
        metavar="MS",
        help=_(
            "a built-in search bot (builtin:normal, builtin:hard, builtin:ismcts) thinks MS milliseconds per"
            " decision instead of its fixed count (default: the fixed count)"
        ),
    )
    add_interface_argument(bot, _look_for_table_help())
    bot.add_argument("--password-file", type=Path, help=_("file holding the table password"))
    bot.add_argument(
        "--json",
        action="store_true",
        help=_("for machines: one JSON line per finished game (game_no, seat, outcome) instead of sentences"),
    )
    bot.set_defaults(func=cmd_bot)

    replay = subparsers.add_parser("replay", help=_("check and print a host journal"))
    replay.add_argument("journal", type=Path, help=_("the host's journal file"))
    replay.add_argument("--json", action="store_true", help=_("print one JSON document"))
    replay.set_defaults(func=cmd_replay)


def _look_for_table_help() -> str:
    return _(
        "IPv4 address of an interface to look for the table on (repeatable; default: every non-loopback IPv4"
        " interface that is up; required when CI or CARDNET_TEST is set)"
    )


class UsageError(Exception):
    """Bad command-line input (exit code 2)."""


def read_password(path: Path | None) -> str | None:
    """The password from a file, else from ``CARDNET_PASSWORD``; None when neither is set."""
    if path is not None:
        try:
            return path.read_text(encoding="utf-8").rstrip("\r\n")
        except OSError as exc:
            raise UsageError(
                _("cannot read password file {path}: {reason}").format(path=path, reason=exc.strerror)
            ) from None
    return os.environ.get("CARDNET_PASSWORD") or None


def _peer_error(exc: BaseException) -> BaseException:
    """The PeerError inside what trio raised (nurseries wrap errors in groups); re-raise anything else."""
    from ..net.peer import PeerError

    if isinstance(exc, PeerError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        found, _rest = exc.split(PeerError)
        if found is not None:
            first: BaseException = found
            while isinstance(first, BaseExceptionGroup):
                first = first.exceptions[0]
            return first
    raise exc


def _run(func: Any, args: argparse.Namespace) -> int:
    try:
        return int(func(args))
    except UsageError as exc:
        print(f"cardnet {args.command if hasattr(args, 'command') else ''}: {exc}".replace("  ", " "), file=sys.stderr)
        return 2


# -- host ---------------------------------------------------------------------------------------------------------


def cmd_host(args: argparse.Namespace) -> int:
    """Run a table: the host plays seat 0 in this terminal until the game ends or it leaves; with
    ``--headless``, serve until stopped (SIGINT/SIGTERM) or ``--games`` games have finished."""
    return _run(_host, args)


def _host(args: argparse.Namespace) -> int:
    import trio

    from ..errors import CardnetError
    from ..games import parse_options
    from ..journal import Journal, JournalError
    from ..net.discovery import InterfaceError, advertise_table, choose_interfaces
    from ..net.factory import create_table, listen_record, rename_table, resume_table, table_config
    from ..identity import default_name
    from ..net.host import Host, HostOptions, JournalFailure
    from ..web.server import start_web_seat

    out, stdin = sys.stdout, sys.stdin
    if not args.keepalive > 0:
        raise UsageError(_("--keepalive must be more than 0 seconds"))
    if args.web_port is not None and not 0 < args.web_port < 65536:
        raise UsageError(_("--web-port must be a TCP port, 1 to 65535"))
    try:
        interfaces = choose_interfaces(args.interface)
    except InterfaceError as exc:
        raise UsageError(str(exc)) from None
    import logging

    # A seated host plays in this terminal: only warnings may interrupt the game there.
    level = logging.INFO if args.headless else logging.WARNING
    if args.log_level is not None:
        level = getattr(logging, args.log_level.upper())
    logging.basicConfig(level=level, stream=sys.stderr, format="%(asctime)s %(name)s: %(message)s")
    password = read_password(args.password_file)

    def build() -> tuple[Table, Journal, int | None, int | None]:
        """The table, its journal, and the ports it and its web seat listened on before (for ``--resume``)."""
        if args.resume is not None:
            resumed = resume_table(args.resume, fsync=args.fsync)
            if resumed.torn is not None:
                print(_("warning: {problem}").format(problem=resumed.torn.describe()), file=sys.stderr)
            return resumed.table, resumed.journal, resumed.port, resumed.web_port
        import cardnet

        if args.game is None:
            raise UsageError(_("name the game to host (or --resume a journal)"))
        info = cardnet.GAMES.get(args.game)
        if info is None:
            raise UsageError(
                _("unknown game '{name}'; choose from {games}").format(
                    name=args.game, games=", ".join(sorted(cardnet.GAMES))
                )
            )
        players = args.players if args.players is not None else int(info.default_players)
        if not 0 <= args.bots <= players:
            raise UsageError(_("--bots must be between 0 and {players}").format(players=players))
        if args.bots == players and not args.headless:
            raise UsageError(_("--bots fills every seat, leaving none for you: add --headless to only serve"))
        try:
            options = parse_options(args.game, args.option)
            bot = with_think(args.bot, args.think)
        except CardnetError as exc:
            raise UsageError(exc.reason) from None
        config = table_config(
            args.game,
            players=players,
            seed=args.seed,
            options=options,
            bots={seat: bot for seat in range(players - args.bots, players)},
            name=args.name or _("{player}'s {game}").format(player=args.player_name or default_name(), game=args.game),
            turn_timer=args.turn_timer,
        )
        try:
            return (*create_table(config, journal=args.journal, fsync=args.fsync), None, None)
        except JournalError:
            raise
        except ValueError as exc:
            raise UsageError(str(exc)) from None

    async def main() -> int:
        try:
            table, journal, last_port, last_web_port = build()
        except (JournalError, ValueError) as exc:
            if isinstance(exc, UsageError):
                raise
            print(f"cardnet host: {exc}", file=sys.stderr)
            return 1
        own_token: str | None = None
        if not args.headless:
            from ..net.local import own_seat_token

            if table.seats[0].kind == "bot":
                journal.close()
                print(
                    _("cardnet host: seat 0 is a built-in player's; continue this table with --headless"),
                    file=sys.stderr,
                )
                return 1
            # The host's seat is taken before the table listens: a guest quicker than the host's own peer
            # would otherwise be given seat 0.
            own_token = own_seat_token(table, journal, 0, args.player_name)
        # Room for every spectator besides the seats and a few connections still in their handshake.
        connections = max(HostOptions.max_connections, args.max_spectators + table.config.players + 8)
        options = HostOptions(
            password=password,
            seat_timeout=args.seat_timeout,
            bot_delay=args.bot_delay,
            keepalive_interval=args.keepalive,
            # Peers answer pings; silence from a peer for three of them is what ends its connection.
            idle_timeout=max(HostOptions.idle_timeout, 3 * args.keepalive),
            max_spectators=args.max_spectators,
            max_connections=connections,
            native_lane=not args.no_native_lane,
        )
        server = Host(table, journal=journal, options=options)
        try:
            with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async with trio.open_nursery() as nursery:
                    moved_from: int | None = None
                    try:
                        port = await nursery.start(server.serve, interfaces, args.port or last_port or 0)
                    except OSError as exc:
                        if args.port or not last_port:
                            print(
                                _("cardnet host: cannot listen: {reason}").format(reason=exc.strerror), file=sys.stderr
                            )
                            return 1
                        # The old port is taken: players find the table again by its id on the LAN.
                        moved_from = last_port
                        try:
                            port = await nursery.start(server.serve, interfaces, 0)
                        except OSError as again:
                            print(
                                _("cardnet host: cannot listen: {reason}").format(reason=again.strerror),
                                file=sys.stderr,
                            )
                            return 1
                    web_port: int | None = None
                    if not args.no_web:
                        try:
                            web_port = await start_web_seat(
                                nursery, server, interfaces, port, args.web_port, previous=last_web_port
                            )
                        except OSError as exc:
                            print(
                                _("cardnet host: cannot serve the web seat: {error}").format(error=exc.strerror),
                                file=sys.stderr,
                            )
                            # The table already listens: stop it, or the nursery would wait for it forever.
                            nursery.cancel_scope.cancel()
                            return 1
                    if (port, web_port) != (last_port, last_web_port):
                        journal.append(listen_record(port, interfaces, web_port))
                    cfg = table.config
                    taken = sum(s.kind != "open" for s in table.seats)
                    for line in fitted(
                        _banner(cfg.name, cfg.game, taken, cfg.players, cfg.seeded, bool(password)), out
                    ):
                        print(line, file=out)
                    for address in interfaces:
                        print(_("listening on {address}:{port}").format(address=address, port=port), file=out)
                    if moved_from is not None:
                        moved = _(
                            "port {old} is in use, so the table moved to port {port}; players on the LAN find it"
                            " again by its table id"
                        ).format(old=moved_from, port=port)
                        print("\n".join(fitted(moved, out)), file=out)
                    print(
                        _("join with: cardnet join {address}:{port}   (spectate: add --spectate)").format(
                            address=interfaces[0], port=port
                        ),
                        file=out,
                    )
                    if web_port is not None:
                        for line in web_seat_banner(interfaces[0], web_port):
                            print("\n".join(fitted(line, out)), file=out)
                    print(_("journal: {path}").format(path=journal.path), file=out)
                    out.flush()

                    async def announce(*, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
                        before = table.config.name
                        advertising = partial(
                            advertise_table,
                            lambda: server.session.table_info(""),
                            port,
                            interfaces=interfaces,
                            probe=not args.no_probe,
                            renamed=partial(rename_table, table, journal),
                        )
                        try:
                            async with trio.open_nursery() as inner:
                                await inner.start(advertising)
                                name = table.config.name
                                if name != before:
                                    renamed = _("another table on the LAN is called {old!r}: this one is {new!r}")
                                    print(renamed.format(old=before, new=name), file=out)
                                if args.headless:
                                    line = _("announced on the LAN: cardnet join {name!r}")
                                else:
                                    line = _("on the LAN: cardnet list, then cardnet join {name!r}")
                                print(line.format(name=name), file=out, flush=True)
                                task_status.started()
                        except Exception as exc:
                            # The table plays on without discovery: HOST:PORT still works.
                            print(
                                _("cardnet host: cannot announce the table on the LAN: {error!r}").format(error=exc),
                                file=sys.stderr,
                            )
                            task_status.started()

                    if not args.no_advertise:
                        # Waited for (name probing takes ~1.3 s) so the name printed is the one the LAN shows and
                        # nothing prints into a seated host's prompt later.
                        await nursery.start(announce)

                    continue_with = resume_command(journal.path, args)
                    if own_token is not None:
                        code = await play_at_own_table(
                            server, own_token, continue_with, stdin, out, password=password, name=args.player_name
                        )
                        await server.shutdown()
                        nursery.cancel_scope.cancel()
                        return code

                    async def stop_on_signal() -> None:
                        async for _signal in signals:
                            print(
                                _("Table closed; continue it with: {command}").format(command=continue_with),
                                file=out,
                                flush=True,
                            )
                            await server.shutdown()
                            nursery.cancel_scope.cancel()
                            return

                    async def stop_after_games() -> None:
                        while server.finished_games < args.games:
                            await server.game_over.wait()
                        # Give peers a moment to receive the final state before the sockets close.
                        await trio.sleep(0.5)
                        await server.shutdown()
                        nursery.cancel_scope.cancel()

                    nursery.start_soon(stop_on_signal)
                    if args.games > 0:
                        nursery.start_soon(stop_after_games)
        finally:
            journal.close()
        return 0

    try:
        return trio.run(main)
    except BaseExceptionGroup as group:
        failure, _rest = group.split(JournalFailure)
        if failure is None:
            raise
        print(_("cardnet host: {error}; stopping").format(error=failure.exceptions[0]), file=sys.stderr)
        return 1
    except JournalFailure as exc:
        print(_("cardnet host: {error}; stopping").format(error=exc), file=sys.stderr)
        return 1


def web_seat_banner(address: str, port: int) -> list[str]:
    """What the host prints about its web seat: the address a guest's browser opens, and its QR code."""
    from ..web.qr import qr_lines, web_url

    url = web_url(address, port)
    return [_("guests without cardnet: open {url} in a browser, or scan:").format(url=url), *qr_lines(url)]


def fitted(line: str, out: TextIO) -> list[str]:
    """``line`` fitted to the terminal ``out`` is (``fit_to_terminal``): a terminal would cut a longer language's
    line anywhere. Into a pipe or a file, as it is."""
    isatty = getattr(out, "isatty", None)
    if isatty is None or not isatty():
        return [line]
    return fit_to_terminal(line)


def _banner(name: str, game: str, taken: int, players: int, seeded: bool, password: bool) -> str:
    """The host's first line: the table, its game, its seats, and whether it is seeded or needs a password."""
    from .. import protocol as P

    fields = {"name": name, "game": game, "taken": taken, "players": players, "protocol": P.PROTOCOL_VERSION}
    if seeded and password:
        text = _(
            "cardnet host: table {name!r} ({game}, {taken}/{players} seats taken, protocol {protocol}, seeded, password)"
        )
    elif seeded:
        text = _("cardnet host: table {name!r} ({game}, {taken}/{players} seats taken, protocol {protocol}, seeded)")
    elif password:
        text = _("cardnet host: table {name!r} ({game}, {taken}/{players} seats taken, protocol {protocol}, password)")
    else:
        text = _("cardnet host: table {name!r} ({game}, {taken}/{players} seats taken, protocol {protocol})")
    return text.format(**fields)


def _others_seated(table: Table) -> str | None:
    """What leaving one's own table does to the players seated there, if any are."""
    here = [
        s.name or _("seat {seat}").format(seat=s.index)
        for s in table.seats
        if s.index != 0 and s.kind == "human" and s.connected
    ]
    if not here:
        return None
    return _("Leaving closes the table for {names}.").format(names=", ".join(here))


def resume_command(journal: Path, args: argparse.Namespace) -> str:
    """The whole command that continues this table: the journal keeps its game, seats, name, id and port; the
    interfaces, password and seating are the host's own choices and are repeated."""
    parts = ["cardnet", "host", "--resume", _quoted(str(journal))]
    for address in args.interface:
        parts += ["--interface", address]
    if args.password_file is not None:
        parts += ["--password-file", _quoted(str(args.password_file))]
    if args.port:
        parts += ["--port", str(args.port)]
    if args.no_web:
        parts.append("--no-web")
    elif args.web_port:
        parts += ["--web-port", str(args.web_port)]
    if args.headless:
        parts.append("--headless")
    return " ".join(parts)


def _quoted(text: str) -> str:
    import shlex

    return shlex.quote(text)


async def play_at_own_table(
    server: Host,
    token: str,
    again: str,
    stdin: TextIO,
    out: TextIO,
    *,
    password: str | None = None,
    name: str | None = None,
) -> int:
    """The host's own seat (0, held by ``token``: ``own_seat_token``), played in this terminal through an
    in-process peer like local play (answering the table's password with ``password``); returns the exit code
    once the game is over or the host leaves (which closes the table, printing ``again``, the command that
    continues it)."""
    import trio

    from ..ui.line import PlainGame
    from ..net.local import local_peer, player_name

    table = server.table
    peer = local_peer(server, name or player_name(), seat=None, token=token, password=password)
    async with trio.open_nursery() as nursery:
        await nursery.start(peer.run)
        cfg = table.config
        ui = PlainGame(
            peer,
            cfg.game,
            0,
            cfg.players,
            stdin,
            out,
            solo=False,
            leave_lines=[_("Table closed; continue it with: {command}").format(command=again)],
            seats=peer.state.table_info.seats,
            leave_warning=partial(_others_seated, table),
        )
        if table.started:
            ui.say(_("You sit at seat 0. Type '{help}' for commands.").format(help=command_word("help")))
        else:
            ui.say(
                _("You sit at seat 0; the game starts when every seat is taken. Type '{help}' for commands.").format(
                    help=command_word("help")
                )
            )
        code = await ui.run()
        nursery.cancel_scope.cancel()
    return code


# -- join ---------------------------------------------------------------------------------------------------------


def cmd_join(args: argparse.Namespace) -> int:
    """Join a table in line mode: the game drawn as in local play, moves typed by number or as text."""
    return _run(_join, args)


def _join(args: argparse.Namespace) -> int:
    import trio

    from ..identity import default_name
    from ..net.peer import Peer, PeerError
    from ..net.seats import SeatStore

    out, stdin = sys.stdout, sys.stdin
    address = table_address("join", args.target, args.interface)
    if isinstance(address, int):
        return address
    host, port = address
    seats = SeatStore()
    name = args.name or default_name()
    locate = table_locator(args.interface)

    def make_peer(password: str | None) -> Peer:
        return Peer(
            host,
            port,
            name=name,
            spectate=args.spectate,
            password=password,
            token=args.token,
            give_up_after=args.reconnect_for,
            # A person is told at once that the host closed the table; reconnecting is for a host that was lost.
            wait_for_restart=False,
            seats=seats,
            locate=locate,
        )

    async def main() -> int:
        async with trio.open_nursery() as nursery:
            try:
                peer = await start_peer(
                    nursery, make_peer, read_password(args.password_file), ask_password if stdin.isatty() else None
                )
            except PeerError as exc:
                shown = explain_refusal(exc, args.target, spectating=args.spectate)
                print(f"cardnet join: {shown}", file=sys.stderr)
                return 1
            ui = seat_ui(peer, stdin, out, rejoin=f"cardnet join {_quoted(args.target)}")
            info = peer.state.table_info
            if args.spectate:
                ui.say(_("Joined {name!r} ({game}), spectating.").format(name=info.name, game=info.game))
            else:
                ui.say(
                    _("Joined {name!r} ({game}), seat {seat}.").format(
                        name=info.name, game=info.game, seat=peer.state.seat
                    )
                )
            if peer.state.token:
                if peer.session.token_from_store:
                    ui.say(_("Your seat, taken back: its token was kept for this table."))
                ui.say(_("Seat token (rejoin with --token): {token}").format(token=peer.state.token))
            if args.spectate:
                ui.say(
                    _("You are watching; '{say} TEXT' chats, '{help}' lists the commands.").format(
                        say=command_word("say"), help=command_word("help")
                    )
                )
            else:
                ui.say(
                    _("Type a number or a move when asked; '{help}' for commands, '{say} TEXT' to chat.").format(
                        help=command_word("help"), say=command_word("say")
                    )
                )
            code = await ui.run()
            if peer.failure is None and not peer.session.closed_by_host:
                # Leaving on purpose: the host hands the seat to a built-in player at once (the kept token still
                # takes the seat back with 'cardnet join' on this machine, as the leaving line says).
                with trio.move_on_after(2):
                    try:
                        await peer.bye()
                    except (PeerError, OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                        pass
            nursery.cancel_scope.cancel()
        return code

    try:
        return trio.run(main)
    except (PeerError, BaseExceptionGroup, KeyboardInterrupt) as exc:
        if _interrupted(exc):
            print("\n" + _("Bye."), file=out)
            return 0
        error = _peer_error(exc)
        if isinstance(error, PeerError):
            print(f"cardnet join: {explain_refusal(error, args.target, spectating=args.spectate)}", file=sys.stderr)
        else:
            print(f"cardnet join: {error}", file=sys.stderr)
        return 1


#: How long a client looks for its table on the LAN, by id, after its last address stopped answering.
LOCATE_TIMEOUT = 3.0


def table_locator(given: Sequence[str]) -> Callable[[str], Awaitable[tuple[str, int] | None]] | None:
    """How a peer finds its table again by id over mDNS (on the ``--interface`` addresses, or the machine's LAN
    addresses); None when no interface may be used (under test without ``--interface``)."""
    from ..net.discovery import DiscoveryError, InterfaceError, choose_interfaces, locate_table

    try:
        chosen = choose_interfaces(given)
    except InterfaceError:
        return None

    async def locate(table_id: str) -> tuple[str, int] | None:
        try:
            found = await locate_table(table_id, chosen, LOCATE_TIMEOUT)
        except (DiscoveryError, OSError):
            return None
        return None if found is None else (found.host, found.port)

    return locate


def _ask_if_needed(host: str, port: int) -> str | None:
    """The password typed on the terminal when the table at ``host:port`` says it needs one, else None."""
    import trio

    from ..net.discovery import probe_table

    summary = trio.run(probe_table, host, port)
    return ask_password(summary.name) if summary is not None and summary.password else None


def ask_password(table: str) -> str | None:
    """The table's password, typed on the terminal without echo; None when nothing was typed."""
    import getpass

    try:
        typed = getpass.getpass(_("The table {name!r} needs a password: ").format(name=table))
    except EOFError:
        return None
    return typed or None


async def start_peer(
    nursery: trio.Nursery,
    make: Callable[[str | None], Peer],
    password: str | None,
    ask: Callable[[str], str | None] | None,
) -> Peer:
    """A peer made by ``make(password)``, connected and running in ``nursery``.

    A kept seat token the table no longer knows is forgotten and the join tried again as a newcomer; a table
    that needs a password nobody gave asks for it with ``ask`` (a terminal prompt), when given, up to three
    times. Raises :class:`~cardnet.net.peer.PeerError` for any other refusal.
    """
    from ..net.peer import PeerError

    asked = 0
    while True:
        peer = make(password)
        try:
            await nursery.start(run_peer, peer)
            return peer
        except (PeerError, BaseExceptionGroup) as raised:
            exc = _peer_error(raised)
            assert isinstance(exc, PeerError)
            if exc.code == "bad_token" and peer.session.token_from_store:
                peer.forget_seat()
                continue
            info = peer.state.info
            if exc.code == "auth_failed" and ask is not None and asked < 3 and info is not None:
                asked += 1
                typed = ask(info.name)
                if typed is not None:
                    password = typed
                    continue
            raise exc from None


#: The host's refusals a joining player meets, in the words the web page shows for them: the page's catalog
#: entries (context "web", from words.js's ERRORS) are looked up as they are, so both say the same; other codes
#: show the host's own reason. The code follows in brackets for bot authors and scripts.
HOST_REFUSALS = {
    "auth_failed": "That password is not this table's.",
    "table_full": "Every seat is taken.",
    "no_seat": "That seat is not open.",
    "bad_token": "Your seat token is not valid at this table.",
    "replaced": "Your seat was taken over by a newer connection.",
    "shutting_down": "The host is stopping.",
    "unsupported_version": "This host speaks another version of the protocol.",
}


def explain_refusal(exc: PeerError, target: str, *, spectating: bool = False) -> str:
    """A refusal in the player's language, with what the user can do about it (a spectator refused for room is
    told nothing more)."""
    from ..protocol.peer import NEEDS_PASSWORD

    if exc.code == "auth_failed" and exc.reason == NEEDS_PASSWORD:
        message = pgettext("web", "This table needs its password.")
    else:
        message = pgettext("web", HOST_REFUSALS[exc.code]) if exc.code in HOST_REFUSALS else exc.reason
    reason = f"{message.rstrip('.')} ({exc.code})"
    if exc.code == "auth_failed":
        return _("{reason}; give the password with --password-file FILE or CARDNET_PASSWORD").format(reason=reason)
    if exc.code == "table_full" and not spectating:
        return _(
            "{reason}. If you sat here before, 'cardnet join {target}' on your own machine takes the seat back"
            " (or add --token TOKEN); to watch: cardnet join {target} --spectate"
        ).format(reason=reason, target=target)
    return reason


async def run_peer(peer: Peer, *, task_status: trio.TaskStatus[None] | None = None) -> None:
    """Runs ``peer`` (a :class:`~cardnet.net.peer.Peer`); once it has connected, its final error is not raised
    but left in ``peer.failure`` for the user interface to report (the host gone after the reconnect attempts)."""
    import trio

    from ..net.peer import PeerError

    try:
        await peer.run(task_status=task_status or trio.TASK_STATUS_IGNORED)
    except PeerError:
        if peer.state.connects == 0:
            raise


def seat_ui(peer: Peer, stdin: TextIO, out: TextIO, *, rejoin: str) -> PlainGame:
    """The line-mode UI (:class:`~cardnet.ui.line.PlainGame`) of a connected peer at a shared table."""
    from ..ui.line import PlainGame

    info = peer.state.table_info
    leave = [_("Left the table.")]
    if peer.state.token and peer.state.seat is not None:
        leave = [
            _("Left the table; rejoin seat {seat} with: {command} --token={token}").format(
                seat=peer.state.seat, command=rejoin, token=peer.state.token
            )
        ]
    return PlainGame(
        peer,
        info.game,
        peer.state.seat,
        info.players,
        stdin,
        out,
        solo=False,
        leave_lines=leave,
        seats=info.seats,
    )


def _interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C (trio may deliver it wrapped in exception groups)."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    if isinstance(exc, BaseExceptionGroup):
        found, _rest = exc.split(KeyboardInterrupt)
        return found is not None
    return False


# -- bot ----------------------------------------------------------------------------------------------------------


def cmd_bot(args: argparse.Namespace) -> int:
    """Play ``--games`` games with a bot; prints a line per finished game and a summary (``--json``: one JSON
    line per finished game)."""
    return _run(_bot, args)


def _bot(args: argparse.Namespace) -> int:
    import trio

    from ..bot import BotResult, load_bot, run_bot
    from ..net.peer import Peer, PeerError
    from ..protocol import canonical

    out = sys.stdout
    from .bot_report import ReportingBot

    try:
        bot = load_bot(args.bot, think_ms=args.think)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    reporter = None if args.json else ReportingBot(bot, out)
    address = table_address("bot", args.target, args.interface)
    if isinstance(address, int):
        return address
    host, port = address
    password = read_password(args.password_file)
    if password is None and sys.stdin.isatty():
        password = _ask_if_needed(host, port)
    name = args.name or args.bot.rsplit(":", 1)[-1].removesuffix(".py")[:32]

    async def main() -> BotResult | None:
        """The bot's session; None when Ctrl-C or SIGTERM stopped it."""
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:

                async def stop_on_signal() -> None:
                    async for _signal in signals:
                        nursery.cancel_scope.cancel()
                        return

                nursery.start_soon(stop_on_signal)
                player = bot if reporter is None else reporter
                # A restarted host that moved is found again by its table id.
                peer = Peer(host, port, name=name, password=password, locate=table_locator(args.interface))
                found = await run_bot(player, host, port, games=args.games, peer=peer)
                nursery.cancel_scope.cancel()
                return found
        return None

    try:
        result = trio.run(main)
    except (PeerError, BaseExceptionGroup, KeyboardInterrupt) as exc:
        if _interrupted(exc):
            result = None
        else:
            error = _peer_error(exc)
            shown = explain_refusal(error, args.target) if isinstance(error, PeerError) else str(error)
            print(f"cardnet bot: {shown}", file=sys.stderr)
            return 1
    if result is None:
        print(_("cardnet bot: stopped; the host hands the seat to a built-in player"), file=sys.stderr)
        return 0
    if reporter is not None:
        print(reporter.summary(name, result.moves), file=out)
        return 0
    for state in result.final_states:
        print(canonical({"game_no": state.game_no, "seat": result.seat, "outcome": state.outcome}), file=out)
    return 0


# -- replay -------------------------------------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    """Verify a journal against the core and print its records."""
    return _run(_replay, args)


def _replay(args: argparse.Namespace) -> int:
    from ..journal import JournalError, read_journal
    from ..protocol import canonical
    from ..table import Table, core_engine, outcome_value

    out = sys.stdout
    try:
        contents = read_journal(args.journal)
    except JournalError as exc:
        print(f"cardnet replay: {exc}", file=sys.stderr)
        return 1
    if contents.torn is not None:
        print(f"warning: {contents.torn.describe()}", file=sys.stderr)
    try:
        table = Table.from_records(contents.records, core_engine(), clock=lambda: 0.0)
    except (ValueError, KeyError) as exc:
        print(f"cardnet replay: {exc}", file=sys.stderr)
        return 1
    game = table.game
    summary = {
        "table": contents.records[0],
        "records": len(contents.records),
        "moves": sum(1 for r in contents.records if r.get("kind") == "move"),
        "game_no": table.game_no,
        "state_id": table.state_id,
        "hash": game.state_hash(),
        "over": game.is_over(),
        "outcome": outcome_value(game) if game.is_over() else None,
        "torn": None if contents.torn is None else contents.torn.describe(),
    }
    if args.json:
        print(canonical(summary), file=out)  # type: ignore[arg-type]
        return 0
    cfg = table.config
    print(
        f"table {cfg.name!r}: {cfg.game}, {cfg.players} players, seed {cfg.seed}{' (seeded)' if cfg.seeded else ''}",
        file=out,
    )
    for rec in contents.records[1:]:
        kind = rec.get("kind")
        if kind == "seat":
            print(f"seat {rec['seat']}: {rec['name']}", file=out)
        elif kind == "move":
            move: Any = rec["move"]  # JSON from the journal
            print(f"game {rec['game_no']} state {rec['state_id']}: seat {rec['seat']} {canonical(move)}", file=out)
        elif kind == "game":
            print(f"rematch: game {rec['game_no']}", file=out)
    state = "over" if summary["over"] else "in progress"
    print(f"game {table.game_no} {state} at state {table.state_id}, hash {summary['hash']}", file=out)
    if summary["outcome"] is not None:
        print(f"outcome: {canonical(summary['outcome'])}", file=out)  # type: ignore[arg-type]
    return 0
