"""A real LAN: three network namespaces on a bridge (tests/netns.py), one machine per namespace.

A host announces its table in one; `cardnet list`, `cardnet join NAME` and a bot by name find it from the
others and play a whole game across the LAN; a second table of the same name is renamed by mDNS probing; the
killed host and a machine that drops off the LAN leave the others' lists. Interop: `dig` and Avahi (an
independent mDNS implementation, with its own D-Bus daemon inside a namespace) see our table, and our browser
sees a table Avahi publishes.

Needs root: skipped on a developer's machine without it, failed under CI (which runs as root).
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from discohelpers import Lines, cardnet, env, hold_port, unique
from netns import Lan, private_lan, require_lan

HOST, NEAR, FAR = 0, 1, 2


@pytest.fixture(scope="module")
def lan() -> Iterator[Lan]:
    require_lan()
    with private_lan(3, "t") as made:
        yield made


def on(lan: Lan, index: int) -> list[str]:
    return ["--interface", lan.address(index)]


def at(address: str, name: str) -> Callable[[list[dict[str, Any]]], bool]:
    """A predicate: the list holds the table of this name at this host address."""
    return lambda tables: any(t["name"] == name and t["host"] == address for t in tables)


def run_in(lan: Lan, index: int, argv: list[str], timeout: float = 60, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        lan.command(index, argv), capture_output=True, text=True, env=env(), timeout=timeout, check=False, **kw
    )


def start_host(lan: Lan, index: int, name: str, *extra: str) -> Lines:
    # As a user runs it: mDNS name probing on (the clash test needs it).
    table = Lines(lan.command(index, cardnet("host", "fistful", "--headless", "--name", name, *on(lan, index), *extra)))
    if "--no-advertise" not in extra:
        table.wait_line(lambda line: line.startswith("announced on the LAN"), 20)
    else:
        table.wait_line(lambda line: line.startswith("journal:"), 20)
    return table


def test_a_table_is_found_and_played_across_the_lan_then_leaves_when_killed_or_unplugged(lan: Lan) -> None:
    name = unique("lan")
    table = start_host(lan, HOST, name)
    watcher = Lines(lan.command(NEAR, cardnet("list", "--watch", "--json", *on(lan, NEAR))))
    procs = [table, watcher]
    try:
        here = lan.address(HOST)
        watcher.wait_listing(at(here, name), 10)
        listed = run_in(lan, FAR, cardnet("list", "--json", "--timeout", "2", *on(lan, FAR)))
        entry = next(t for t in json.loads(listed.stdout) if t["name"] == name)
        assert (entry["host"], entry["seats_taken"], entry["seats_total"]) == (here, 0, 2)

        player = Lines(lan.command(NEAR, cardnet("join", name, "--name", "ann", *on(lan, NEAR))), stdin="1\n" * 3000)
        procs.append(player)
        bot = run_in(lan, FAR, cardnet("bot", "builtin:random", name, "--json", *on(lan, FAR)), timeout=120)
        assert bot.returncode == 0, bot.stderr
        assert json.loads(bot.stdout.splitlines()[-1])["outcome"] is not None
        player.wait_line(lambda line: "Game over" in line, 60)

        def full(tables: list[dict[str, Any]]) -> bool:
            return any(t["name"] == name and t["seats_taken"] == 2 and t["started"] for t in tables)

        watcher.wait_listing(full, 5)

        # The same name on another machine: mDNS probing renames the newcomer, and the new name is the one every
        # list shows and the one it is joined by.
        twin = start_host(lan, FAR, name, "--bots", "1")
        procs.append(twin)
        renamed = f"{name}-2"
        assert f"another table on the LAN is called {name!r}: this one is {renamed!r}" in twin.seen
        assert f"announced on the LAN: cardnet join {renamed!r}" in twin.seen
        watcher.wait_listing(at(lan.address(FAR), renamed), 10)
        listed = run_in(lan, NEAR, cardnet("list", "--json", "--timeout", "2", *on(lan, NEAR)))
        assert sorted(t["name"] for t in json.loads(listed.stdout) if t["name"].startswith(name)) == [name, renamed]
        watched = run_in(lan, NEAR, cardnet("join", renamed, "--spectate", *on(lan, NEAR)), input="quit\n")
        assert watched.returncode == 0 and f"Joined {renamed!r} (fistful), spectating." in watched.stdout

        table.proc.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        stamp, tables = watcher.wait_listing(lambda ts: not at(here, name)(ts), 6)
        assert stamp - killed <= 5.0 and at(lan.address(FAR), renamed)(tables)

        # A machine that drops off the LAN (no refused connection, no goodbye): its probes time out.
        subprocess.run(["ip", "-n", lan.peers[FAR], "link", "set", "eth0", "down"], check=True)
        try:
            unplugged = time.monotonic()
            stamp, _ = watcher.wait_listing(lambda ts: not at(lan.address(FAR), renamed)(ts), 6)
            assert stamp - unplugged <= 5.0
        finally:
            subprocess.run(["ip", "-n", lan.peers[FAR], "link", "set", "eth0", "up"], check=True)
    finally:
        for proc in procs:
            proc.stop()


DBUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""

AVAHI_CONF = """[server]
host-name=cardnet-avahi
use-ipv4=yes
use-ipv6=no
allow-interfaces=eth0
enable-dbus=yes
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
"""


class Avahi:
    """avahi-daemon with a D-Bus daemon of its own, in one namespace."""

    def __init__(self, lan: Lan, index: int, workdir: Path) -> None:
        self.lan, self.index = lan, index
        socket = workdir / "dbus.sock"
        (workdir / "dbus.conf").write_text(DBUS_CONF.format(socket=socket))
        (workdir / "avahi.conf").write_text(AVAHI_CONF)
        self.env = env() | {"DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={socket}"}
        self.procs: list[subprocess.Popen[bytes]] = []
        self.spawn(["dbus-daemon", f"--config-file={workdir / 'dbus.conf'}", "--nofork", "--nopidfile"])
        deadline = time.monotonic() + 10
        while not socket.exists():
            assert time.monotonic() < deadline, "dbus-daemon did not start"
            time.sleep(0.05)
        # `ip netns exec` gives the command a mount namespace of its own: the daemon's runtime directory
        # (pid file, socket) is a private tmpfs, never the machine's /run/avahi-daemon.
        daemon = (
            "mkdir -p /run/avahi-daemon && mount -t tmpfs cardnet-avahi /run/avahi-daemon && "
            f"exec avahi-daemon --no-chroot --no-drop-root --no-rlimits -f {workdir / 'avahi.conf'}"
        )
        self.spawn(["sh", "-c", daemon])

    def spawn(self, argv: list[str]) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            self.lan.command(self.index, argv), env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.procs.append(proc)
        return proc

    def browse(self, instance: str, timeout: float) -> list[str]:
        """avahi-browse's resolved record (split at ';') for ``instance``, waiting for it up to ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while True:
            out = subprocess.run(
                self.lan.command(self.index, ["avahi-browse", "-rpt", "_cardnet._tcp"]),
                capture_output=True,
                text=True,
                env=self.env,
                timeout=20,
                check=False,
            ).stdout
            for line in out.splitlines():
                fields = line.split(";")
                if fields[0] == "=" and fields[3] == instance:
                    return fields
            assert time.monotonic() < deadline, f"avahi-browse never listed {instance}: {out}"
            time.sleep(0.3)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_dig_and_avahi_see_our_table_and_we_see_avahis(lan: Lan, tmp_path: Path) -> None:
    name = unique("interop")
    table = start_host(lan, HOST, name, "--bots", "1")
    procs: list[Lines] = [table]
    avahi = Avahi(lan, FAR, tmp_path)
    try:
        # dig: a one-shot unicast DNS-SD query to the responder's address answers PTR, SRV, TXT and A.
        dig = run_in(lan, FAR, ["dig", "-p", "5353", f"@{lan.address(HOST)}", "_cardnet._tcp.local", "PTR"])
        assert dig.returncode == 0, dig.stderr
        records = {
            (fields[0], fields[3], " ".join(fields[4:]))
            for fields in (line.split() for line in dig.stdout.splitlines())
            if len(fields) >= 5 and not fields[0].startswith(";")
        }
        service = f"{name}._cardnet._tcp.local."
        port = int(next(line for line in table.seen if line.startswith("listening on")).rsplit(":", 1)[1])
        target = next(rdata.split()[-1] for owner, kind, rdata in records if kind == "SRV" and owner == service)
        assert ("_cardnet._tcp.local.", "PTR", service) in records, dig.stdout
        assert (service, "SRV", f"0 0 {port} {target}") in records and (target, "A", lan.address(HOST)) in records
        txt = next(rdata for owner, kind, rdata in records if kind == "TXT" and owner == service)
        assert txt.startswith('"txtvers=1" "proto=1" "game=fistful" "seats=1/2"'), txt

        # Avahi lists our table with its TXT.
        fields = avahi.browse(name, 15)
        assert fields[2] == "IPv4" and fields[7] == lan.address(HOST) and fields[8] == str(port)
        entries = {item.strip('"') for item in fields[9].split(" ")}
        assert {"txtvers=1", "proto=1", "game=fistful", "seats=1/2", "pw=no", "seeded=no", "started=no"} <= entries

        # A table Avahi publishes (its cardnet host announces nothing itself) is found by our browser.
        published = unique("avahi")
        behind = start_host(lan, FAR, unique("behind avahi"), "--bots", "1", "--port", "47001", "--no-advertise")
        procs.append(behind)
        avahi.spawn(["avahi-publish", "-s", published, "_cardnet._tcp", "47001", "txtvers=1", "game=fistful"])
        deadline = time.monotonic() + 20
        while True:
            listed = run_in(lan, NEAR, cardnet("list", "--json", "--timeout", "2", *on(lan, NEAR)))
            found = [t for t in json.loads(listed.stdout or "[]") if t["service"] == published]
            if found or time.monotonic() > deadline:
                break
        assert found, listed.stderr
        assert (found[0]["host"], found[0]["port"], found[0]["game"]) == (lan.address(FAR), 47001, "fistful")
        assert found[0]["name"].startswith("behind avahi")
    finally:
        avahi.stop()
        for proc in procs:
            proc.stop()


