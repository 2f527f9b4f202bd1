"""The host's protocol session without sockets: moves per second through HostSession, per game.

Every seat is a connected peer that answers its open decision with a uniformly random index; each move goes in
as a line (decoded, validated, applied) and comes out as every seat's state line, exactly as on a socket.
Prints one JSON document: moves/s and the mean bytes sent per move, per game.

    python bench/net_session.py [--games 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import cardnet
from cardnet import protocol as P
from cardnet.protocol.host import Commit, HostOptions, HostSession, Link, Send
from cardnet.table import Table, TableConfig, core_engine


def play(game: str, games: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    players = cardnet.GAMES[game].default_players
    moves = sent = 0
    elapsed = 0.0
    for _ in range(games):
        config = TableConfig(game, players, rng.getrandbits(63), seeded=True, table_id="bench")
        table = Table(config, core_engine(), clock=lambda: 0.0)
        # No rate limit: the bench feeds moves as fast as the table takes them.
        session = HostSession(table, HostOptions(msg_rate=1e9, msg_burst=1e9))
        links: dict[int, Link] = {}
        for seat in range(players):
            link, _ = session.connect(0.0)
            hello = P.Hello(P.PROTOCOL_VERSION, f"p{seat}", "player", seat=seat)
            session.receive_line(link, P.encode(hello.to_wire())[:-1], 0.0)
            links[seat] = link
        now = 0.0
        started = time.perf_counter()
        while not table.game.is_over():
            seat = rng.choice(sorted(table.decisions))
            decision = table.decisions[seat]
            line = P.encode(P.Move(decision.id, index=rng.randrange(decision.count)).to_wire())[:-1]
            now += 0.001
            for effect in session.receive_line(links[seat], line, now):
                if isinstance(effect, Send):
                    sent += len(effect.data)
                elif isinstance(effect, Commit):
                    sent += sum(len(d.data or b"") for d in effect.deliveries)
            moves += 1
        elapsed += time.perf_counter() - started
    return {
        "players": players,
        "games": games,
        "moves": moves,
        "moves_per_s": round(moves / elapsed),
        "bytes_per_move": round(sent / moves),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps({game: play(game, args.games, args.seed) for game in sorted(cardnet.GAMES)}, sort_keys=True))


if __name__ == "__main__":
    main()
