"""The host's append-only journal: one record per write, each with its length and CRC.

File layout: the 16-byte magic ``b"cardnet-journal1"``, then records. A record is a 4-byte big-endian payload
length, a 4-byte big-endian CRC-32 of the payload, and the payload: one canonical JSON object (UTF-8). The
framing has one definition, in the core's host module (:func:`cardnet.native.frame_record` and
:func:`cardnet.native.record_span`), which the native lane appends with too.
A record is written with a single ``write(2)`` on an ``O_APPEND`` descriptor before the host acknowledges what it
records, so a SIGKILLed host loses nothing it acknowledged. A torn or corrupt tail (power loss, a full disk)
is reported by :func:`read_journal` and cut off by :meth:`Journal.open_resume` before appending again.

No trio here: the host calls :meth:`Journal.append` from its single table task (one short syscall) and runs
:meth:`Journal.fsync` in a worker thread when ``--fsync`` asks for durability against power loss.

A journal is written by one process at a time: :class:`Journal` holds an exclusive ``flock`` on a lock file
beside it (``NAME.lock``, holding the holder's pid) from before the first read until :meth:`Journal.close`.
Two writers would each append moves the other never saw and leave a journal no one can replay.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from . import native
from .protocol import Encodable, Raw, canonical

MAGIC: Final = b"cardnet-journal1"
_HEADER_SIZE: Final = native.RECORD_HEADER
#: Largest payload a record may have; a larger length field means the tail is corrupt.
MAX_RECORD: Final = native.MAX_RECORD


class JournalError(Exception):
    """The journal cannot be used at all (missing, not a journal, unwritable)."""


class JournalFailure(Exception):
    """The journal could not be written: the host stops rather than acknowledge what it cannot keep."""


class JournalBusy(JournalError):
    """Another process holds the journal (``pid`` is None when it could not be read from the lock file)."""

    def __init__(self, path: Path, pid: int | None) -> None:
        holder = f"process {pid}" if pid is not None else "another process"
        super().__init__(
            f"journal {path} is in use by {holder}; only one game can write it "
            "(stop that one first, or continue a copy of the journal)"
        )
        self.path = path
        self.pid = pid


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The lock file of the journal at ``path``: the same name with ``.lock`` added."""
    p = Path(path)
    return p.with_name(p.name + ".lock")


class _Lock:
    """An exclusive ``flock`` on a journal's lock file, recording the holder's pid in it.

    The lock file is removed on release. Removing a lock file races with a process that opened it just before:
    that process would lock an unlinked inode. So after locking, :meth:`acquire` checks that the path still
    names the inode it locked, and starts again when it does not.
    """

    def __init__(self, fd: int, path: Path) -> None:
        self._fd = fd
        self.path = path

    @classmethod
    def acquire(cls, journal: Path) -> _Lock:
        path = lock_path(journal)
        while True:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as exc:
                raise JournalError(f"cannot create lock file {path}: {exc.strerror}") from exc
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                pid = _read_pid(fd)
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise JournalBusy(journal, pid) from None
                raise JournalError(f"cannot lock {path}: {exc.strerror}") from exc
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
                return cls(fd, path)
            os.close(fd)

    def release(self) -> None:
        """Remove the lock file and drop the lock (unlink first, while still holding it)."""
        if self._fd < 0:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = -1


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


@dataclass(frozen=True)
class TornTail:
    """Where and why reading stopped before the end of the file.

    ``intact_after`` is the offset of the first whole, valid record found after the damage, or None when nothing
    valid follows it. A killed or powered-off host only ever leaves damage at the very end; valid records after
    it mean the middle of the file was damaged, and cutting there would throw acknowledged moves away.
    """

    offset: int
    size: int
    reason: str
    intact_after: int | None = None

    @property
    def in_the_middle(self) -> bool:
        """Whether valid records follow the damage (it is then no torn tail, and must not be cut off)."""
        return self.intact_after is not None

    def describe(self) -> str:
        """A one-line report for the operator."""
        if self.intact_after is not None:
            return (
                f"journal is damaged at byte {self.offset} ({self.reason}) and has valid records after it "
                f"(from byte {self.intact_after}); only the {self.offset} bytes before the damage are used"
            )
        return (
            f"journal tail is damaged at byte {self.offset} ({self.reason}); "
            f"{self.size - self.offset} trailing bytes ignored, the valid prefix is used"
        )


