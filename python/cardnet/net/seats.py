"""The seat tokens every client keeps: ``$XDG_STATE_HOME/cardnet/seats.json``, keyed by table id.

A seat token is what takes a seat back (PROTOCOL.md § 7). Keyed by the table's id rather than its address, a
token still fits when the host comes back on another port or another machine's address, and ``cardnet join``,
``cardnet bot`` and the full-screen client share one store: joining a table again takes the old seat back.

The file is rewritten whole through a temporary file and a rename, so a crash leaves the old file or the new
one, never half of either; it is readable by its owner only (a token is a seat). A file that cannot be read as
a store is reported once and replaced by a fresh one: losing tokens costs an automatic rejoin, never the game.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..codec import is_token
from ..journal import default_journal_dir

__all__ = ["SeatStore", "seat_store_path"]

#: The layout of the file, so a later one can be told from this one.
_VERSION = 1


def seat_store_path() -> Path:
    """``$XDG_STATE_HOME/cardnet/seats.json`` (beside the journals)."""
    return default_journal_dir().parent / "seats.json"


def _warn_on_stderr(text: str) -> None:
    print(f"cardnet: {text}", file=sys.stderr)


class SeatStore:
    """Seat tokens by table id. Every method reads the file afresh, so several clients can share it."""

    def __init__(self, path: Path | None = None, *, warn: Callable[[str], None] = _warn_on_stderr) -> None:
        self.path = path if path is not None else seat_store_path()
        self._warn = warn
        self._warned = False

    def token(self, table_id: str) -> str | None:
        """The token kept for the table ``table_id``, if any."""
        entry = self._read().get(table_id)
        token = entry.get("token") if isinstance(entry, dict) else None
        # A value of a shape no host hands out would only make the hello fail: not offered.
        return token if is_token(token) else None

    def seat(self, table_id: str) -> int | None:
        """The seat the kept token of ``table_id`` holds, when the store says."""
        entry = self._read().get(table_id)
        seat = entry.get("seat") if isinstance(entry, dict) else None
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    def remember(
        self, table_id: str, token: str, *, seat: int | None = None, name: str = "", address: str = ""
    ) -> None:
        """Keep ``token`` (for ``seat``) for ``table_id``; ``name`` and ``address`` only help a person reading
        the file."""
        tables = self._read()
        entry = {"token": token, "seat": seat, "name": name, "address": address, "saved": int(time.time())}
        if tables.get(table_id) == entry:
            return
        tables[table_id] = entry
        self._write(tables)

    def forget(self, table_id: str) -> None:
        """Drop the token of ``table_id`` (the seat was left on purpose, or the table no longer knows it)."""
        tables = self._read()
        if tables.pop(table_id, None) is not None:
            self._write(tables)

    def _read(self) -> dict[str, Any]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            self._once(f"cannot read the seat tokens in {self.path} ({exc.strerror}); rejoining needs --token")
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):
            # ValueError covers bytes that are not UTF-8 too (UnicodeDecodeError).
            # RecursionError: JSON nested deeper than the parser's stack (a hostile or garbled file).
            data = None
        if isinstance(data, dict) and data.get("v") == _VERSION and isinstance(data.get("tables"), dict):
            return dict(data["tables"])
        if isinstance(data, dict) and "v" not in data and all(isinstance(v, str) for v in data.values()):
            # The older store, keyed by HOST:PORT: such a key cannot name a table that moved, so it is not carried.
            return {}
        # Kept aside rather than written over: the tokens in it may still be read by hand (--token).
        aside = self.path.with_name(self.path.name + ".damaged")
        try:
            self.path.replace(aside)
        except OSError:
            aside = self.path
        self._once(
            f"{self.path} is not a seat-token store; kept as {aside.name}, starting a fresh one (rejoining needs --token)"
        )
        return {}

    def _write(self, tables: dict[str, Any]) -> None:
        data = json.dumps({"v": _VERSION, "tables": tables}, indent=1, sort_keys=True)
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".seats-", suffix=".tmp", dir=self.path.parent)
            try:
                # mkstemp creates the file 0600 already; the store must never be readable by others.
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as exc:
            self._once(f"cannot save the seat token in {self.path} ({exc.strerror}); rejoining needs --token")

    def _once(self, text: str) -> None:
        if not self._warned:
            self._warned = True
            self._warn(text)
