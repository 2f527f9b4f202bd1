"""Full-screen client figures, printed as JSON: idle CPU and key-to-screen latency.

- idle CPU: ``cardnet play fistful`` in a real terminal (a tmux pane), waiting for the player's move; the
  process's CPU time over ``--seconds`` is read from /proc (goal: at most 2 % of one core).
- key-to-screen latency: the client headless (pipe input), the time from writing an arrow key to the end of
  the redraw it causes, over ``--keys`` presses.

Usage: python bench/tui_idle.py [--seconds 10] [--keys 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from typing import Any


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def idle_cpu(seconds: float) -> dict[str, Any]:
    name = f"cardnet-bench-{uuid.uuid4().hex[:8]}"
    state = tempfile.mkdtemp()
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "cardnet", "play", "fistful", "--seed", "1"])
    env = f"env PYTHONPATH={shlex.quote(os.environ.get('PYTHONPATH', ''))} XDG_STATE_HOME={state} LANG=C.UTF-8"
    tmux = ["tmux", "-L", name]
    subprocess.run([*tmux, "new-session", "-d", "-s", name, "-x", "80", "-y", "24", f"{env} {command}"], check=True)
    try:
        deadline = time.monotonic() + 30
        while (
            "Your turn."
            not in subprocess.run([*tmux, "capture-pane", "-p", "-t", name], capture_output=True, text=True).stdout
        ):
            if time.monotonic() > deadline:
                raise SystemExit("the client did not start")
            time.sleep(0.1)
        pane = subprocess.run(
            [*tmux, "display-message", "-p", "-t", name, "#{pane_pid}"], capture_output=True, text=True
        ).stdout.strip()
        pid = int(pane)
        children = subprocess.run(["pgrep", "-P", pane], capture_output=True, text=True).stdout.split()
        if children:
            pid = int(children[0])
        time.sleep(1.0)
        before, start = _cpu_seconds(pid), time.monotonic()
        time.sleep(seconds)
        used, elapsed = _cpu_seconds(pid) - before, time.monotonic() - start
        return {"idle_cpu_percent_of_core": round(100 * used / elapsed, 3), "idle_seconds": round(elapsed, 1)}
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


async def _latency(keys: int) -> dict[str, Any]:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from cardnet.ui.app import Client, StartRequest

    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        client = Client(StartRequest(game="fistful", seed=1, player="random"))
        task = asyncio.ensure_future(client.run_async())
        while client.state.table is None or not client.state.table.my_turn:
            await asyncio.sleep(0.01)
        rendered = asyncio.Event()
        client.app.after_render += lambda _app: rendered.set()
        samples = []
        for _ in range(keys):
            await asyncio.sleep(0.01)
            rendered.clear()
            start = time.perf_counter()
            pipe.send_text("\x1b[C")
            await rendered.wait()
            samples.append((time.perf_counter() - start) * 1000)
        pipe.send_text("\x11")
        await task
    samples.sort()
    return {
        "key_to_screen_ms_median": round(statistics.median(samples), 2),
        "key_to_screen_ms_p95": round(samples[int(0.95 * (len(samples) - 1))], 2),
        "keys": keys,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--keys", type=int, default=200)
    args = parser.parse_args()
    os.environ.setdefault("XDG_STATE_HOME", tempfile.mkdtemp())
    figures = idle_cpu(args.seconds)
    figures.update(asyncio.run(_latency(args.keys)))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
