"""A journal is written by one process at a time: a second game on a held journal is refused and changes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardnet.journal import Journal, JournalBusy, JournalError, lock_path, read_journal

COMMAND = [sys.executable, "-m", "cardnet"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, *args], input=stdin, capture_output=True, text=True, timeout=120)


def wait_for_holder(journal: Path, pid: int, deadline: float = 30.0) -> None:
    """Polls the lock file until it names ``pid`` (bounded)."""
    lock = lock_path(journal)
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            if lock.read_text().strip() == str(pid):
                return
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"process {pid} never took the lock on {journal}")


def wait_for_seat_records(journal: Path, count: int, deadline: float = 30.0) -> None:
    """Polls the journal until it holds ``count`` seat records (bounded): a resumed local game takes the lock
    first and journals its player's fresh token just after."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        records = read_journal(journal).records
        if sum(1 for record in records if record.get("kind") == "seat") >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{journal} never reached {count} seat records")


def test_two_terminals_resuming_one_journal(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    first = run("play", "fistful", "--plain", "--seed", "3", "--journal", str(journal), stdin="1\n")
    assert first.returncode == 0, first.stderr
    assert not lock_path(journal).exists()

    # Terminal one continues the game and sits at its prompt.
    one = subprocess.Popen(
        [*COMMAND, "play", "--plain", "--resume", str(journal)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_holder(journal, one.pid)
        wait_for_seat_records(journal, 2)  # terminal one's own re-keying of its seat, not terminal two's
        before = journal.read_bytes()
        # Terminal two tries the same journal, as a local game and as a host; each is refused untouched.
        attempts = [
            ("play", "--plain", "--resume", str(journal)),
            ("host", "--resume", str(journal), "--interface", "127.0.0.1", "--headless"),
            ("host", "fistful", "--journal", str(journal), "--interface", "127.0.0.1", "--headless"),
        ]
        for attempt in attempts:
            two = run(*attempt, stdin="1\n1\n")
            assert two.returncode == 1, (attempt, two.stdout, two.stderr)
            assert f"journal {journal} is in use by process {one.pid}" in two.stderr, two.stderr
            assert "Traceback" not in two.stderr
            assert journal.read_bytes() == before
        # Terminal one is unaffected: it plays a move, leaves, and the journal still replays.
        out, err = one.communicate("1\n", timeout=120)
    finally:
        if one.poll() is None:
            one.kill()
            one.wait()
    assert one.returncode == 0, err
    assert "resumed at state" in out
    assert len(journal.read_bytes()) > len(before)
    replayed = run("replay", str(journal), "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["torn"] is None
    assert not lock_path(journal).exists()


def test_lock_is_held_until_close_and_names_the_pid(tmp_path: Path) -> None:
    path = tmp_path / "j"
    journal = Journal.create(path)
    journal.append({"kind": "table"})
    with pytest.raises(JournalBusy) as busy:
        Journal.open_resume(path)
    assert busy.value.pid == os.getpid() and str(os.getpid()) in str(busy.value)
    with pytest.raises(JournalBusy):
        Journal.create(path)
    journal.close()
    again, contents = Journal.open_resume(path)
    assert contents.records == [{"kind": "table"}]
    again.close()
    assert not lock_path(path).exists()


def test_missing_journal_leaves_no_lock_file(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no such file"):
        Journal.open_resume(tmp_path / "missing")
    assert list(tmp_path.iterdir()) == []


def test_refused_create_releases_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "j"
    Journal.create(path).close()
    with pytest.raises(JournalError, match="already exists"):
        Journal.create(path)
    assert not lock_path(path).exists()
    read_journal(path)
