"""One table played by built-in bots over links that misbehave (tests/chaosproxy.py), and what must hold after.

Each player (and one spectator) reaches the host through its own :class:`~chaosproxy.ChaosProxy`. The faults of
a run are drawn from a seed: latency and jitter and single-byte writes on every link, throttling on one, stalls on
another, one peer's first connection reset mid-line and another's first connection held half-open; the
spectator's first link goes silent at once (the host must not wait on it). :func:`play_through_chaos` returns
what a test or benchmark checks: every game finished, the journal replays to the host's state, every seat's
final state hash is the host's, and a peer reconnected only where the proxy killed its connection.

Used by tests/test_net_chaos.py and bench/net_chaos.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from cardnet.bot import BotResult, RandomBot, run_bot
from cardnet.journal import read_journal
from cardnet.net.factory import create_table, table_config
from cardnet.net.host import HostOptions
from cardnet.net.peer import Peer
from cardnet.table import Table, core_engine

from chaosproxy import ChaosProxy, Faults, Injected
from nethelpers import running_host


#: How long a peer waits on a silent host before it calls the connection dead and reconnects.
PEER_IDLE = 5.0


@dataclass
class ChaosRun:
    """What happened: per player, its bot's result, reconnects and the connections its proxy killed."""

    results: list[BotResult] = field(default_factory=list)
    connects: list[int] = field(default_factory=list)
    killed: list[int] = field(default_factory=list)
    injected: list[Injected] = field(default_factory=list)
    host_hash: str = ""
    host_state_id: int = 0
    journal_matches: bool = False
    spectator_connects: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def faults_of_player(seat: int, rng: random.Random) -> list[Faults]:
    """A player's faults per connection: its first connection suffers the seat's role; later ones only the
    noise every link has (a reconnect must get the game back, not die again)."""
    noise = Faults(latency=0.002, jitter=rng.choice((0.005, 0.02)), single_bytes=0.2)
    role = seat % 4
    if role == 0:
        first = Faults(latency=0.002, jitter=0.01, single_bytes=0.2, reset_after=rng.uniform(0.8, 1.6))
    elif role == 1:
        first = Faults(latency=0.002, jitter=0.01, hold_after=rng.uniform(0.8, 1.6))
    elif role == 2:
        first = Faults(latency=0.005, jitter=0.01, bandwidth=40_000, stall_every=3.0, stall_for=0.5)
        noise = first  # the slow link stays slow (stalls well under the idle limit never end a connection)
    else:
        first = noise
    return [first, noise]


def _per_connection(faults: list[Faults]) -> Callable[[int], Faults]:
    return lambda n: faults[min(n, len(faults) - 1)]


async def play_through_chaos(
    directory: Path, *, game: str = "matchstick", players: int = 4, games: int = 1, seed: int = 1
) -> ChaosRun:
    """Play ``games`` games at one table through chaos proxies; see the module docstring."""
    rng = random.Random(seed)
    run = ChaosRun()
    config = table_config(game, players=players, seed=seed)
    path = directory / f"chaos{seed}.journal"
    table, journal = create_table(config, journal=path)
    # Short liveness limits so a held connection is noticed within seconds: the host pings every 0.8 s and a
    # peer gives a silent host 5 s (host, proxies and peers share one process here, which a loaded machine may
    # starve for a second or two: that must not look like a dead link). Writes keep the default limit (20 s): a
    # slow link must slow its own peer down, never get it cut off.
    options = HostOptions(keepalive_interval=0.8, idle_timeout=10.0, seat_timeout=30.0)
    started = trio.current_time()
    async with running_host(core_engine(), table=table, journal=journal, host_options=options) as host:
        port = host.port
        assert port is not None
        proxies = [
            ChaosProxy(port, _per_connection(faults_of_player(seat, rng)), seed=seed * 10 + seat)
            for seat in range(players)
        ]
        silent = ChaosProxy(port, lambda n: Faults(hold_after=0.3) if n == 0 else Faults(), seed=seed)
        async with trio.open_nursery() as nursery:
            for proxy in [*proxies, silent]:
                await nursery.start(proxy.serve)
            spectator = Peer("127.0.0.1", silent.port, name="watcher", spectate=True, idle_timeout=PEER_IDLE)
            nursery.start_soon(spectator.run)
            peers = [
                Peer("127.0.0.1", proxy.port, name=f"p{seat}", seat=seat, idle_timeout=PEER_IDLE)
                for seat, proxy in enumerate(proxies)
            ]
            results: list[BotResult | None] = [None] * players

            async def play(seat: int) -> None:
                bot = RandomBot(seed * 100 + seat)
                results[seat] = await run_bot(bot, "127.0.0.1", proxies[seat].port, games=games, peer=peers[seat])

            with trio.move_on_after(120) as limit:
                async with trio.open_nursery() as players_nursery:
                    for seat in range(players):
                        players_nursery.start_soon(play, seat)
            if limit.cancelled_caught:
                run.problems.append("the games did not finish within 120 s")
            run.spectator_connects = spectator.state.connects
            nursery.cancel_scope.cancel()
        run.seconds = trio.current_time() - started
        run.host_hash = host.table.fragments().state_hash
        run.host_state_id = host.table.state_id
        run.results = [r if r is not None else BotResult() for r in results]
        run.connects = [p.state.connects for p in peers]
        run.killed = [p.injected.killed for p in proxies]
        run.injected = [*(p.injected for p in proxies), silent.injected]
        live = host.table
    replayed = Table.from_records(read_journal(path).records, core_engine(), clock=lambda: 0.0)
    run.journal_matches = (replayed.state_id, replayed.game.state_hash()) == (live.state_id, live.game.state_hash())
    check(run, games)
    return run


def check(run: ChaosRun, games: int) -> None:
    """Add a problem for every promise the run broke."""
    if not run.journal_matches:
        run.problems.append("the journal does not replay to the host's state: an acknowledged move was lost")
    for seat, result in enumerate(run.results):
        if len(result.final_states) < games:
            run.problems.append(f"seat {seat} saw {len(result.final_states)} of {games} games end")
            continue
        last = result.final_states[-1]
        if (last.state_id, last.hash) != (run.host_state_id, run.host_hash):
            run.problems.append(f"seat {seat} ended at state {last.state_id} {last.hash}, the host at {run.host_hash}")
        if run.connects[seat] - 1 > run.killed[seat]:
            heard = sorted({e.code for e in result.errors})
            run.problems.append(
                f"seat {seat} connected {run.connects[seat]} times but only {run.killed[seat]} of its connections "
                f"died (errors it heard: {heard})"
            )
