"""Where a host's time per move goes: user vs system CPU, and a cProfile of its per-move path.

    python bench/host_profile.py [--seconds S] [--game matchstick:4] [--top N] [--no-profile]

Starts one headless ``cardnet host`` under cProfile, seats the raw clients of ``bench/net_rtt.py`` and lets
them play for ``--seconds``; then prints one JSON document (moves, user and system CPU per move of the host
process) followed by the profile's top functions by own time. cProfile's times are wall-clock and inflate
under profiling and on a loaded machine: read them as proportions. ``--no-profile`` runs the host without
cProfile for the true user/system split.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import random
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from net_rtt import CLOCK_TICKS, connect, drive, free_port, release_build


def user_system(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="playing time (default 10)")
    parser.add_argument("--game", default="matchstick:4", help="GAME:PLAYERS (default %(default)s)")
    parser.add_argument("--top", type=int, default=20, help="profile lines to print (default 20)")
    parser.add_argument("--no-profile", action="store_true", help="only the user/system split, without cProfile")
    args = parser.parse_args()
    if not release_build("host_profile"):
        return 1
    game, _, players = args.game.partition(":")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "host.prof"
        host = subprocess.Popen(
            [
                sys.executable,
                *([] if args.no_profile else ["-m", "cProfile", "-o", str(profile)]),
                "-m",
                "cardnet",
                "host",
                game,
                "--headless",
                "--players",
                players,
                "--port",
                str(port),
                "--interface",
                "127.0.0.1",
                "--no-probe",
                "--journal",
                str(Path(tmp) / "t.journal"),
                "--seed",
                "1",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=dict(os.environ, CARDNET_TEST="1"),
            text=True,
        )
        assert host.stdout is not None
        for line in host.stdout:
            if line.startswith("journal:"):
                break
        clients = [connect(port, f"prof{i}") for i in range(int(players))]
        user0, sys0 = user_system(host.pid)
        figures = drive(clients, host.pid, args.seconds, random.Random(1))
        user1, sys1 = user_system(host.pid)
        # SIGINT lets cProfile write its file on the way out.
        host.send_signal(signal.SIGINT)
        host.wait(timeout=30)
        moves = max(1, int(figures["moves"]))
        print(
            json.dumps(
                {
                    "bench": "host_profile",
                    "game": args.game,
                    "moves": figures["moves"],
                    "host_user_ms_per_move": round((user1 - user0) * 1000 / moves, 3),
                    "host_system_ms_per_move": round((sys1 - sys0) * 1000 / moves, 3),
                    "mover_rtt_ms": figures["mover_rtt_ms"],
                },
                indent=2,
            )
        )
        if not args.no_profile:
            pstats.Stats(str(profile), stream=sys.stdout).sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
