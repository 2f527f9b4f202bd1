"""The new-table form's last choices per game, kept between runs.

Stored as JSON in ``$XDG_STATE_HOME/cardnet/new-table.json`` (beside the journals): the game chosen last, and
for each game its players, built-in level and options. A missing, unreadable or malformed file means no
memory; a choice a game no longer offers is skipped when the form applies it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...journal import default_journal_dir

__all__ = ["GameChoices", "Remembered", "default_path", "load", "save"]


@dataclass
class GameChoices:
    """What the form last held for one game."""

    players: int | None = None
    level: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Remembered:
    """The last game chosen and each game's last choices."""

    game: str | None = None
    games: dict[str, GameChoices] = field(default_factory=dict)


def default_path() -> Path:
    """``$XDG_STATE_HOME/cardnet/new-table.json`` (``~/.local/state/cardnet/...`` when it is unset)."""
    return default_journal_dir().parent / "new-table.json"


def load(path: Path) -> Remembered:
    """The choices kept at ``path``; empty when there are none or the file cannot be read as such."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Remembered()
    if not isinstance(doc, dict):
        return Remembered()
    out = Remembered(game=doc["game"] if isinstance(doc.get("game"), str) else None)
    games = doc.get("games")
    for name, raw in games.items() if isinstance(games, dict) else []:
        if not isinstance(raw, dict):
            continue
        players = raw.get("players")
        level = raw.get("level")
        options = raw.get("options")
        out.games[name] = GameChoices(
            players if isinstance(players, int) and not isinstance(players, bool) else None,
            level if isinstance(level, str) else None,
            dict(options) if isinstance(options, dict) else {},
        )
    return out


def save(path: Path, remembered: Remembered) -> None:
    """Writes the choices to ``path`` (atomically); a state directory that cannot be written is not an error
    worth stopping a game for, so failures are ignored."""
    doc = {
        "game": remembered.game,
        "games": {
            name: {"players": c.players, "level": c.level, "options": c.options} for name, c in remembered.games.items()
        },
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        return
