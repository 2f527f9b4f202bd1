"""Local play: the host runs in-process, built-in players hold the other seats, and the line-mode UI is a peer.

``cardnet play`` goes through the code a LAN table uses (:mod:`cardnet.net.local` builds the table, its journal,
its host and the player's in-process peer). The UI sees only what the protocol sends its seat (its view, its events, its legal moves), exactly like
a remote player, and a game cut short continues from its journal with ``cardnet play --resume``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

import trio

from ..errors import BadOptions
from ..net.local import (
    LocalError,
    LocalSetup,
    local_host,
    local_peer,
    new_local_table,
    player_name,
    resume_local_table,
    single_error,
)
from ..i18n import gettext as _
from ..net.peer import PeerError
from .line import PlainGame
from .render import command_word

__all__ = ["LocalError", "play_local"]


async def _play(build: Callable[[], LocalSetup], stdin: TextIO, stdout: TextIO) -> int:
    setup = build()
    table = setup.table
    path = setup.journal.path
    stdout.write(_("journal: {path}").format(path=path) + "\n")
    stdout.write(setup.header + "\n")
    stdout.write(_("Type a number or a move; '{help}' for commands.").format(help=command_word("help")) + "\n")
    stdout.flush()
    host = local_host(setup)
    hint = _("The game is saved; continue it with: cardnet play --resume {path}").format(path=path)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(host.serve_in_process)
            peer = local_peer(host, player_name(), seat=None, token=setup.token)
            await nursery.start(peer.run)
            cfg = table.config
            ui = PlainGame(peer, cfg.game, setup.seat, cfg.players, stdin, stdout, leave_lines=[hint, _("Bye.")])
            code = await ui.run()
            nursery.cancel_scope.cancel()
    finally:
        setup.journal.close()
    return code


def play_local(
    game: str | None,
    *,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    player: str = "random",
    seat: int = 0,
    journal: Path | None = None,
    resume: Path | None = None,
    stdin: TextIO,
    stdout: TextIO,
) -> int:
    """Runs one local game (new, or resumed from ``resume``) through an in-process host; returns the exit code.

    ``player`` is the built-in player (or level) of every other seat. Raises :class:`LocalError` when the
    journal cannot be created or resumed, and the core's errors for a bad game setup.
    """
    if resume is not None:

        def build() -> LocalSetup:
            return resume_local_table(resume)

    else:
        if game is None:
            raise BadOptions("name a game to play")

        def build() -> LocalSetup:
            return new_local_table(game, players, seed, options, player, seat, journal)

    try:
        return trio.run(_play, build, stdin, stdout)
    except BaseExceptionGroup as group:
        inner = single_error(group)
        if isinstance(inner, PeerError):
            raise LocalError(_("the local table refused the player: {reason}").format(reason=inner)) from None
        if inner is group:
            raise
        raise inner from None
