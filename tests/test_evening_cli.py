"""What broke a LAN evening, as child processes on loopback: a seated host with a password, a password typed at
``join``'s prompt on a terminal, and refusals that say what to do. (Two tables of one name need mDNS probing
between two machines: tests/test_discovery_lan.py.)"""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

from discohelpers import Lines, cardnet, env
from nethelpers import free_port

LO = ["--interface", "127.0.0.1"]


def _password_file(tmp_path: Path, secret: str = "sesame") -> Path:
    path = tmp_path / "pw"
    path.write_text(secret + "\n")
    return path


def test_a_seated_host_plays_at_its_own_password_table(tmp_path: Path) -> None:
    argv = cardnet(
        "host", "fistful", "--bots", "1", "--password-file", str(_password_file(tmp_path)), "--no-advertise", *LO
    )
    host = Lines(argv, stdin="quit\n", extra_env={"XDG_STATE_HOME": str(tmp_path)})
    try:
        host.wait_line(lambda line: line.startswith("You sit at seat 0"), 30)
        host.wait_line(lambda line: "continue it with:" in line, 30)
        assert host.proc.wait(20) == 0
        assert "Traceback" not in host.stderr and "auth_failed" not in host.stderr
    finally:
        host.stop()


def _headless_password_host(tmp_path: Path) -> tuple[Lines, int]:
    port = free_port()
    argv = cardnet(
        "host",
        "fistful",
        "--bots",
        "1",
        "--headless",
        "--no-advertise",
        "--port",
        str(port),
        "--password-file",
        str(_password_file(tmp_path)),
        *LO,
    )
    host = Lines(argv, extra_env={"XDG_STATE_HOME": str(tmp_path / "host")})
    host.wait_line(lambda line: line.startswith("listening on"), 30)
    return host, port


class Terminal:
    """A child whose stdin, stdout and stderr are a pseudo-terminal (as a person's shell gives it)."""

    def __init__(self, argv: list[str], extra_env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env() | extra_env, start_new_session=True
        )
        os.close(slave)
        self.text = ""

    def read_until(self, wanted: str, timeout: float, count: int = 1) -> str:
        """Everything read so far once ``wanted`` appeared ``count`` times, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self.text.count(wanted) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {wanted!r} within {timeout} s; saw {self.text[-500:]!r}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the terminal closed before {wanted!r}; saw {self.text[-500:]!r}")
                self.text += chunk.decode(errors="replace")
        return self.text

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


def test_join_asks_for_the_password_on_a_terminal_without_echo(tmp_path: Path) -> None:
    host, port = _headless_password_host(tmp_path)
    term = Terminal(cardnet("join", f"127.0.0.1:{port}"), {"XDG_STATE_HOME": str(tmp_path / "player")})
    try:
        term.read_until("needs a password: ", 30)
        term.type("sesame\r")
        seen = term.read_until("Seat token", 30)
        assert "sesame" not in seen
        term.type("quit\r")
        assert term.proc.wait(20) == 0
    finally:
        term.close()
        host.stop()


def test_a_wrong_password_is_asked_again_then_refused_with_how_to_give_it(tmp_path: Path) -> None:
    host, port = _headless_password_host(tmp_path)
    term = Terminal(cardnet("join", f"127.0.0.1:{port}"), {"XDG_STATE_HOME": str(tmp_path / "player")})
    try:
        prompt = "needs a password: "
        # Three tries, like sudo; each wrong answer is asked again.
        for tries in range(1, 4):
            term.read_until(prompt, 30, count=tries)
            term.type("wrong\r")
        text = term.read_until("--password-file", 30)
        assert "auth_failed" in text and "Traceback" not in text
        assert term.proc.wait(20) == 1
    finally:
        term.close()
        host.stop()


def test_bot_asks_for_the_password_on_a_terminal(tmp_path: Path) -> None:
    host, port = _headless_password_host(tmp_path)
    term = Terminal(cardnet("bot", "builtin:random", f"127.0.0.1:{port}"), {})
    try:
        term.read_until("needs a password: ", 30)
        term.type("sesame\r")
        term.read_until("1 game played", 60)
        assert term.proc.wait(20) == 0
    finally:
        term.close()
        host.stop()


def test_without_a_terminal_join_says_how_to_give_the_password(tmp_path: Path) -> None:
    host, port = _headless_password_host(tmp_path)
    try:
        done = subprocess.run(
            cardnet("join", f"127.0.0.1:{port}"),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=env() | {"XDG_STATE_HOME": str(tmp_path / "player")},
            timeout=60,
            check=False,
        )
        assert done.returncode == 1
        assert (
            "needs its password (auth_failed)" in done.stderr
            and "--password-file" in done.stderr
            and "Traceback" not in done.stderr
        )
    finally:
        host.stop()


def test_a_full_table_says_how_to_rejoin_or_watch(tmp_path: Path) -> None:
    port = free_port()
    host = Lines(
        cardnet(
            "host", "fistful", "--players", "2", "--bots", "2", "--headless", "--no-advertise", "--port", str(port), *LO
        ),
        extra_env={"XDG_STATE_HOME": str(tmp_path)},
    )
    try:
        host.wait_line(lambda line: line.startswith("listening on"), 30)
        done = subprocess.run(
            cardnet("join", f"127.0.0.1:{port}"), capture_output=True, text=True, env=env(), timeout=60, check=False
        )
        assert done.returncode == 1 and "table_full" in done.stderr
        assert "--token" in done.stderr and f"cardnet join 127.0.0.1:{port} --spectate" in done.stderr
    finally:
        host.stop()
