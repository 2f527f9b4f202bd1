"""Back-pressure, behaviour only (bench/net_stall.py measures it): while one peer of a table stops reading for
seconds, the other seats keep playing, every move is acknowledged, and the stalled peer keeps its connection and
catches up to the table's final state once it reads again. About 10 s; the long run's round trips before and
during the stall are in bench/RESULTS.md."""

from __future__ import annotations

import json
import subprocess
import sys

from nethelpers import ROOT


def test_the_table_plays_on_while_a_spectator_stops_reading_and_the_spectator_catches_up() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "net_stall.py"), "--before", "2", "--stall", "4", "--after", "2"]
        + ["--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    figures = json.loads(done.stdout)
    phases = figures["mover_rtt"]
    # The players moved while the spectator read nothing, as before and after it.
    assert phases["before"]["moves"] > 0 and phases["during"]["moves"] > 0 and phases["after"]["moves"] > 0
    assert figures["games_finished"] >= 1
    # No move went unacknowledged, the host lives, and the stalled spectator was not cut off: it reached the
    # players' final state (a closed link fails the run itself).
    assert figures["moves_unacknowledged"] == 0 and figures["host_alive"]
    assert figures["stalled_peer_final_state"] == figures["final_state"] > 0
