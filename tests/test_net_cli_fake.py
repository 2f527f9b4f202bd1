"""``cardnet join`` in line mode, as a child process, against a host (stand-in game)."""

from __future__ import annotations

import subprocess
import sys

import pytest
import trio

from cardnet.net.host import HostOptions

from nethelpers import NET_COMMAND, HungHost, child_env, running_host
from netfake import fake_engine

pytestmark = pytest.mark.trio


async def join(port: int | None, *args: str, stdin: bytes | int = b"") -> subprocess.CompletedProcess[bytes]:
    """Runs ``cardnet join 127.0.0.1:port *args`` to its end, feeding it ``stdin`` (bytes, or a file descriptor
    to read); output is captured."""
    return await trio.run_process(
        [sys.executable, "-c", NET_COMMAND, "join", f"127.0.0.1:{port}", *args],
        stdin=stdin,
        capture_stdout=True,
        capture_stderr=True,
        env=child_env(),
        check=False,
    )


async def test_join_spectate_follows_a_bot_game_to_the_end() -> None:
    opts = HostOptions(bot_delay=0.01)
    async with running_host(fake_engine(), players=2, bots={0: "random", 1: "random"}, host_options=opts) as host:
        # An input that stays open: the end of piped input would make the spectator leave, maybe before the end.
        argv = [sys.executable, "-c", NET_COMMAND, "join", f"127.0.0.1:{host.port}", "--spectate", "--name", "eve"]
        proc = await trio.lowlevel.open_process(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env()
        )
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        output = Output(proc.stdout)
        with trio.fail_after(30):
            await output.wait_for("Game over: ")
            # A spectator stays at the table after a game (a rematch may follow); it is not offered one.
            await output.wait_for("You keep watching")
            await proc.stdin.aclose()
            rest = b""
            while chunk := await proc.stdout.receive_some(1 << 16):
                rest += chunk
            assert await proc.wait() == 0
            err = await proc.stderr.receive_some(1 << 16)
        out = "\n".join(output.seen) + "\n" + (output.buffer + rest).decode()
        assert "spectating" in out and "Game over: " in out and "rematch or quit" not in out
        # The spectator's own arrival is counted in the seats line every peer gets.
        assert "Seats: 0: Bot 0 · random, 1: Bot 1 · random; 1 watching" in out
        # A game the client has no renderer for is still followed: events and the host's result as JSON.
        assert any(line.startswith("Game over: ") and '"winners"' in line for line in out.splitlines())
        assert b"Traceback" not in err


async def test_join_as_a_player_types_move_numbers() -> None:
    async with running_host(fake_engine(), players=2, bots={1: "random"}) as host:
        with trio.fail_after(30):
            proc = await join(host.port, "--name", "ann", stdin=b"x y\n99\n0\n" + b"1\n" * 40)
        out = proc.stdout.decode()
        assert proc.returncode == 0, proc.stderr.decode()
        assert "seat 0" in out and "Seat token" in out
        # Moves are numbered from 1; a number out of range and an unreadable line are explained.
        assert "     1. " in out and "     0. " not in out
        assert "Pick a number from 1 to" in out and "Not understood" in out
        assert "Game over: " in out and host.table.game.is_over()


async def test_join_reports_a_refusal_and_bad_targets() -> None:
    async with running_host(fake_engine(), players=2, bots={0: "random", 1: "random"}) as host:
        proc = await join(host.port, "--name", "late")
        assert proc.returncode == 1 and "table_full" in proc.stderr.decode()
    proc2 = subprocess.run(
        [sys.executable, "-c", NET_COMMAND, "join", "nocolon"], capture_output=True, env=child_env(), check=False
    )
    assert proc2.returncode == 2 and "HOST:PORT" in proc2.stderr.decode()


class Output:
    """A child's stdout read line by line as it comes (every wait bounded by the caller)."""

    def __init__(self, stream: trio.abc.ReceiveStream) -> None:
        self.stream = stream
        self.buffer = b""
        self.seen: list[str] = []

    async def wait_for(self, text: str) -> str:
        """Reads until a line containing ``text`` arrives; returns that line."""
        while True:
            while b"\n" in self.buffer:
                raw, _, self.buffer = self.buffer.partition(b"\n")
                line = raw.decode()
                self.seen.append(line)
                if text in line:
                    return line
            chunk = await self.stream.receive_some(1 << 16)
            assert chunk, f"the output ended before {text!r}: {self.seen}"
            self.buffer += chunk


@pytest.mark.parametrize("answers_again", [True, False])
async def test_join_notices_a_hung_host_and_rejoins_when_it_answers_or_gives_up(answers_again: bool) -> None:
    # A 0.1 s heartbeat: the host is silent after 0.3 s; the join gives up after 2 s of failed attempts.
    opts = HostOptions(keepalive_interval=0.1, seat_timeout=60)
    async with running_host(fake_engine(), players=2, bots={1: "random"}, host_options=opts) as host:
        hung = HungHost(host.port or 0)
        async with trio.open_nursery() as nursery:
            port = await nursery.start(hung.serve)
            argv = [sys.executable, "-c", NET_COMMAND, "join", f"127.0.0.1:{port}", "--name", "ann"]
            proc = await trio.lowlevel.open_process(
                [*argv, "--reconnect-for", "2"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=child_env(),
            )
            assert proc.stdout is not None and proc.stdin is not None
            out = Output(proc.stdout)
            try:
                with trio.fail_after(30):
                    token = (await out.wait_for("Seat token")).rsplit(" ", 1)[1]
                    await out.wait_for("Type a number or a move when asked")
                    hung.freeze()
                    said = await out.wait_for("The host is not answering")
                    assert said == "The host is not answering (no word from the host for 0.3 s); reconnecting..."
                    await out.wait_for("the host did not answer within 0.3 s); next try in")
                    if answers_again:
                        hung.thaw()
                        await out.wait_for("Reconnected to the host.")
                        assert host.table.seats[0].connected
                        # Back at the same seat: leaving names the token it had from the start.
                        await proc.stdin.aclose()
                        left = await out.wait_for("Left the table; rejoin seat 0")
                        assert left.endswith(f"--token={token}") and await proc.wait() == 0
                    else:
                        await out.wait_for("The host is gone: gave up reconnecting")
                        assert await proc.wait() == 1
            finally:
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()
            nursery.cancel_scope.cancel()