def test_a_restarted_host_is_found_again_across_the_lan_even_on_a_new_port(lan: Lan, tmp_path: Path) -> None:
    """The evening's worst moment: the host dies twice; players and a spectator on other machines are back in
    their seats with nothing typed, the second time on a new port found by the table's id."""
    name = unique("evening")
    journal = tmp_path / "evening.journal"
    secret = tmp_path / "pw"
    secret.write_text("sesame\n")
    state = {"XDG_STATE_HOME": str(tmp_path / "host")}
    argv = ["--interface", lan.address(HOST), "--headless", "--seat-timeout", "120", "--password-file", str(secret)]
    first = ["cherki", "--players", "3", "--bots", "1", "--name", name, "--journal", str(journal)]

    def host(*how: str) -> Lines:
        started = Lines(lan.command(HOST, cardnet("host", *how, *argv)), extra_env=state)
        started.wait_line(lambda line: line.startswith("announced on the LAN"), 20)
        return started

    def player(index: int, who: str, *extra: str) -> Lines:
        argv = cardnet("join", name, *on(lan, index), "--password-file", str(secret), "--reconnect-for", "60", *extra)
        return Lines(lan.command(index, argv), hold_stdin=True, extra_env={"CARDNET_NAME": who, **state})

    table = host(*first)
    procs = [table]
    try:
        port = int(next(line for line in table.seen if line.startswith("listening on")).rpartition(":")[2])
        ann = player(NEAR, "ann")
        bob = player(FAR, "bob")
        eve = player(FAR, "eve", "--spectate")
        procs += [ann, bob, eve]
        for seated in (ann, bob):
            seated.wait_line(lambda line: line.startswith("Seat token"), 30)
        eve.wait_line(lambda line: line.startswith("Joined"), 30)

        table.proc.send_signal(signal.SIGKILL)
        table.proc.wait(10)
        table = host("--resume", str(journal))
        procs.append(table)
        assert f"listening on {lan.address(HOST)}:{port}" in table.seen
        for peer in (ann, bob, eve):
            peer.wait_line(lambda line: line == "Reconnected to the host.", 40)

        table.proc.send_signal(signal.SIGKILL)
        table.proc.wait(10)
        procs.append(hold_port(lan, HOST, port))
        table = host("--resume", str(journal))
        procs.append(table)
        assert any(line.startswith(f"port {port} is in use") for line in table.seen)
        for peer in (ann, bob, eve):
            peer.wait_line(lambda line: line == "Reconnected to the host.", 40)

        # Closing on purpose ends every client at once, with exit code 0.
        table.proc.send_signal(signal.SIGTERM)
        for peer in (ann, bob, eve):
            peer.wait_line(lambda line: line == "The host closed the table.", 20)
            assert peer.proc.wait(10) == 0
    finally:
        for proc in procs:
            proc.stop()
