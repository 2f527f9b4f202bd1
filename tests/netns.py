"""A private LAN for tests and benchmarks: peer network namespaces on a bridge, torn down afterwards.

Each peer namespace has ``lo`` and an ``eth0`` (10.99.0.N/24) whose other end is a port of a bridge living in
a namespace of its own; nothing is added to the root namespace. Names carry the project prefix and this
process's id, so concurrent runs never touch each other, and leftovers of dead runs are removed first.
Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN) and iproute2.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

PREFIX = "cardnet-disc-"
SUBNET = "10.99.0"


def lan_unavailable() -> str | None:
    """Why namespaces cannot be made here, or None when they can."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "iproute2 (`ip`) is not installed"
    probe = f"{PREFIX}probe-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True, check=False)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "delete", probe], check=False)
    return None


def require_lan() -> None:
    """Skip on a developer's machine that cannot make namespaces; under CI fail instead (CI runs as root)."""
    import pytest

    reason = lan_unavailable()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the LAN tests: {reason}")
    pytest.skip(reason)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_leftovers() -> None:
    """Delete namespaces of earlier runs whose process is gone (a run killed before its teardown)."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=False).stdout
    for line in listed.splitlines():
        name = line.split()[0] if line.strip() else ""
        if not name.startswith(PREFIX):
            continue
        owner = name[len(PREFIX) :].split("-")[0]
        if owner.isdigit() and not _alive(int(owner)):
            subprocess.run(["ip", "netns", "delete", name], check=False, capture_output=True)


@dataclass(frozen=True)
class Lan:
    """The namespaces of one private LAN."""

    bridge: str
    peers: tuple[str, ...]

    def address(self, index: int) -> str:
        """Peer ``index``'s IPv4 address on the LAN."""
        return f"{SUBNET}.{index + 1}"

    def port(self, index: int) -> str:
        """The bridge port (in :attr:`bridge`) that carries peer ``index``'s traffic."""
        return f"p{index}"

    def command(self, index: int, argv: Sequence[str]) -> list[str]:
        """``argv`` run inside peer ``index``'s namespace."""
        return ["ip", "netns", "exec", self.peers[index], *argv]


@contextmanager
def private_lan(peers: int, tag: str = "lan") -> Iterator[Lan]:
    """Build a LAN of ``peers`` namespaces for the duration of the block; always torn down."""
    remove_leftovers()
    base = f"{PREFIX}{os.getpid()}-{tag}"
    lan = Lan(f"{base}-br", tuple(f"{base}-{i}" for i in range(peers)))
    made: list[str] = []
    try:
        for name in (lan.bridge, *lan.peers):
            _ip("netns", "add", name)
            made.append(name)
            # IPv4 only: no IPv6 neighbour discovery or MLD chatter in packet counts.
            _ip("netns", "exec", name, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
            _ip("-n", name, "link", "set", "lo", "up")
        _ip("-n", lan.bridge, "link", "add", "br0", "type", "bridge")
        _ip("-n", lan.bridge, "link", "set", "br0", "up")
        for index, name in enumerate(lan.peers):
            port = lan.port(index)
            _ip("-n", lan.bridge, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", name)
            _ip("-n", lan.bridge, "link", "set", port, "master", "br0", "up")
            _ip("-n", name, "addr", "add", f"{lan.address(index)}/24", "dev", "eth0")
            _ip("-n", name, "link", "set", "eth0", "up")
        yield lan
    finally:
        for name in reversed(made):
            subprocess.run(["ip", "netns", "delete", name], check=False, capture_output=True)
