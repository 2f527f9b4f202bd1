"""`cardnet host` announces, `cardnet list` lists, `cardnet join NAME` / `cardnet bot PLAYER NAME` find the table:
child processes on loopback (mDNS bound to 127.0.0.1, unique table names)."""

from __future__ import annotations

import json
import signal
import subprocess
import time

from discohelpers import Lines, cardnet, env, named, not_named, unique

LO = ["--interface", "127.0.0.1"]


def host(name: str, *extra: str) -> Lines:
    """A headless Fistful host with one built-in player, started once it has announced itself."""
    argv = cardnet(
        "host", "fistful", "--bots", "1", "--bot", "random", "--headless", "--name", name, "--no-probe", *LO, *extra
    )
    proc = Lines(argv)
    proc.wait_line(lambda line: line.startswith("announced on the LAN"), 20)
    return proc


def run(*args: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cardnet(*args), input=stdin, capture_output=True, text=True, env=env(), timeout=timeout, check=False
    )


def test_list_then_join_by_name_plays_a_whole_game_and_a_clean_exit_is_gone_at_once() -> None:
    name = unique("cli game")
    table = host(name, "--games", "1")
    watcher = Lines(cardnet("list", "--watch", "--json", *LO))
    try:
        assert f"announced on the LAN: cardnet join {name!r}" in table.seen
        listed = run("list", "--json", "--timeout", "2.5", *LO)
        assert listed.returncode == 0, listed.stderr
        entry = next(t for t in json.loads(listed.stdout) if t["name"] == name)
        assert (entry["game"], entry["seats_taken"], entry["seats_total"]) == ("fistful", 1, 2)
        assert entry["host"] == "127.0.0.1"
        assert entry["password"] is False and entry["started"] is False
        plain = run("list", "--timeout", "2.5", *LO)
        assert plain.stdout.splitlines()[0].split() == ["NAME", "GAME", "SEATS", "PASSWORD", "ADDRESS", "STARTED"]
        # Other tables on loopback (other tests' or runs') may widen the columns: compare the words, not the spacing.
        ours = [line[len(name) :].split()[:2] for line in plain.stdout.splitlines() if line.startswith(name)]
        assert ours == [["fistful", "1/2"]], plain.stdout
        watcher.wait_listing(named(name), 10)

        # A unique prefix is enough; every prompt is answered with the first legal move (moves count from 1).
        joined = run("join", name[:-2], "--name", "ann", *LO, stdin="1\n" * 3000, timeout=120)
        assert joined.returncode == 0, joined.stderr
        assert f"Joined {name!r} (fistful), seat 0" in joined.stdout and "Game over" in joined.stdout
        assert table.proc.wait(30) == 0
        exited = time.monotonic()
        stamp, _ = watcher.wait_listing(not_named(name), 5)
        assert stamp - exited < 1.0, "a table that exits cleanly says goodbye"
    finally:
        watcher.stop()
        table.stop()


def test_a_killed_host_leaves_list_watch_within_5_s_and_names_must_be_unique_or_exact() -> None:
    name = unique("cli kill")
    tables = {label: host(f"{name} {label}") for label in ("a", "b", "c")}
    watcher = Lines(cardnet("list", "--watch", "--json", *LO))
    try:
        watcher.wait_listing(lambda ts: all(named(f"{name} {label}")(ts) for label in tables), 10)
        ambiguous = run("bot", "builtin:random", name, *LO)
        assert ambiguous.returncode == 1
        assert f"3 tables match {name!r}" in ambiguous.stderr and f"'{name} b' (fistful" in ambiguous.stderr
        missing = run("join", unique("nobody"), *LO)
        assert missing.returncode == 1 and "no table named" in missing.stderr
        unnamed = run("join", name)
        assert unnamed.returncode == 2 and "--interface is required" in unnamed.stderr

        tables["a"].proc.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        stamp, listed = watcher.wait_listing(not_named(f"{name} a"), 6)
        assert stamp - killed <= 5.0 and named(f"{name} b")(listed)

        # SIGTERM (a service manager, a script) and SIGINT (Ctrl-C) stop the host cleanly: goodbye at once.
        for label, sig in (("b", signal.SIGTERM), ("c", signal.SIGINT)):
            tables[label].proc.send_signal(sig)
            assert tables[label].proc.wait(10) == 0
            stopped = time.monotonic()
            stamp, _ = watcher.wait_listing(not_named(f"{name} {label}"), 5)
            assert stamp - stopped < 1.0, f"{sig.name} withdraws the table"
    finally:
        watcher.stop()
        for table in tables.values():
            table.stop()


def test_list_prints_once_the_tables_found_have_answered_not_at_its_timeout() -> None:
    name = unique("cli quick")
    table = host(name)
    try:
        started = time.monotonic()
        listed = run("list", "--json", "--timeout", "60", *LO, timeout=90)
        took = time.monotonic() - started
        assert listed.returncode == 0, listed.stderr
        assert any(t["name"] == name for t in json.loads(listed.stdout))
        # The rule (every table found probed, then a quiet 1.5 s) ends the look long before the 60 s allowed.
        assert took < 30, took
    finally:
        table.stop()
