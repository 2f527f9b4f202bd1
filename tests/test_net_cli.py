"""`cardnet host`, `cardnet replay` and their usage errors, as child processes on the real core."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from nethelpers import NET_COMMAND, bot_command, child_env, free_port


def run(args: list[str], env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", NET_COMMAND, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def start_host(tmp_path: Path, password: str, extra: list[str]) -> tuple[subprocess.Popen[str], int, dict[str, str]]:
    """A headless password-protected Fistful host on a free loopback port, started once it has printed."""
    secret = tmp_path / "pw"
    secret.write_text(password + "\n")
    port = free_port()
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path)}
    host = subprocess.Popen(
        [
            sys.executable,
            "-c",
            NET_COMMAND,
            "host",
            "fistful",
            "--interface",
            "127.0.0.1",
            "--port",
            str(port),
            "--password-file",
            str(secret),
            "--headless",
            "--no-probe",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert host.stdout is not None and "password" in host.stdout.readline()
    return host, port, env


def test_headless_host_with_only_builtin_players_journals_to_the_state_dir(tmp_path: Path) -> None:
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path)}
    done = run(
        [
            "host",
            "fistful",
            "--bots",
            "2",
            "--bot",
            "random",
            "--seed",
            "9",
            "--interface",
            "127.0.0.1",
            "--games",
            "1",
            "--headless",
            "--no-probe",
            "--name",
            "robots",
        ],
        env,
    )
    assert done.returncode == 0, done.stderr
    assert "listening on 127.0.0.1:" in done.stdout and "cardnet join 127.0.0.1:" in done.stdout
    assert "'robots'" in done.stdout and "seeded" in done.stdout
    journals = list((tmp_path / "cardnet" / "journals").glob("*.journal"))
    assert len(journals) == 1 and f"journal: {journals[0]}" in done.stdout
    replay = run(["replay", str(journals[0])], env)
    assert replay.returncode == 0, replay.stderr
    assert "table 'robots': fistful, 2 players, seed 9 (seeded)" in replay.stdout
    assert "game 0 over" in replay.stdout and "outcome:" in replay.stdout


def test_usage_and_runtime_errors_have_their_exit_codes(tmp_path: Path) -> None:
    env = child_env()
    for args in (
        ["host", "fistful"],
        ["host", "--interface", "127.0.0.1"],
        ["host", "nosuch", "--interface", "127.0.0.1"],
        ["host", "fistful", "--players", "5", "--interface", "127.0.0.1"],
        ["host", "fistful", "--option", "length=forever", "--interface", "127.0.0.1"],
        # Without --headless the host sits at seat 0, so built-in players may not fill every seat.
        ["host", "fistful", "--bots", "2", "--interface", "127.0.0.1"],
        ["host", "fistful", "--keepalive", "0", "--interface", "127.0.0.1", "--headless"],
        ["bot", "builtin:nope", "127.0.0.1:1"],
        ["join", "no-port"],
    ):
        done = run(args, env)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.startswith("cardnet"), done.stderr
    missing = run(["replay", str(tmp_path / "missing.journal")], env)
    assert missing.returncode == 1 and "cannot read journal" in missing.stderr
    resume = run(["host", "--resume", str(tmp_path / "missing.journal"), "--interface", "127.0.0.1"], env)
    assert resume.returncode == 1 and "journal" in resume.stderr
    refused = run(["bot", "builtin:random", "127.0.0.1:1"], env)
    assert refused.returncode == 1 and "connect_failed" in refused.stderr


def test_password_protected_table_admits_bots_that_know_the_password(tmp_path: Path) -> None:
    host, port, env = start_host(tmp_path, "open sesame", ["--games", "1"])
    try:
        wrong = subprocess.run(
            bot_command("raw", port),
            capture_output=True,
            text=True,
            timeout=60,
            env=env | {"CARDNET_PASSWORD": "guess"},
            check=False,
        )
        assert wrong.returncode == 1 and "auth_failed" in wrong.stderr
        bots = [
            subprocess.Popen(
                bot_command(kind, port),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env | {"CARDNET_PASSWORD": "open sesame"},
            )
            for kind in ("raw", "node")
        ]
        for bot in bots:
            out, err = bot.communicate(timeout=60)
            assert bot.returncode == 0, err
            assert '"outcome"' in out
        assert host.wait(timeout=30) == 0
    finally:
        host.kill()


def test_bot_and_join_report_refusals_after_the_handshake_cleanly(tmp_path: Path) -> None:
    """A wrong password and a full table end with a one-line error and exit code 1, never a traceback."""
    host, port, env = start_host(tmp_path, "right", ["--bots", "2"])
    secret = tmp_path / "pw"
    try:
        wrong = tmp_path / "wrong"
        wrong.write_text("wrong")
        for command in (
            ["bot", "builtin:random", f"127.0.0.1:{port}", "--password-file", str(wrong)],
            ["join", f"127.0.0.1:{port}", "--password-file", str(wrong)],
            ["bot", "builtin:random", f"127.0.0.1:{port}", "--password-file", str(secret)],
        ):
            done = run(command, env)
            assert done.returncode == 1, (command, done.stderr)
            assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
            assert "auth_failed" in done.stderr or "table_full" in done.stderr
    finally:
        host.terminate()
        host.wait(timeout=10)


def test_max_spectators_admits_more_watchers_than_the_default_connection_limit(tmp_path: Path) -> None:
    """`--max-spectators 70` admits 70 spectators (beyond the 64 connections of the default limit) and no more."""
    import json
    import socket

    port = free_port()
    host = subprocess.Popen(
        [
            sys.executable,
            "-c",
            NET_COMMAND,
            "host",
            "fistful",
            "--interface",
            "127.0.0.1",
            "--port",
            str(port),
            "--headless",
            "--journal",
            str(tmp_path / "t.journal"),
            "--max-spectators",
            "70",
            "--no-probe",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=child_env(),
    )
    socks: list[socket.socket] = []

    def watch(k: int) -> dict[str, object]:
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        socks.append(sock)
        reader = sock.makefile("rb")
        reader.readline()  # the table line
        hello = {"capabilities": [], "name": f"w{k}", "protocol": 1, "role": "spectator", "type": "hello"}
        sock.sendall(json.dumps(hello, separators=(",", ":"), sort_keys=True).encode() + b"\n")
        answer: dict[str, object] = json.loads(reader.readline())
        return answer

    try:
        assert host.stdout is not None
        for line in host.stdout:
            if line.startswith("journal:"):
                break
        assert all(watch(k)["type"] == "welcome" for k in range(70))
        refused = watch(70)
        assert (refused["type"], refused["code"]) == ("error", "table_full")
    finally:
        for sock in socks:
            sock.close()
        host.terminate()
        host.wait(timeout=30)


def test_a_seated_host_leaves_when_its_input_ends_while_waiting_for_players(tmp_path: Path) -> None:
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path)}
    argv = ["host", "fistful", "--port", str(free_port()), "--interface", "127.0.0.1", "--no-advertise"]
    host = subprocess.Popen(
        [sys.executable, "-c", NET_COMMAND, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert host.stdin is not None and host.stdout is not None
        banner = []
        for _ in range(20):
            banner.append(host.stdout.readline())
            if banner[-1].startswith("You sit at seat 0"):
                break
        else:
            raise AssertionError("the host never sat down")
        # The banner counts the seat the host itself is about to take.
        assert "(fistful, 1/2 seats taken," in banner[0]
        # Seat 1 is still open: the host waits for a player when its input ends (Ctrl-D, or the end of a script).
        host.stdin.close()
        code = host.wait(timeout=20)
        out, err = host.stdout.read(), host.stderr.read() if host.stderr else ""
        assert code == 0, err
        journal = next(tmp_path.rglob("*.journal"))
        assert f"Table closed; continue it with: cardnet host --resume {journal}" in out
        assert "Traceback" not in err
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(timeout=10)


def test_join_tells_a_stopped_host_by_its_silence_and_rejoins_when_it_continues(tmp_path: Path) -> None:
    """SIGSTOP: the host's connections stay open and its kernel still accepts new ones, but no word comes. With a
    0.2 s heartbeat the join says so after 0.6 s, retries, and is back at its seat once the host runs again."""
    import os
    import signal

    from discohelpers import Lines, cardnet

    port = free_port()
    host = Lines(
        cardnet(
            "host", "fistful", "--bots", "1", "--bot", "random", "--headless", "--no-advertise", "--port", str(port)
        )
        + ["--interface", "127.0.0.1", "--keepalive", "0.2", "--journal", str(tmp_path / "t.journal")]
    )
    player = None
    try:
        host.wait_line(lambda line: line.startswith("journal:"), 20)
        player = Lines(cardnet("join", f"127.0.0.1:{port}", "--name", "ann"), hold_stdin=True)
        player.wait_line(lambda line: line.startswith("Type a number or a move"), 20)
        os.kill(host.proc.pid, signal.SIGSTOP)
        try:
            silent = "The host is not answering (no word from the host for 0.6 s); reconnecting..."
            player.wait_line(lambda line: line.endswith(silent), 10)
            player.wait_line(lambda line: "(the host did not answer within 0.6 s); next try in" in line, 10)
        finally:
            os.kill(host.proc.pid, signal.SIGCONT)
        player.wait_line(lambda line: line.endswith("Reconnected to the host."), 20)
        player.close_stdin()
        player.wait_line(lambda line: "Left the table; rejoin seat 0 with" in line, 10)
        assert player.proc.wait(10) == 0
    finally:
        if player is not None:
            player.stop()
        host.stop()


def test_bot_prints_a_line_per_game_in_words_and_a_summary(tmp_path: Path) -> None:
    import re

    env = child_env() | {"XDG_STATE_HOME": str(tmp_path)}
    outputs = {}
    for form in ([], ["--json"]):
        port = free_port()
        argv = ["host", "fistful", "--bots", "1", "--bot", "random", "--port", str(port), "--interface", "127.0.0.1"]
        host = subprocess.Popen(
            [sys.executable, "-c", NET_COMMAND, *argv, "--headless", "--no-advertise", "--games", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            assert host.stdout is not None
            while not host.stdout.readline().startswith("journal: "):
                pass
            played = run(["bot", "builtin:random", f"127.0.0.1:{port}", "--games", "2", "--name", "robo", *form], env)
            assert played.returncode == 0, played.stderr
            outputs[bool(form)] = played.stdout
            assert host.wait(timeout=30) == 0
        finally:
            if host.poll() is None:
                host.kill()
                host.wait(timeout=10)
    lines = outputs[False].splitlines()
    result = r"(won|shared the win|nobody won|lost \(place 2 of 2\)), score -?\d+"
    assert re.fullmatch(rf"Game 1: {result}\. Won [01] of 1 so far\.", lines[0]), lines
    assert re.fullmatch(rf"Game 2: {result}\. Won [012] of 2 so far\.", lines[1]), lines
    assert re.fullmatch(r"robo at seat 0: 2 games played, [012] won, \d+ moves\.", lines[2]), lines
    assert len(lines) == 3 and "{" not in outputs[False]
    # For machines: one JSON object per game.
    assert [json.loads(line)["game_no"] for line in outputs[True].splitlines()] == [0, 1]
