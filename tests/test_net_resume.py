"""``cardnet host`` killed with SIGKILL at random points and restarted with ``--resume``: no acknowledged move
is lost, the peers reconnect with their tokens, and the table finishes exactly as the journal says."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

import cardnet
from cardnet.bot import RandomBot, run_bot
from cardnet.journal import read_journal
from cardnet.net.peer import Peer
from cardnet.protocol import StateMessage
from cardnet.protocol.peer import Step

from nethelpers import NET_COMMAND, child_env, free_port

pytestmark = pytest.mark.trio


async def start_host(args: list[str]) -> trio.Process:
    """Start ``cardnet host`` in a child process and wait until it listens."""
    proc = await trio.lowlevel.open_process(
        [sys.executable, "-c", NET_COMMAND, "host", *args], stdout=subprocess.PIPE, env=child_env()
    )
    assert proc.stdout is not None
    buf = b""
    with trio.fail_after(20):
        while b"listening on" not in buf:
            chunk = await proc.stdout.receive_some(4096)
            assert chunk, f"host exited early: {buf.decode()}"
            buf += chunk
    return proc


@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
async def test_sigkill_and_resume_lose_no_acknowledged_move(tmp_path: Path, game: str) -> None:
    info = cardnet.GAMES[game]
    players = max(info.min_players, min(3, info.max_players))
    rng = random.Random(players)
    port = free_port()
    journal = tmp_path / "table.journal"
    base = ["--interface", "127.0.0.1", "--port", str(port), "--seat-timeout", "120", "--headless"]
    proc = await start_host([game, "--players", str(players), "--seed", "3", "--journal", str(journal), *base])
    # (state_id, seat) of every update that acknowledged our move; an ack that rides on a snapshot (the
    # update was replaced) names a state at or after the move's, so those are checked separately.
    acked: list[tuple[int, int]] = []
    acked_late: list[tuple[int, int]] = []
    results = []
    kills = 0
    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:

            async def player(i: int) -> None:
                peer = Peer("127.0.0.1", port, name=f"p{i}", max_backoff=0.2)
                original = peer.session.on_state

                def on_state(state: StateMessage, step: Step) -> None:
                    if state.ack is not None and peer.state.seat is not None:
                        late = state.kind == "snapshot"
                        (acked_late if late else acked).append((state.state_id, peer.state.seat))
                    original(state, step)

                peer.session.on_state = on_state  # type: ignore[method-assign]
                results.append(await run_bot(RandomBot(i), "127.0.0.1", port, peer=peer))

            for i in range(players):
                nursery.start_soon(player, i)
            while kills < 3 and len(results) < players:
                # Kill after a random number of acknowledged moves, then resume from the journal.
                target = len(acked) + len(acked_late) + rng.randint(1, 6)
                while len(acked) + len(acked_late) < target and len(results) < players:
                    await trio.sleep(0.005)
                if len(results) == players:
                    break
                proc.send_signal(signal.SIGKILL)
                await proc.wait()
                kills += 1
                proc = await start_host(["--resume", str(journal), *base])
            while len(results) < players:
                await trio.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    with trio.fail_after(10):
        assert await proc.wait() == 0  # a clean stop on SIGTERM
    assert kills >= 1
    contents = read_journal(journal)
    assert contents.torn is None
    moves = {(int(str(r["state_id"])), int(str(r["seat"]))) for r in contents.records if r.get("kind") == "move"}
    assert set(acked) <= moves, sorted(set(acked) - moves)
    for state_id, seat in acked_late:
        assert any(s == seat and sid <= state_id for sid, s in moves), (state_id, seat)
    outcomes = [r.outcomes for r in results]
    assert all(o == outcomes[0] for o in outcomes) and len(outcomes[0]) == 1
    replay = await trio.run_process(
        [sys.executable, "-c", NET_COMMAND, "replay", "--json", str(journal)], capture_stdout=True, env=child_env()
    )
    summary = json.loads(replay.stdout)
    assert summary["over"] and summary["outcome"] == outcomes[0][0]