@dataclass(frozen=True)
class JournalContents:
    """The valid records of a journal, the byte length of that valid prefix, and any torn tail."""

    records: list[dict[str, object]]
    valid_length: int
    torn: TornTail | None


def _move_payload(record: Mapping[str, Encodable]) -> str | None:
    """The canonical JSON of a move record as :meth:`~cardnet.table.Table.apply_move` makes it (the move already
    canonical text from the core), written without the generic encoder: one such record per accepted move."""
    if len(record) != 5 or record.get("kind") != "move":
        return None
    get = record.get
    game_no, seat, state_id, move = get("game_no"), get("seat"), get("state_id"), get("move")
    if not (type(game_no) is type(seat) is type(state_id) is int and isinstance(move, Raw)):
        return None
    return f'{{"game_no":{game_no},"kind":"move","move":{move.text},"seat":{seat},"state_id":{state_id}}}'


def encode_record(record: Mapping[str, Encodable]) -> bytes:
    """The bytes of one record: header (length, CRC-32) and canonical JSON payload."""
    return encode_payload((_move_payload(record) or canonical(record)).encode("ascii"))


def encode_payload(payload: bytes) -> bytes:
    """The bytes of one record whose canonical JSON payload is already encoded: the header, then the payload."""
    return native.frame_record(payload)


def _record_at(data: bytes, pos: int) -> tuple[dict[str, object] | None, str, int]:
    """The record starting at ``pos`` (or None and why not), and the offset after it."""
    start, end, damage = native.record_span(data, pos)
    if damage:
        return None, damage, pos
    payload = data[start:end]
    try:
        record = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, "payload is not JSON", pos
    if not isinstance(record, dict):
        return None, "payload is not an object", pos
    return record, "", end


def _next_intact_record(data: bytes, after: int) -> int | None:
    """The offset of the first valid record that starts after ``after``, if any.

    Every payload is a JSON object, so only offsets 8 bytes before a ``{`` can start one: the scan jumps
    between those, and the CRC makes a false find in damaged bytes a one-in-four-billion event.
    """
    brace = data.find(b"{", after + _HEADER_SIZE + 1)
    while brace >= 0:
        record, _, _ = _record_at(data, brace - _HEADER_SIZE)
        if record is not None:
            return brace - _HEADER_SIZE
        brace = data.find(b"{", brace + 1)
    return None


def parse_journal(data: bytes) -> JournalContents:
    """Parse journal bytes: every valid record up to the first damaged one (see :class:`TornTail` for what is
    known about the bytes after it)."""
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):
            # Killed while writing the magic itself: an empty journal.
            return JournalContents([], 0, TornTail(0, len(data), "incomplete magic") if data else None)
        raise JournalError("not a cardnet journal (bad magic)")
    records: list[dict[str, object]] = []
    pos = len(MAGIC)
    torn: TornTail | None = None
    while pos < len(data):
        record, reason, end = _record_at(data, pos)
        if record is None:
            torn = TornTail(pos, len(data), reason, _next_intact_record(data, pos))
            break
        records.append(record)
        pos = end
    return JournalContents(records, pos, torn)


def read_journal(path: str | os.PathLike[str]) -> JournalContents:
    """Read and parse the journal at ``path``."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read journal {path}: {exc.strerror}") from exc
    return parse_journal(data)


def default_journal_dir() -> Path:
    """``$XDG_STATE_HOME/cardnet/journals``, or ``~/.local/state/cardnet/journals`` when it is unset."""
    base = os.environ.get("XDG_STATE_HOME")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "state"
    return root / "cardnet" / "journals"


def default_journal_path(table_id: str) -> Path:
    """Where a table's journal goes when ``--journal`` is not given."""
    return default_journal_dir() / f"{table_id}.journal"


