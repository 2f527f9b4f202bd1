"""``cardnet host`` killed with SIGKILL at random points and restarted with ``--resume``: no acknowledged move
is lost, the peers reconnect with their tokens, and the table finishes exactly as the journal says. A host that
dies between a move's journal write and its update still acknowledges that move after the resume."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import trio

import cardnet
from cardnet.bot import RandomBot, run_bot
from cardnet.journal import Journal, read_journal
from cardnet.net.host import Host
from cardnet.net.peer import Peer
from cardnet.protocol import Encodable, StateMessage
from cardnet.protocol.peer import Step
from cardnet.table import Table, TableConfig

from netfake import fake_engine
from nethelpers import NET_COMMAND, RawClient, child_env, free_port, running_host

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
    base = ["--interface", "127.0.0.1", "--no-probe", "--port", str(port), "--seat-timeout", "120", "--headless"]
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


class HostKilled(BaseException):
    """Stands for SIGKILL: nothing the host would do after the journal write happens (no handler catches it)."""


class JournalThenDie(Journal):
    """A journal whose host dies right after one chosen move record is written (its single write(2) is done)."""

    die_at_state = 0

    def append(self, record: Mapping[str, Encodable]) -> None:
        super().append(record)
        if record.get("kind") == "move" and record.get("state_id") == self.die_at_state:
            raise HostKilled


async def read_until_closed(client: RawClient) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    while (msg := await client.recv()) is not None:
        lines.append(msg)
    return lines


@pytest.mark.parametrize("last", [False, True], ids=["mid_game", "final_move"])
async def test_a_move_journalled_just_before_a_kill_is_acknowledged_after_the_resume(
    tmp_path: Path, last: bool
) -> None:
    # Deterministic: the host dies between the journal write of seat 0's pick and the update that acknowledges
    # it. After the resume, seat 0 reconnects with its token and answers the same decision again: it must get
    # that ack (a snapshot carrying it, nothing changed), not stale_decision, which cannot say "accepted".
    path = tmp_path / "t.journal"
    config = TableConfig("callpick", 2, 5, options={"rounds": 1}, seeded=True, table_id="tk")
    journal = JournalThenDie.create(path)
    assert isinstance(journal, JournalThenDie)
    journal.append(config.record())
    # One round: seat 0 calls (state 2), then both pick; seat 0's pick ends the game when seat 1 picked first.
    journal.die_at_state = 4 if last else 3
    host = Host(Table(config, fake_engine(), clock=trio.current_time), journal=journal)
    with trio.fail_after(20):
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(host.serve, "127.0.0.1", 0)
                port = host.port or 0
                a, b = RawClient(await trio.open_tcp_stream("127.0.0.1", port)), await RawClient.connect(port)
                token = (await a.join("a"))["token"]
                await b.join("b")
                while (call := (await a.recv_type("snapshot"))["decision"]) is None:
                    pass  # the snapshot from before seat 1 was taken
                await a.send({"type": "move", "decision_id": call["id"], "index": 0})
                pick = (await a.recv_type("update"))["decision"]
                if last:
                    other = (await b.recv_type("update"))["decision"]
                    await b.send({"type": "move", "decision_id": other["id"], "index": 0})
                    await a.recv_type("update")
                await a.send({"type": "move", "decision_id": pick["id"], "index": 0, "ref": "r1"})
                await trio.sleep_forever()
        except* HostKilled:
            pass
        journal.close()
        assert not any("ack" in msg and msg["ack"]["decision_id"] == pick["id"] for msg in await read_until_closed(a))
        resumed, contents = Journal.open_resume(path)
        table = Table.from_records(contents.records, fake_engine(), clock=trio.current_time)
        assert table.state_id == journal.die_at_state and table.game.is_over() == last
        async with running_host(fake_engine(), table=table, journal=resumed) as restarted:
            a = await RawClient.connect(restarted.port or 0)
            assert (await a.join("a", token=token))["seat"] == 0
            snapshot = await a.recv_type("snapshot")
            assert "ack" not in snapshot and snapshot["state_id"] == table.state_id
            await a.send({"type": "move", "decision_id": pick["id"], "index": 0, "ref": "r2"})
            reply = await a.recv_type_in(("snapshot", "update", "error"))
            assert reply["type"] == "snapshot" and reply["ack"] == {"decision_id": pick["id"], "ref": "r2"}, reply
            assert reply["state_id"] == table.state_id == journal.die_at_state
            # A decision this seat never answered is still refused as before.
            await a.send({"type": "move", "decision_id": pick["id"] + 16 * 50, "index": 0})
            assert (await a.recv_type("error"))["code"] == ("game_over" if last else "stale_decision")
        resumed.close()
    assert len(read_journal(path).records) == 3 + journal.die_at_state - 1
