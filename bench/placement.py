"""Where a benchmark's host and clients run: the CPU placements ``bench/net_rtt.py`` and
``bench/host_floor.py`` measure under (see net_rtt's documentation)."""

from __future__ import annotations

import os
from pathlib import Path

#: free: wherever the scheduler puts them; shared: host and clients on one CPU; split: on two.
PLACEMENTS = ("free", "shared", "split")


def pin_process(pid: int, cpus: set[int]) -> None:
    """Pins every thread of process ``pid`` to ``cpus``."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), cpus)


def placement_cpus(placement: str) -> tuple[set[int] | None, set[int] | None]:
    """The CPUs of the host and of the clients for ``placement``, from this process's own; None where ``free``
    leaves them to the scheduler."""
    cpus = sorted(os.sched_getaffinity(0))
    if placement == "free":
        return None, None
    if placement == "shared":
        return {cpus[0]}, {cpus[0]}
    if len(cpus) < 2:
        raise RuntimeError("--placement split needs two CPUs")
    return {cpus[0]}, {cpus[1]}
