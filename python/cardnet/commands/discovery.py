"""``cardnet list``: the tables on the LAN, once or live; and the table-name lookup of ``join`` and ``bot``.

Importing this module imports neither trio nor zeroconf; they load when a command runs.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ..i18n import gettext as _
from ..i18n import ngettext

if TYPE_CHECKING:
    from ..net.discovery import Listing

#: How long ``join NAME`` and ``bot PLAYER NAME`` look for the table.
DEFAULT_FIND_TIMEOUT = 3.0
#: ``cardnet list`` prints once every table seen has answered its probe and nothing new arrived for this long:
#: longer than the 1 s between a browser's first two mDNS queries, so a table that missed the first is listed.
LIST_QUIET = 1.5


def add_interface_argument(parser: argparse.ArgumentParser, help_text: str) -> None:
    """The shared ``--interface IP`` option (repeatable), with the command's own ``help_text`` for it."""
    parser.add_argument("--interface", action="append", default=[], metavar="IP", help=help_text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a number: '{text}'").format(text=text)) from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(_("give seconds from 0 to 3600"))
    return value


def add_parsers(subparsers: Any) -> None:
    """Register ``cardnet list`` on an ``argparse`` subparsers object."""
    lister = subparsers.add_parser("list", help=_("list the tables on the LAN"))
    add_interface_argument(
        lister,
        _(
            "IPv4 address of an interface to look on (repeatable; default: every non-loopback IPv4 interface that is"
            " up; required when CI or CARDNET_TEST is set)"
        ),
    )
    lister.add_argument(
        "--timeout",
        type=_seconds,
        default=2.0,
        metavar="S",
        help=_(
            "seconds to look at most (default 2); the list prints sooner, once every table found has answered its"
            " probe and nothing new has arrived for {quiet} s"
        ).format(quiet=f"{LIST_QUIET:g}"),
    )
    lister.add_argument("--json", action="store_true", help=_("JSON: one array (with --watch, one array per change)"))
    lister.add_argument("--watch", action="store_true", help=_("keep the list live until Ctrl-C"))
    lister.set_defaults(func=cmd_list)


def cmd_list(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Print the tables that answer (a table per line): once, when the list has settled (at most ``--timeout``
    seconds), or live with ``--watch``."""
    import trio

    from ..net.discovery import InterfaceError, browse, choose_interfaces

    try:
        interfaces = choose_interfaces(args.interface)
    except InterfaceError as exc:
        print(f"cardnet list: {exc}", file=sys.stderr)
        return 2

    async def main() -> None:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:

                async def stop_on_signal() -> None:
                    async for _signal in signals:
                        nursery.cancel_scope.cancel()

                nursery.start_soon(stop_on_signal)
                async with browse(interfaces) as browser:
                    if not args.watch:
                        with trio.move_on_after(args.timeout):
                            await browser.settled(LIST_QUIET)
                        show(browser.listings(), args.json, out, interfaces)
                        nursery.cancel_scope.cancel()
                        return
                    async for listings in browser.changes():
                        if args.json:
                            print(json.dumps([item.as_json() for item in listings]), file=out)
                        else:
                            count = len(listings)
                            line = ngettext("-- {time}: {count} table", "-- {time}: {count} tables", count)
                            print(line.format(time=time.strftime("%H:%M:%S"), count=count), file=out)
                            print(format_table(listings), file=out)
                        out.flush()

    trio.run(main)
    return 0


def show(listings: Sequence[Listing], as_json: bool, out: TextIO, interfaces: Sequence[str]) -> None:
    """Print one list of tables (``--json``: one array)."""
    if as_json:
        print(json.dumps([item.as_json() for item in listings]), file=out)
    elif listings:
        print(format_table(listings), file=out)
    else:
        print(
            _("no tables found on the LAN (looked on {interfaces})").format(interfaces=", ".join(interfaces)),
            file=sys.stderr,
        )


def format_table(listings: Sequence[Listing]) -> str:
    """Aligned columns: name, game, seats, password, address (and whether the game started)."""
    rows = [(_("NAME"), _("GAME"), _("SEATS"), _("PASSWORD"), _("ADDRESS"), _("STARTED"))]
    yes, no = _("yes"), _("no")
    for item in listings:
        s = item.summary
        rows.append(
            (
                s.name,
                s.game,
                f"{s.seats_taken}/{s.seats_total}",
                yes if s.password else no,
                item.address,
                yes if s.started else no,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows)


def table_address(command: str, target: str, interfaces: Sequence[str]) -> tuple[str, int] | int:
    """The address of ``target`` (``HOST:PORT`` or a table name on the LAN), or the exit code after a message.

    No table or several → exit 1 (the candidates listed); a missing or bad ``--interface`` → exit 2.
    """
    from ..net.discovery import InterfaceError, TargetError, resolve_target

    try:
        return resolve_target(target, interfaces, DEFAULT_FIND_TIMEOUT)
    except InterfaceError as exc:
        print(
            _("cardnet {command}: to find '{target}' on the LAN: {reason} (or give HOST:PORT)").format(
                command=command, target=target, reason=exc
            ),
            file=sys.stderr,
        )
        return 2
    except TargetError as exc:
        print(f"cardnet {command}: {exc}", file=sys.stderr)
        return 1
