"""A cardnet bot using only Python's standard library: a socket, json and hmac (docs/PROTOCOL.md is its spec).

    python examples/raw_socket_bot.py HOST:PORT [--games N] [--name NAME] [--seed S]

It takes a seat, answers every decision with a random legal move (by index), answers pings, votes for a
rematch until it has played N games, and prints one JSON line per finished game. The table password, if
any, comes from CARDNET_PASSWORD.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import random
import socket
import sys


def send(sock: socket.socket, message: dict[str, object]) -> None:
    # Canonical form is not required from peers, but it costs nothing to send it.
    sock.sendall(json.dumps(message, sort_keys=True, separators=(",", ":")).encode() + b"\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", help="HOST:PORT")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--name", default="rawbot")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    host, _, port = args.target.rpartition(":")
    rng = random.Random(args.seed)

    sock = socket.create_connection((host, int(port)), timeout=60)
    lines = sock.makefile("rb")
    table = json.loads(lines.readline())
    hello = {
        "type": "hello",
        "protocol": 1,
        "name": args.name,
        "role": "player",
        "capabilities": ["index_moves", "rematch"],
        "client": "raw_socket_bot/1",
    }
    if table.get("password"):
        password = os.environ.get("CARDNET_PASSWORD", "")
        message = f"cardnet-auth/1|{table['table_id']}|{table['challenge']}".encode()
        hello["auth"] = hmac.new(password.encode(), message, hashlib.sha256).hexdigest()
    send(sock, hello)
    welcome = json.loads(lines.readline())
    if welcome["type"] != "welcome":
        print(f"refused: {welcome['code']}: {welcome['reason']}", file=sys.stderr)
        return 1
    seat = welcome["seat"]
    answered: set[int] = set()
    finished: set[int] = set()
    for raw in lines:
        msg = json.loads(raw)
        kind = msg["type"]
        if kind == "ping":
            send(sock, {"type": "pong", "id": msg["id"]})
        elif kind == "error":
            # Stale decisions are harmless (someone else's move got there first); anything else is printed.
            if msg["code"] != "stale_decision":
                print(f"host error: {msg['code']}: {msg['reason']}", file=sys.stderr)
            if msg["fatal"]:
                return 1
        elif kind in ("update", "snapshot"):
            if msg["over"]:
                if msg["game_no"] not in finished:
                    finished.add(msg["game_no"])
                    print(
                        json.dumps({"game_no": msg["game_no"], "seat": seat, "outcome": msg["outcome"]}, sort_keys=True)
                    )
                    sys.stdout.flush()
                    if len(finished) >= args.games:
                        return 0
                    send(sock, {"type": "rematch"})
                continue
            decision = msg["decision"]
            if decision is None:
                continue
            if kind == "snapshot":
                answered.discard(decision["id"])
            if decision["id"] in answered:
                continue
            answered.add(decision["id"])
            send(sock, {"type": "move", "decision_id": decision["id"], "index": rng.randrange(decision["count"])})
    print("the host closed the connection", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
