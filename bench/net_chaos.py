"""Tables through misbehaving links, many times: the long run of tests/test_net_chaos.py.

    python bench/net_chaos.py [--tables 20] [--games 2] [--seed 1]

Each table (matchstick for 4 and fistful for 2, alternately) is played by built-in bots, each through its own
chaos proxy (tests/chaosproxy.py: latency, jitter, single-byte writes, throttling, stalls, a reset mid-line, a
half-open hold) with a silent spectator beside them (tests/netchaos.py). Prints one JSON document: tables, games,
moves, the faults injected, the reconnects they forced, and every broken promise (there should be none): a game
that did not finish, a journal that does not replay to the host's state (an acknowledged move lost), a seat
whose final hash is not the host's, or a reconnect without a killed connection.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from netchaos import play_through_chaos  # noqa: E402


async def run(tables: int, games: int, seed: int) -> dict[str, object]:
    totals = {"resets": 0, "holds": 0, "stalls": 0, "split_chunks": 0, "delayed_chunks": 0, "bytes": 0}
    problems: list[str] = []
    played = moves = reconnects = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(tables):
            game, players = (("matchstick", 4), ("fistful", 2))[n % 2]
            result = await play_through_chaos(Path(tmp), game=game, players=players, games=games, seed=seed + n)
            problems += [f"table {n} ({game}): {p}" for p in result.problems]
            played += min(len(r.final_states) for r in result.results)
            moves += sum(r.moves for r in result.results)
            reconnects += sum(c - 1 for c in result.connects) + result.spectator_connects - 1
            for injected in result.injected:
                totals["resets"] += injected.resets
                totals["holds"] += injected.holds
                totals["stalls"] += injected.stalls
                totals["split_chunks"] += injected.split_chunks
                totals["delayed_chunks"] += len(injected.delays)
                totals["bytes"] += injected.bytes
            print(f"table {n}: {game}, {result.seconds:.1f} s, problems {result.problems}", file=sys.stderr)
    return {
        "tables": tables,
        "games": played,
        "moves_sent": moves,
        "seconds": round(time.perf_counter() - started, 1),
        "faults": totals,
        "reconnects": reconnects,
        "problems": problems,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(trio.run(run, args.tables, args.games, args.seed), indent=2))


if __name__ == "__main__":
    main()