class Journal:
    """An open journal that records are appended to."""

    def __init__(self, fd: int, path: Path, *, fsync: bool, lock: _Lock | None = None) -> None:
        self._fd = fd
        self._lock = lock
        self.path = path
        self.fsync_enabled = fsync
        self.records_written = 0

    @classmethod
    def create(cls, path: str | os.PathLike[str], *, fsync: bool = False) -> Journal:
        """Create a new journal (refusing to overwrite an existing file or one another process holds)."""
        p = Path(path)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot create directory {p.parent}: {exc.strerror}") from exc
        lock = _Lock.acquire(p)
        try:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        except FileExistsError:
            lock.release()
            raise JournalError(f"journal {p} already exists (use --resume to continue it)") from None
        except OSError as exc:
            lock.release()
            raise JournalError(f"cannot create journal {p}: {exc.strerror}") from exc
        journal = cls(fd, p, fsync=fsync, lock=lock)
        journal._write(MAGIC)
        if fsync:
            journal.fsync()
            _fsync_dir(p.parent)
        return journal

    @classmethod
    def open_resume(
        cls,
        path: str | os.PathLike[str],
        *,
        fsync: bool = False,
        accept: Callable[[JournalContents], object] | None = None,
    ) -> tuple[Journal, JournalContents]:
        """Open an existing journal to continue it: lock it, read it, cut off any torn tail, append after the rest.

        ``accept`` sees the records before anything is written (the caller replays them there); whatever it
        raises leaves the file as it was. Raises :class:`JournalBusy` (and reads nothing) when another process
        holds the journal, and :class:`JournalError` (writing nothing) when the damage is not at the end: valid
        records after it are acknowledged moves that cutting would lose.
        """
        p = Path(path)
        if not p.is_file():
            # Checked first so that no lock file is left beside a journal that does not exist.
            raise JournalError(f"cannot read journal {p}: no such file")
        lock = _Lock.acquire(p)
        try:
            contents = read_journal(p)
            if contents.torn is not None and contents.torn.in_the_middle:
                raise JournalError(f"cannot continue {p}: {contents.torn.describe()}; nothing was cut off")
            if accept is not None:
                accept(contents)
            fd = os.open(p, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            lock.release()
            raise JournalError(f"cannot open journal {p}: {exc.strerror}") from exc
        except BaseException:
            lock.release()
            raise
        journal = cls(fd, p, fsync=fsync, lock=lock)
        if contents.torn is not None or contents.valid_length == 0:
            os.ftruncate(fd, contents.valid_length)
            if contents.valid_length == 0:
                journal._write(MAGIC)
            journal.fsync()
        return journal, contents

    @property
    def descriptor(self) -> int:
        """The open file's descriptor: the host's native lane appends move records to it itself, each as
        :meth:`append_payload` would (and adds them to :attr:`records_written`)."""
        return self._fd

    def _write(self, data: bytes) -> None:
        written = os.write(self._fd, data)
        while written < len(data):
            # Only a full disk or a signal makes a regular-file write short; finish it so the record is whole.
            written += os.write(self._fd, data[written:])

    def append(self, record: Mapping[str, Encodable]) -> None:
        """Append one record with a single write (durable against a killed process once this returns)."""
        self._write(encode_record(record))
        self.records_written += 1

    def append_payload(self, payload: bytes) -> None:
        """Append one record given as its canonical JSON payload (the host's fast lane builds it natively)."""
        self._write(encode_payload(payload))
        self.records_written += 1

    def fsync(self) -> None:
        """Flush the file to stable storage (blocking; the host runs it in a worker thread)."""
        os.fsync(self._fd)

    def close(self) -> None:
        """Close the descriptor and release the lock (idempotent)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if self._lock is not None:
            self._lock.release()
            self._lock = None


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
