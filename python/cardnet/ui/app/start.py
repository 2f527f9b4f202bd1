"""What the command line asks the full-screen client to open first."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["StartRequest"]


@dataclass
class StartRequest:
    """What the command line asked the app to open first: a local game, a resumed journal, or the lobby."""

    game: str | None = None
    players: int | None = None
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    player: str = "normal"
    seat: int = 0
    journal: Path | None = None
    resume: Path | None = None
    connect: list[tuple[str, int]] = field(default_factory=list)
    interfaces: list[str] = field(default_factory=list)
    open_seats: int = 0
    password: str | None = None
    #: Whether a LAN table hosted here checks by mDNS probing that its name is unique before announcing it.
    probe: bool = True
    #: Whether the lobby asks the player's name when none is known yet (``cardnet play`` in a terminal does).
    ask_name: bool = False
