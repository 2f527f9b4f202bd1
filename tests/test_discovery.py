"""LAN discovery on loopback, in process: TXT records, live listings, liveness probes, names and interfaces.

Every mDNS stack here is bound to 127.0.0.1 and every table has a unique name (other tests share ``lo``).
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial

import pytest
import trio

import cardnet
from cardnet.net.host import Host, HostOptions
from cardnet.net import discovery as D
from cardnet.net.discovery import Listing, TableBrowser, TableSummary
from cardnet.protocol.host import HostSession
from cardnet.table import Table, TableConfig, core_engine

from discohelpers import unique
from nethelpers import RawClient, child_env

LO = ["127.0.0.1"]


def make_table(name: str, *, game: str = "fistful", players: int = 2, bots: dict[int, str] | None = None) -> Table:
    config = TableConfig(
        game=game,
        players=players,
        seed=5,
        seeded=True,
        name=name,
        table_id=unique("id").replace("-", "")[-16:],
        bots=dict(bots if bots is not None else {1: "random"}),
    )
    return Table(config, core_engine(), clock=trio.current_time)


@asynccontextmanager
async def serving(table: Table, port: int = 0) -> AsyncIterator[Host]:
    host = Host(table, options=HostOptions())
    async with trio.open_nursery() as nursery:
        await nursery.start(host.serve, "127.0.0.1", port)
        yield host
        nursery.cancel_scope.cancel()


async def announce(nursery: trio.Nursery, host: Host, *, probe: bool = False) -> D.Advertisement:
    ad: D.Advertisement = await nursery.start(
        lambda task_status: D.advertise_table(
            lambda: host.session.table_info(""),
            host.port or 0,
            interfaces=LO,
            probe=probe,
            task_status=task_status,
        )
    )
    return ad


async def until(browser: TableBrowser, accept: Callable[[list[Listing]], bool], timeout: float) -> list[Listing]:
    with trio.fail_after(timeout):
        async for listings in browser.changes():
            if accept(listings):
                return listings
    raise AssertionError("unreachable")


def one(name: str, **fields: object) -> Callable[[list[Listing]], bool]:
    def accept(listings: list[Listing]) -> bool:
        return any(
            item.name == name and all(getattr(item.summary, k) == v for k, v in fields.items()) for item in listings
        )

    return accept


def none_named(name: str) -> Callable[[list[Listing]], bool]:
    return lambda listings: all(item.name != name for item in listings)


# -- TXT ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
def test_txt_starts_with_txtvers_stays_under_200_bytes_and_reads_back(game: str) -> None:
    info = cardnet.GAMES[game]
    table = make_table("x" * 80, game=game, players=int(info.max_players), bots={})
    message = HostSession(table, HostOptions(password="secret")).table_info("challenge")
    summary = TableSummary.from_table_info(message)
    txt = summary.txt()
    assert list(txt)[0] == "txtvers" and txt["txtvers"] == "1"
    assert txt["game"] == game and txt["seats"] == f"0/{info.max_players}" and txt["pw"] == "yes"
    assert txt["seeded"] == "yes" and txt["started"] == "no" and txt["id"] == table.config.table_id
    assert txt["opts"] == D.options_digest(message.options) and len(txt["opts"]) == 8
    wire = D.txt_bytes(txt)
    assert wire.startswith(b"\x09txtvers=1") and len(wire) < D.MAX_TXT_BYTES
    # The TXT never carries the name: a long name cannot push it over the limit.
    back = TableSummary.from_txt(summary.name, txt)
    assert back == summary


def test_the_web_seats_port_is_in_the_txt_record_only_when_there_is_one() -> None:
    session = HostSession(make_table(unique("web")))
    without = TableSummary.from_table_info(session.table_info("")).txt()
    assert "web" not in without
    session.web_port = 8081
    summary = TableSummary.from_table_info(session.table_info(""))
    txt = summary.txt()
    assert list(txt)[-1] == "web" and txt["web"] == "8081" and len(D.txt_bytes(txt)) < D.MAX_TXT_BYTES
    assert TableSummary.from_txt(summary.name, txt).web == 8081
    assert TableSummary.from_txt(summary.name, without).web is None
    for bad in ("0", "65536", "-1", "80a", ""):
        with pytest.raises(ValueError):
            TableSummary.from_txt(summary.name, txt | {"web": bad})


def test_a_txt_record_of_another_version_or_malformed_is_refused() -> None:
    good = TableSummary("t", "ten", 1, 4, "abcd", False, False, True, "0123abcd").txt()
    with pytest.raises(ValueError, match="TXT version"):
        TableSummary.from_txt("t", good | {"txtvers": "2"})
    with pytest.raises(ValueError, match="lacks 'seats'"):
        TableSummary.from_txt("t", {k: v for k, v in good.items() if k != "seats"})
    with pytest.raises(ValueError, match="yes or no"):
        TableSummary.from_txt("t", good | {"pw": "maybe"})
    info = HostSession(make_table(unique("noversion"))).table_info("")
    with pytest.raises(ValueError, match="no protocol version"):
        TableSummary.from_table_info(dataclasses.replace(info, versions=()))


@pytest.mark.parametrize(
    "change",
    [
        {"seats": "-1/4"},
        {"seats": "5/4"},
        {"seats": "0/0"},
        {"seats": " 1/4"},
        {"seats": "\u0663/4"},  # an Arabic-Indic three: int() takes it
        {"seats": "1_0/20"},
        {"seats": "1/999"},
        {"proto": "1,-2"},
        {"proto": "\u0661"},
        {"proto": "0"},
        {"game": "\x1b[2Jten"},
        {"game": ""},
        {"id": ""},
        {"id": "ab cd"},
        {"id": "\x07"},
        {"opts": "ZZZZ"},
        {"opts": "0123abcd\n"},
    ],
)
def test_a_txt_record_with_a_value_no_host_writes_is_refused(change: dict[str, str]) -> None:
    good = TableSummary("t", "ten", 1, 4, "abcd", False, False, True, "0123abcd").txt()
    assert TableSummary.from_txt("t", good).seats_taken == 1
    with pytest.raises(ValueError):
        TableSummary.from_txt("t", good | change)


@pytest.mark.parametrize("name", ["\x1b]0;owned\x07", "a\nb", "\ud800", "x\x9bJ"])
def test_a_listing_whose_name_could_drive_the_terminal_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="control characters"):
        TableSummary(name, "ten", 1, 4, "abcd", False, False, True, "0123abcd").checked()
    assert TableSummary("Zoë's ☕ table", "ten", 1, 4, "abcd", False, False, True, "0123abcd").checked()


@pytest.mark.trio
@pytest.mark.parametrize(
    "fields",
    [
        {"game": "\x1b[31mten"},
        {"name": "evil\x1b[2J"},
        {"players": 2, "seats": [{"kind": "human"}] * 3},
        {"players": 0},
        {"table_id": "a b"},
        {"versions": [0]},
    ],
)
async def test_a_probe_of_a_host_whose_table_line_no_host_sends_finds_no_table(fields: dict[str, object]) -> None:
    import json

    line: dict[str, object] = {
        "type": "table",
        "versions": [1],
        "capabilities": [],
        "table_id": "abcd",
        "name": "t",
        "game": "ten",
        "players": 2,
        "options": {},
        "seeded": False,
        "password": False,
        "challenge": "c",
        "started": False,
        "game_no": 0,
        "seats": [],
    }

    async def serve(stream: trio.SocketStream) -> None:
        await stream.send_all(json.dumps(line).encode() + b"\n")
        await trio.sleep(1)

    async with trio.open_nursery() as nursery:
        (listener,) = await nursery.start(partial(trio.serve_tcp, serve, 0, host="127.0.0.1"))
        port = listener.socket.getsockname()[1]
        assert await D.probe_table("127.0.0.1", port) is not None
        line.update(fields)
        assert await D.probe_table("127.0.0.1", port) is None
        nursery.cancel_scope.cancel()


def test_instance_names_are_one_label_of_at_most_63_bytes() -> None:
    assert D.instance_label("ann's table v1.2") == "ann's table v1_2"
    long = D.instance_label("é" * 40)
    assert len(long.encode()) <= 63 and long == "é" * 31
    assert D.instance_label("  \n ") == "cardnet table"


def test_addresses_and_names() -> None:
    assert D.parse_address("10.0.0.5:7777") == ("10.0.0.5", 7777)
    assert D.parse_address("[::1]:80") == ("::1", 80)
    assert D.parse_address("ann's table") is None
    assert D.parse_address("game:night") is None and D.parse_address("x:70000") is None

    def listing(name: str, service: str | None = None) -> Listing:
        return Listing(service or name, TableSummary(name, "ten", 1, 2, "i", False, False, False, "d"), "h", 1)

    ann, anne, anne2 = listing("ann"), listing("anne's ten"), listing("anne's ten", "anne's ten-2")
    tables = [ann, anne, anne2]
    assert D.match_tables("ann", tables) == [ann]  # an exact name wins over longer names it prefixes
    assert D.match_tables("ANNE", tables) == [anne, anne2]  # a prefix, any case: ambiguous
    assert D.match_tables("anne's ten-2", tables) == [anne2]  # the instance name picks one of twins
    assert D.match_tables("bob", tables) == []


def test_interfaces_must_be_named_under_test_and_are_ipv4(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDNET_TEST", "1")
    with pytest.raises(D.InterfaceError, match="--interface is required"):
        D.choose_interfaces([])
    with pytest.raises(D.InterfaceError, match="IPv4"):
        D.choose_interfaces(["eth0"])
    assert D.choose_interfaces(["127.0.0.1", "127.0.0.1"]) == ["127.0.0.1"]
    monkeypatch.delenv("CARDNET_TEST")
    monkeypatch.delenv("CI", raising=False)
    found = D.lan_interfaces()
    assert all(not address.startswith("127.") for address in found)
    if found:
        assert D.choose_interfaces([]) == found
    else:
        with pytest.raises(D.InterfaceError, match="no IPv4 network interface"):
            D.choose_interfaces([])
    with pytest.raises(D.InterfaceError):
        trio.run(D.list_tables, ["::1"], 0.1)


def test_zeroconf_loads_only_when_discovery_runs() -> None:
    code = (
        "import sys\n"
        "import cardnet, cardnet.cli, cardnet.commands.discovery, cardnet.commands.net\n"
        "assert 'trio' not in sys.modules and 'zeroconf' not in sys.modules\n"
        "import cardnet.net.discovery\n"
        "assert 'zeroconf' not in sys.modules, 'zeroconf was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=child_env())


# -- live listings ------------------------------------------------------------------------------------------------


@pytest.mark.trio
async def test_a_listing_follows_the_seats_filling_and_the_txt_is_updated() -> None:
    name = unique("seats")
    async with serving(make_table(name)) as host, trio.open_nursery() as nursery:
        ad = await announce(nursery, host)
        assert ad.name == name
        async with D.browse(LO) as browser:
            listings = await until(browser, one(name, seats_taken=1, started=False), 10)
            listing = next(item for item in listings if item.name == name)
            assert (listing.host, listing.port, listing.service) == ("127.0.0.1", host.port, name)
            client = await RawClient.connect(host.port or 0)
            welcome = await client.join("ann")
            assert welcome["type"] == "welcome"
            await until(browser, one(name, seats_taken=2, started=True), 5)
        # The TXT record itself, as an independent mDNS stack reads it.
        with trio.fail_after(5):
            while ad.summary.seats_taken != 2:
                await trio.sleep(0.05)
        text = await trio.to_thread.run_sync(read_txt, f"{ad.name}.{D.SERVICE_TYPE}")
        assert text.startswith(b"\x09txtvers=1") and len(text) < D.MAX_TXT_BYTES
        assert b"\x09seats=2/2" in text and b"\x0bstarted=yes" in text and ad.updates_sent >= 1
        await client.aclose()
        nursery.cancel_scope.cancel()


def read_txt(service: str) -> bytes:
    """The TXT record of ``service`` as a fresh zeroconf stack on loopback resolves it."""
    from zeroconf import IPVersion, Zeroconf

    zc = Zeroconf(interfaces=LO, ip_version=IPVersion.V4Only)
    try:
        info = zc.get_service_info(D.SERVICE_TYPE, service, timeout=3000)
        assert info is not None, f"{service} did not resolve"
        return bytes(info.text)
    finally:
        zc.close()


@pytest.mark.trio
async def test_a_withdrawn_table_is_gone_at_once() -> None:
    name = unique("bye")
    async with serving(make_table(name)) as host, D.browse(LO) as browser:
        async with trio.open_nursery() as nursery:
            await announce(nursery, host)
            await until(browser, one(name), 10)
            nursery.cancel_scope.cancel()
        gone = trio.current_time()
        await until(browser, none_named(name), 1.0)
        assert trio.current_time() - gone < 1.0


@pytest.mark.trio
async def test_a_table_that_stops_answering_is_dropped_within_5_s_and_reappears_when_back() -> None:
    name = unique("crash")
    table = make_table(name)
    async with D.browse(LO) as browser, trio.open_nursery() as nursery:
        async with serving(table) as host:
            port = host.port or 0
            # The advertisement outlives the host's socket: mDNS keeps claiming a table nobody answers for,
            # as after a crash.
            await announce(nursery, host)
            await until(browser, one(name), 10)
        died = trio.current_time()
        await until(browser, none_named(name), 5)
        assert trio.current_time() - died <= D.PROBE_INTERVAL + D.PROBE_TIMEOUT + 0.5
        async with serving(table, port):
            await until(browser, one(name), D.RETRY_INTERVAL + D.PROBE_TIMEOUT + 1)
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_a_name_names_one_table_exactly_or_by_a_unique_prefix() -> None:
    # Name clashes (probing renames the second "NAME" to "NAME-2") are tested on the namespace LAN: on one
    # loopback the probe's unicast answer reaches a random one of the stacks sharing port 5353.
    name = unique("pair")
    async with serving(make_table(f"{name} one")) as first, serving(make_table(f"{name} two")) as second:
        async with trio.open_nursery() as nursery:
            await announce(nursery, first)
            await announce(nursery, second)
            with pytest.raises(D.AmbiguousTable) as refused:
                await D.find_table(name, LO, 2)
            assert {item.port for item in refused.value.candidates} == {first.port, second.port}
            assert f"127.0.0.1:{second.port}" in str(refused.value)
            found = await D.find_table(f"{name} T", LO, 2)
            assert found.port == second.port and found.name == f"{name} two"
            exact = await D.find_table(f"{name} one", LO, 3)
            assert exact.port == first.port
            with pytest.raises(D.NoSuchTable, match="no table named"):
                await D.find_table(unique("nobody"), LO, 0.5)
            nursery.cancel_scope.cancel()
