"""LAN discovery figures on a private LAN of network namespaces; prints one JSON document.

    sudo python bench/net_discovery.py [--runs 20] [--idle 60]

- **appear**: a browser (`cardnet list --watch` on another machine) is running; `cardnet host` starts. Per run:
  process start → listening (Python start-up), listening → seen by the browser (zeroconf start, registration,
  the browser's TCP probe), and start → seen. Two series: as a user runs it (mDNS name probing, ~1.7 s) and
  without probing (``--no-probe``, as the tests run), so the probing time shows apart: the second series is the time once
  registered (the goal: ≤ 0.3 s).
- **removal**: in each run the host is then SIGKILLed (no goodbye): time until the browser's list drops it
  (goal ≤ 5 s); and in a quarter as many runs the host's machine drops off the LAN (its link goes down).
- **idle traffic**: a table and a fresh browser on two machines, both idle: the mDNS packets each sends in
  ``--idle`` seconds after the browser has seen the table (counted on the bridge with a packet socket), per
  minute. TCP liveness probes are unicast and reported as their rate.

Needs root (network namespaces) and iproute2.
"""

from __future__ import annotations

import argparse
import json
import signal
import socket
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

MDNS_GROUP = socket.inet_aton("224.0.0.251")


def sniff(device: str, seconds: float) -> None:
    """Count mDNS packets (UDP to 224.0.0.251:5353) per source address on ``device``; print JSON."""
    counts: dict[str, int] = {}
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
    sock.bind((device, 0))
    sock.settimeout(0.2)
    print("ready", flush=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            frame = sock.recv(65535)
        except TimeoutError:
            continue
        if len(frame) < 42 or frame[12:14] != b"\x08\x00":
            continue
        ip = frame[14:]
        header = (ip[0] & 0x0F) * 4
        if ip[9] != 17 or ip[16:20] != MDNS_GROUP:
            continue
        (dport,) = struct.unpack("!H", ip[header + 2 : header + 4])
        if dport == 5353:
            source = socket.inet_ntoa(ip[12:16])
            counts[source] = counts.get(source, 0) + 1
    print(json.dumps(counts), flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "p50": round(statistics.median(values), 3),
        "p95": round(percentile(values, 0.95), 3),
        "max": round(max(values), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--idle", type=float, default=60.0, help="seconds of idle traffic to count")
    parser.add_argument("--sniff", nargs=2, metavar=("DEVICE", "SECONDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.sniff:
        sniff(args.sniff[0], float(args.sniff[1]))
        return 0

    from discohelpers import Lines, cardnet, unique
    from netns import lan_unavailable, private_lan

    from cardnet.net.discovery import PROBE_INTERVAL

    reason = lan_unavailable()
    if reason is not None:
        print(f"net_discovery: {reason}", file=sys.stderr)
        return 1
    results: dict[str, Any] = {}
    with private_lan(3, "bench") as lan:

        def host(index: int, name: str, probe: bool = True) -> Lines:
            argv = cardnet("host", "fistful", "--bots", "1", "--headless", "--name", name)
            # By default the host probes its name as a user's does; --no-probe is how the tests run it.
            skip = [] if probe else ["--no-probe"]
            return Lines(lan.command(index, [*argv, "--interface", lan.address(index), *skip]))

        def browser(index: int) -> Lines:
            return Lines(lan.command(index, cardnet("list", "--watch", "--json", "--interface", lan.address(index))))

        def listed(name: str, present: bool) -> Any:
            return lambda tables: any(t["name"] == name for t in tables) == present

        def series(probe: bool) -> dict[str, Any]:
            startup, announce, total, removal = [], [], [], []
            watcher = browser(1)
            try:
                for run in range(args.runs):
                    name = unique(f"bench{run}")
                    started = time.monotonic()
                    table = host(0, name, probe)
                    try:
                        listening, _ = table.wait_line(lambda line: line.startswith("listening on"), 30)
                        seen, _ = watcher.wait_listing(listed(name, True), 30)
                        startup.append(listening - started)
                        announce.append(seen - listening)
                        total.append(seen - started)
                        table.proc.send_signal(signal.SIGKILL)
                        killed = time.monotonic()
                        gone, _ = watcher.wait_listing(listed(name, False), 30)
                        removal.append(gone - killed)
                    finally:
                        table.stop()
            finally:
                watcher.stop()
            return {
                "process_start_to_listening_s": summary(startup),
                "listening_to_seen_by_running_browser_s": summary(announce),
                "process_start_to_seen_s": summary(total),
                "sigkill_to_removed_s": summary(removal),
            }

        def unplugged(runs: int) -> dict[str, float]:
            """The host's machine drops off the LAN: no refused connection, no goodbye; probes time out."""
            removal = []
            watcher = browser(1)
            try:
                for run in range(runs):
                    name = unique(f"unplug{run}")
                    table = host(0, name, probe=False)
                    try:
                        watcher.wait_listing(listed(name, True), 30)
                        subprocess.run(["ip", "-n", lan.peers[0], "link", "set", "eth0", "down"], check=True)
                        dropped = time.monotonic()
                        gone, _ = watcher.wait_listing(listed(name, False), 30)
                        removal.append(gone - dropped)
                    finally:
                        subprocess.run(["ip", "-n", lan.peers[0], "link", "set", "eth0", "up"], check=True)
                        table.stop()
            finally:
                watcher.stop()
            return summary(removal)

        results["runs_per_series"] = args.runs
        results["with_name_probing"] = series(True)
        results["without_name_probing"] = series(False)
        results["unplugged_to_removed_s"] = unplugged(max(1, args.runs // 4))
        results["name_probing_cost_s_p50"] = round(
            results["with_name_probing"]["listening_to_seen_by_running_browser_s"]["p50"]
            - results["without_name_probing"]["listening_to_seen_by_running_browser_s"]["p50"],
            3,
        )

        # Idle traffic: a fresh table and a fresh browser, counted once both have settled into steady state.
        idle_table = host(0, unique("idle"))
        fresh = browser(2)
        try:
            idle_table.wait_line(lambda line: line.startswith("announced on the LAN"), 30)
            fresh.wait_listing(lambda tables: len(tables) == 1, 30)
            sniffer = subprocess.Popen(
                ["ip", "netns", "exec", lan.bridge, sys.executable, __file__, "--sniff", "br0", str(args.idle)],
                stdout=subprocess.PIPE,
                text=True,
            )
            assert sniffer.stdout is not None
            assert sniffer.stdout.readline().strip() == "ready"
            counts = json.loads(sniffer.stdout.readline())
            sniffer.wait()
        finally:
            fresh.stop()
            idle_table.stop()
        per_minute = 60.0 / args.idle
        results["idle_mdns_packets_per_minute"] = {
            "seconds_counted": args.idle,
            "table": round(counts.get(lan.address(0), 0) * per_minute, 1),
            "browser": round(counts.get(lan.address(2), 0) * per_minute, 1),
            "others": sum(v for k, v in counts.items() if k not in (lan.address(0), lan.address(2))),
        }
        results["tcp_liveness_probes_per_minute_per_browser_and_table"] = round(60.0 / PROBE_INTERVAL, 1)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
