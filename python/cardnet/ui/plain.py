"""Line-mode play (``cardnet play --plain``): a local game against built-in players in any terminal.

The per-game renderers are :mod:`cardnet.ui.render`; the interactive session, a peer of an in-process host,
is :mod:`cardnet.ui.local`.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from .. import ai

__all__ = ["play_plain"]


def play_plain(
    game: str | None,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    level: str | None = None,
    bot: str = "random",
    seat: int = 0,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    *,
    journal: Path | None = None,
    resume: Path | None = None,
) -> int:
    """Plays one line-mode game on the terminal (or the given streams); returns the exit code.

    The game runs on the same host a LAN table uses, in-process, with built-in players (``level``, else
    ``bot``) in the other seats; it is journalled to ``journal`` (default: under the user's state directory)
    and ``resume`` continues such a journal where it stopped.
    """
    if level is None:
        ai.check_player(bot)
    # trio and the host load only now: importing the renderers stays cheap.
    from .local import play_local

    return play_local(
        game,
        players=players,
        seed=seed,
        options=options,
        player=level or bot,
        seat=seat,
        journal=journal,
        resume=resume,
        stdin=stdin or sys.stdin,
        stdout=stdout or sys.stdout,
    )
