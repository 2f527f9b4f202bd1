"""LAN discovery: tables announce themselves over mDNS/DNS-SD and everyone on the LAN lists them.

A host registers ``_cardnet._tcp.local.`` with the table's name as instance name and a short TXT record
(:class:`TableSummary`), kept current as seats fill and the game starts, and withdrawn (goodbye packets) when
it stops. A browser delivers the live list of tables into trio; mDNS alone would keep a crashed host listed for
~19 minutes, so every listing is confirmed by a cheap TCP probe (the host speaks first: its ``table`` line is
the truth) and dropped as soon as a probe fails.

python-zeroconf runs its own asyncio loop in a thread. Everything here builds the ``Zeroconf`` object in a
worker thread, runs its blocking calls through :func:`trio.to_thread.run_sync` and hands browser callbacks to
trio with the trio token. zeroconf is imported only when a function here needs it.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import re
import socket
import unicodedata
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import trio

from ..i18n import gettext as _
from ..protocol import ProtocolError, TableInfo, canonical, decode_line
from ..protocol.peer import HOST_MAX_DEPTH

if TYPE_CHECKING:
    from zeroconf import ServiceInfo, ServiceStateChange, Zeroconf

SERVICE_TYPE = "_cardnet._tcp.local."
TXT_VERSION = "1"
#: The TXT record must stay small enough to travel with the PTR answer in one packet.
MAX_TXT_BYTES = 200
#: An instance name is one DNS label.
MAX_INSTANCE_BYTES = 63

#: How often a confirmed listing is probed again, and how long a probe may take. A dead table is dropped after
#: at most PROBE_INTERVAL + PROBE_TIMEOUT seconds (the design asks for 5 s).
PROBE_INTERVAL = 1.0
PROBE_TIMEOUT = 1.5
#: A listing whose probe failed is retried this often while mDNS still lists it, so a table that comes back
#: reappears.
RETRY_INTERVAL = 2.0
#: The ``table`` line is a few hundred bytes; anything this long is not a cardnet host.
MAX_TABLE_LINE = 256 * 1024


class DiscoveryError(Exception):
    """Base of discovery's errors."""


class InterfaceError(DiscoveryError):
    """No usable interface: none given where one is required, a bad address, or none up."""


class TargetError(DiscoveryError):
    """A table name that names no table, or more than one."""


class NoSuchTable(TargetError):
    """No table of that name (or name prefix) answered on the LAN."""


class AmbiguousTable(TargetError):
    """Several tables match the name; ``candidates`` lists them."""

    def __init__(self, message: str, candidates: Sequence[Listing]) -> None:
        super().__init__(message)
        self.candidates = list(candidates)


# -- what a table tells the LAN ----------------------------------------------------------------------------------


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _flag(props: Mapping[str, str], key: str) -> bool:
    value = props.get(key)
    if value not in ("yes", "no"):
        raise ValueError(f"TXT key {key!r} must be yes or no, not {value!r}")
    return value == "yes"


#: What a listing's fields may hold when they come from another machine (a TXT record or a ``table`` line).
_GAME_RE = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_TABLE_ID_RE = re.compile(r"[\x21-\x7e]{1,64}")
_DIGEST_RE = re.compile(r"[0-9a-f]{8}")
#: ASCII digits only: int() alone also takes "-1", " 2", "1_0" and other scripts' digits such as "٣".
_TXT_NUMBER_RE = re.compile(r"[0-9]{1,6}")
#: More seats than any game has; a listing claiming more is not a cardnet table.
MAX_LISTED_SEATS = 255


def _txt_number(key: str, text: str) -> int:
    if not _TXT_NUMBER_RE.fullmatch(text):
        raise ValueError(f"TXT key {key!r} must hold decimal numbers, not {text!r}")
    return int(text)


def _has_control(text: str) -> bool:
    """Whether ``text`` holds a control character or a lone surrogate (a terminal escape, a line break, text
    that cannot be encoded): shown in a list, such text could redraw or garble the reader's screen."""
    return any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text)


def options_digest(options: Any) -> str:
    """A short digest of a table's resolved options (equal options, equal digest)."""
    return hashlib.sha256(canonical(options).encode("ascii")).hexdigest()[:8]


@dataclass(frozen=True)
class TableSummary:
    """What a listing says about a table: the TXT record's contents, or the same read from a ``table`` line."""

    name: str
    game: str
    seats_taken: int
    seats_total: int
    table_id: str
    password: bool
    seeded: bool
    started: bool
    options_digest: str
    versions: tuple[int, ...] = (1,)

    @classmethod
    def from_table_info(cls, info: TableInfo) -> TableSummary:
        """What a host's ``table`` message says, as a listing (raises ValueError when it names no version)."""
        if not info.versions:
            raise ValueError("a table message lists no protocol version")
        return cls(
            name=info.name,
            game=info.game,
            seats_taken=sum(1 for seat in info.seats if isinstance(seat, dict) and seat.get("kind") != "open"),
            seats_total=info.players,
            table_id=info.table_id,
            password=info.password,
            seeded=info.seeded,
            started=info.started,
            options_digest=options_digest(info.options),
            versions=info.versions,
        )

    def checked(self) -> TableSummary:
        """This summary when every field holds what a cardnet host sends; raises ValueError otherwise.

        Listings come from any machine on the LAN: a hostile one must not get escape sequences onto the
        reader's terminal, nor impossible seat counts into its lists.
        """
        if _has_control(self.name):
            raise ValueError(f"the table's name {self.name!r} holds control characters")
        if not _GAME_RE.fullmatch(self.game):
            raise ValueError(f"{self.game!r} is not a game name")
        if not 1 <= self.seats_total <= MAX_LISTED_SEATS or not 0 <= self.seats_taken <= self.seats_total:
            raise ValueError(f"impossible seat counts {self.seats_taken}/{self.seats_total}")
        if not _TABLE_ID_RE.fullmatch(self.table_id):
            raise ValueError(f"{self.table_id!r} is not a table id")
        if not _DIGEST_RE.fullmatch(self.options_digest):
            raise ValueError(f"{self.options_digest!r} is not an options digest")
        if not self.versions or not all(1 <= v <= 999_999 for v in self.versions):
            raise ValueError(f"protocol versions {self.versions!r} are not valid")
        return self

    def txt(self) -> dict[str, str]:
        """The TXT record as ordered key/value pairs (``txtvers`` first, RFC 6763 § 6.7)."""
        return {
            "txtvers": TXT_VERSION,
            "proto": ",".join(str(v) for v in self.versions),
            "game": self.game,
            "seats": f"{self.seats_taken}/{self.seats_total}",
            "id": self.table_id,
            "pw": _yes_no(self.password),
            "seeded": _yes_no(self.seeded),
            "started": _yes_no(self.started),
            "opts": self.options_digest,
        }

    @classmethod
    def from_txt(cls, instance: str, props: Mapping[str, str]) -> TableSummary:
        """Read a TXT record (the instance name stands in for the table's name); raises ValueError on a record
        that is not what :meth:`txt` writes (see :meth:`checked`)."""
        if props.get("txtvers") != TXT_VERSION:
            raise ValueError(f"unknown TXT version {props.get('txtvers')!r}")
        try:
            taken, _, total = props["seats"].partition("/")
            return cls(
                name=instance,
                game=props["game"],
                seats_taken=_txt_number("seats", taken),
                seats_total=_txt_number("seats", total),
                table_id=props["id"],
                password=_flag(props, "pw"),
                seeded=_flag(props, "seeded"),
                started=_flag(props, "started"),
                options_digest=props["opts"],
                versions=tuple(_txt_number("proto", v) for v in props["proto"].split(",")),
            ).checked()
        except KeyError as exc:
            raise ValueError(f"TXT record lacks {exc.args[0]!r}") from None


def txt_bytes(props: Mapping[str, str]) -> bytes:
    """The TXT record on the wire: one length-prefixed ``key=value`` string per entry."""
    out = bytearray()
    for key, value in props.items():
        item = f"{key}={value}".encode()
        if len(item) > 255:
            raise ValueError(f"TXT entry {key!r} is longer than 255 bytes")
        out += bytes([len(item)]) + item
    return bytes(out)


def instance_label(name: str) -> str:
    """The table's name as a DNS-SD instance name: one label, at most 63 bytes, no dots or control characters.

    python-zeroconf splits names at dots, so a dot would break the label in two; the full name still reaches
    every browser in the host's ``table`` line.
    """
    cleaned = "".join("_" if ch == "." else ch if ch.isprintable() else " " for ch in name)
    cleaned = " ".join(cleaned.split()) or "cardnet table"
    encoded = cleaned.encode("utf-8")[:MAX_INSTANCE_BYTES]
    return encoded.decode("utf-8", errors="ignore")


def _instance_of(service_name: str) -> str:
    return service_name[: -len(SERVICE_TYPE) - 1] if service_name.endswith("." + SERVICE_TYPE) else service_name


# -- interfaces ---------------------------------------------------------------------------------------------------


def _interfaces_up() -> set[str] | None:
    """Names of the interfaces that are up (Linux's sysfs flags); None where that cannot be told."""
    root = Path("/sys/class/net")
    if not root.is_dir():
        return None
    up = set()
    for entry in root.iterdir():
        try:
            flags = int((entry / "flags").read_text().strip(), 16)
        except (OSError, ValueError):
            continue
        if flags & 0x1:  # IFF_UP
            up.add(entry.name)
    return up


def lan_interfaces() -> list[str]:
    """The machine's non-loopback IPv4 addresses on interfaces that are up (where a LAN table is announced)."""
    import ifaddr

    up = _interfaces_up()
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        if up is not None and adapter.name not in up:
            continue
        for ip in adapter.ips:
            if ip.is_IPv4 and isinstance(ip.ip, str) and not ipaddress.IPv4Address(ip.ip).is_loopback:
                found.append(ip.ip)
    return list(dict.fromkeys(found))


def test_mode() -> bool:
    """True under CI or CARDNET_TEST: nothing may then multicast on an interface nobody named."""
    return bool(os.environ.get("CI") or os.environ.get("CARDNET_TEST"))


def choose_interfaces(given: Sequence[str]) -> list[str]:
    """The IPv4 addresses to discover on: the ``--interface`` values, else :func:`lan_interfaces`.

    Raises :class:`InterfaceError` for an address that is not IPv4, when none is given under CI or
    CARDNET_TEST (so no test ever multicasts on a real interface), or when no interface is up.
    """
    if given:
        chosen: list[str] = []
        for text in given:
            try:
                address = ipaddress.IPv4Address(text)
            except ValueError:
                raise InterfaceError(
                    _("--interface {text!r}: give the IPv4 address of an interface").format(text=text)
                ) from None
            if address.is_unspecified:
                chosen.extend(lan_interfaces())
            else:
                chosen.append(str(address))
        return list(dict.fromkeys(chosen))
    if test_mode():
        raise InterfaceError(_("--interface is required when CI or CARDNET_TEST is set"))
    found = lan_interfaces()
    if not found:
        raise InterfaceError(_("no IPv4 network interface is up; use --interface 127.0.0.1 to play on this machine"))
    return found


# -- zeroconf in trio ---------------------------------------------------------------------------------------------


async def _open_zeroconf(interfaces: Sequence[str]) -> Zeroconf:
    """A Zeroconf stack bound to these IPv4 addresses, built in a worker thread so it runs its own loop thread
    (built in a trio task that is a guest of asyncio, it would attach to that loop and block it)."""

    def build() -> Zeroconf:
        from zeroconf import IPVersion, Zeroconf

        return Zeroconf(interfaces=list(interfaces), ip_version=IPVersion.V4Only)

    return await trio.to_thread.run_sync(build)


async def _close_zeroconf(zc: Zeroconf) -> None:
    """Close a stack (sending goodbyes for whatever it still has registered), even when cancelled."""
    with trio.CancelScope(shield=True):
        await trio.to_thread.run_sync(zc.close)


def _service_info(summary: TableSummary, port: int, addresses: Sequence[str], name: str) -> ServiceInfo:
    from zeroconf import ServiceInfo

    return ServiceInfo(
        SERVICE_TYPE,
        name,
        port=port,
        properties=dict(summary.txt()),
        # A host name of its own per table: tables on several machines (or namespaces) sharing one system host
        # name would otherwise claim each other's addresses.
        server=f"cardnet-{summary.table_id}.local.",
        addresses=[socket.inet_aton(a) for a in addresses],
    )


class Advertisement:
    """A registered table. :meth:`update` publishes a new summary (only when it changed), in the background."""

    def __init__(self, zc: Zeroconf, info: ServiceInfo, summary: TableSummary, addresses: Sequence[str]) -> None:
        self._zc = zc
        self._info = info
        self._addresses = list(addresses)
        self.summary = summary
        self._wanted = summary
        self._wake = trio.Event()
        self.updates_sent = 0

    @property
    def name(self) -> str:
        """The instance name actually registered (zeroconf's probing renames it on a clash: ``NAME-2``)."""
        return _instance_of(self._info.name)

    @property
    def port(self) -> int:
        """The advertised TCP port."""
        return int(self._info.port or 0)

    def update(self, summary: TableSummary) -> None:
        """Publish ``summary`` from now on (the newest one wins when updates come faster than they are sent)."""
        if summary != self._wanted:
            self._wanted = summary
            self._wake.set()

    async def _publisher(self) -> None:
        while True:
            await self._wake.wait()
            self._wake = trio.Event()
            wanted = self._wanted
            if wanted == self.summary:
                continue
            info = _service_info(wanted, self.port, self._addresses, self._info.name)
            await trio.to_thread.run_sync(self._zc.update_service, info)
            self._info, self.summary = info, wanted
            self.updates_sent += 1


def mdns_addresses(interfaces: Sequence[str]) -> list[str]:
    """The IPv4 addresses of ``interfaces`` that mDNS can use (``0.0.0.0`` stands for every LAN address)."""
    out: list[str] = []
    for text in interfaces:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if address.version != 4:
            continue
        out.extend(lan_interfaces() if address.is_unspecified else [str(address)])
    return list(dict.fromkeys(out))


@asynccontextmanager
async def advertise(
    summary: TableSummary, port: int, *, interfaces: Sequence[str], probe: bool = True
) -> AsyncIterator[Advertisement]:
    """Announce a table on ``interfaces`` (IPv4 addresses the table listens on) for the duration of the block.

    ``probe=False`` skips mDNS name probing (~1.3 s; ``cardnet host --no-probe``): only for a name known to be
    unique on the LAN; with probing a clash is resolved by renaming (``allow_name_change``). On leaving the
    block, however it is left, goodbye packets withdraw the table at once.
    """
    addresses = mdns_addresses(interfaces)
    if not addresses:
        raise InterfaceError(f"no IPv4 address to announce the table on among {list(interfaces)}")
    zc = await _open_zeroconf(addresses)
    try:
        info = _service_info(summary, port, addresses, f"{instance_label(summary.name)}.{SERVICE_TYPE}")
        register = partial(zc.register_service, info, allow_name_change=True, cooperating_responders=not probe)
        await trio.to_thread.run_sync(register)
        ad = Advertisement(zc, info, summary, addresses)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(ad._publisher)
            yield ad
            nursery.cancel_scope.cancel()
    finally:
        await _close_zeroconf(zc)


async def advertise_table(
    describe: Callable[[], TableInfo],
    port: int,
    *,
    interfaces: Sequence[str],
    probe: bool = True,
    poll: float = 0.25,
    renamed: Callable[[str], None] | None = None,
    task_status: trio.TaskStatus[Advertisement] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Advertise a running table until cancelled, keeping its TXT current.

    ``describe`` returns the table's ``table`` message (what a peer would be told on connecting); it is read
    every ``poll`` seconds and the TXT record is updated whenever its summary changes. When probing found the
    name taken and registered the table as ``NAME-2``, ``renamed`` is called with that name before
    ``started()`` gives the :class:`Advertisement`: the table should then call itself so everywhere, or two
    tables would show one name and neither could be joined by it.
    """
    summary = TableSummary.from_table_info(describe())
    async with advertise(summary, port, interfaces=interfaces, probe=probe) as ad:
        if renamed is not None and ad.name != instance_label(summary.name):
            renamed(ad.name)
        task_status.started(ad)
        while True:
            await trio.sleep(poll)
            ad.update(TableSummary.from_table_info(describe()))


# -- liveness -----------------------------------------------------------------------------------------------------


async def probe_table(host: str, port: int, timeout: float = PROBE_TIMEOUT) -> TableSummary | None:
    """Connect, read the host's first line (its ``table`` message) and hang up; None when no table answers."""
    with trio.move_on_after(timeout):
        try:
            stream = await trio.open_tcp_stream(host, port)
        except OSError:
            return None
        buf = bytearray()
        try:
            while b"\n" not in buf:
                chunk = await stream.receive_some(65536)
                if not chunk or len(buf) + len(chunk) > MAX_TABLE_LINE:
                    return None
                buf += chunk
        except (trio.BrokenResourceError, OSError):
            return None
        finally:
            await trio.aclose_forcefully(stream)
        try:
            message = decode_line(bytes(buf).partition(b"\n")[0], MAX_TABLE_LINE, HOST_MAX_DEPTH)
            if message.get("type") != "table":
                return None
            return TableSummary.from_table_info(TableInfo.parse(message)).checked()
        except (ProtocolError, ValueError):
            return None
    return None


# -- browsing -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Listing:
    """A live table: what its host said when last probed, and where it answered."""

    service: str
    summary: TableSummary
    host: str
    port: int

    @property
    def name(self) -> str:
        """The table's display name (from its ``table`` line)."""
        return self.summary.name

    @property
    def address(self) -> str:
        """``HOST:PORT``, what ``cardnet join`` also accepts."""
        return f"{self.host}:{self.port}"

    def as_json(self) -> dict[str, Any]:
        """The listing as a JSON object (``cardnet list --json``)."""
        s = self.summary
        return {
            "name": s.name,
            "service": self.service,
            "game": s.game,
            "seats_taken": s.seats_taken,
            "seats_total": s.seats_total,
            "password": s.password,
            "seeded": s.seeded,
            "started": s.started,
            "table_id": s.table_id,
            "host": self.host,
            "port": self.port,
        }


@dataclass
class _Watch:
    scope: trio.CancelScope
    poke: trio.Event = field(default_factory=trio.Event)


class TableBrowser:
    """The live list of tables on the LAN (see :func:`browse`)."""

    def __init__(
        self, zc: Zeroconf, nursery: trio.Nursery, *, probe_interval: float, probe_timeout: float, retry: float
    ) -> None:
        self._zc = zc
        self._nursery = nursery
        self._token = trio.lowlevel.current_trio_token()
        self._probe_interval = probe_interval
        self._probe_timeout = probe_timeout
        self._retry = retry
        self._listings: dict[str, Listing] = {}
        self._watches: dict[str, _Watch] = {}
        self._changed = trio.Event()
        self.version = 0
        #: Tables seen on mDNS whose first probe has not ended yet, and a pulse at anything seen or probed.
        self._unprobed: set[str] = set()
        #: Whether any table has announced itself yet (an empty LAN is only known once the whole look is over).
        self._seen_any = False
        self._activity = trio.Event()

    def listings(self) -> list[Listing]:
        """The tables that answered their last probe, by name."""
        return sorted(self._listings.values(), key=lambda item: (item.name.casefold(), item.service))

    async def changes(self) -> AsyncIterator[list[Listing]]:
        """The current list at once, then the list again each time it changes (intermediate lists may be
        skipped when the consumer is slower than the LAN)."""
        seen = -1
        while True:
            if self.version != seen:
                seen = self.version
                yield self.listings()
            await self._changed.wait()

    async def wait_changed(self) -> None:
        """Return at the next change of the list."""
        await self._changed.wait()

    async def settled(self, quiet: float) -> None:
        """Return once a table was seen, every table seen has answered (or failed) its first probe and nothing
        new has been seen for ``quiet`` seconds: the list is as complete as waiting longer would likely make it.
        While nothing at all was seen it never returns (the caller's timeout ends the look): the first answers
        on a LAN can take longer than ``quiet`` (query and response delays, a fresh interface)."""
        while True:
            with trio.move_on_after(quiet) as timer:
                await self._activity.wait()
            if timer.cancelled_caught and self._seen_any and not self._unprobed:
                return

    def _pulse(self) -> None:
        self._activity.set()
        self._activity = trio.Event()

    # Called by zeroconf in its browser thread.
    def _on_service_state_change(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        try:
            self._token.run_sync_soon(self._service_changed, name, state_change.name)
        except trio.RunFinishedError:
            pass

    def _service_changed(self, name: str, change: str) -> None:
        self._pulse()
        watch = self._watches.get(name)
        if change == "Removed":
            if watch is not None:
                watch.scope.cancel()
            self._unprobed.discard(name)
            self._set(name, None)
        elif watch is None:
            self._seen_any = True
            self._unprobed.add(name)
            self._nursery.start_soon(self._watch, name)
        else:
            watch.poke.set()

    def _set(self, name: str, listing: Listing | None) -> None:
        if self._listings.get(name) == listing:
            return
        if listing is None:
            self._listings.pop(name, None)
        else:
            self._listings[name] = listing
        self.version += 1
        self._changed.set()
        self._changed = trio.Event()

    async def _watch(self, name: str) -> None:
        watch = _Watch(trio.CancelScope())
        self._watches[name] = watch
        try:
            with watch.scope:
                while True:
                    listing = await self._check(name)
                    self._set(name, listing)
                    if name in self._unprobed:
                        self._unprobed.discard(name)
                        self._pulse()
                    with trio.move_on_after(self._probe_interval if listing is not None else self._retry):
                        await watch.poke.wait()
                    watch.poke = trio.Event()
        finally:
            if self._watches.get(name) is watch:
                del self._watches[name]
                self._unprobed.discard(name)

    async def _check(self, name: str) -> Listing | None:
        from zeroconf import IPVersion, ServiceInfo

        info = ServiceInfo(SERVICE_TYPE, name)
        # Address, port and TXT arrive with the first answer, so the cache nearly always has them.
        if not info.load_from_cache(self._zc):
            request = partial(self._zc.get_service_info, SERVICE_TYPE, name, int(self._probe_timeout * 1000))
            found = await trio.to_thread.run_sync(request, abandon_on_cancel=True)
            if found is None:
                return None
            info = found
        port = info.port
        if port is None:
            return None
        known = self._listings.get(name)
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if known is not None and known.host in addresses:
            addresses.remove(known.host)
            addresses.insert(0, known.host)
        for host in addresses:
            summary = await probe_table(host, port, self._probe_timeout)
            if summary is not None:
                return Listing(_instance_of(name), summary, host, port)
        return None


@asynccontextmanager
async def browse(
    interfaces: Sequence[str],
    *,
    probe_interval: float = PROBE_INTERVAL,
    probe_timeout: float = PROBE_TIMEOUT,
    retry: float = RETRY_INTERVAL,
) -> AsyncIterator[TableBrowser]:
    """Browse for tables on ``interfaces`` (IPv4 addresses) for the duration of the block.

    The :class:`TableBrowser` holds only tables that answer a TCP probe: one that stops answering is dropped
    within ``probe_interval + probe_timeout`` seconds, one that withdraws itself at once, and one that comes back
    reappears.
    """
    addresses = mdns_addresses(interfaces)
    if not addresses:
        raise InterfaceError(f"no IPv4 address to browse on among {list(interfaces)}")
    zc = await _open_zeroconf(addresses)
    try:
        async with trio.open_nursery() as nursery:
            browser = TableBrowser(zc, nursery, probe_interval=probe_interval, probe_timeout=probe_timeout, retry=retry)

            def start() -> Any:
                from zeroconf import DNSQuestionType, ServiceBrowser

                # QM: with several mDNS stacks on one machine, a unicast reply to the default QU question
                # reaches a random one of them and discovery then takes seconds instead of milliseconds.
                return ServiceBrowser(
                    zc,
                    SERVICE_TYPE,
                    handlers=[browser._on_service_state_change],
                    question_type=DNSQuestionType.QM,
                )

            service_browser = await trio.to_thread.run_sync(start)
            try:
                yield browser
            finally:
                with trio.CancelScope(shield=True):
                    await trio.to_thread.run_sync(service_browser.cancel)
                nursery.cancel_scope.cancel()
    finally:
        await _close_zeroconf(zc)


async def list_tables(interfaces: Sequence[str], timeout: float) -> list[Listing]:
    """The tables that answer within ``timeout`` seconds."""
    async with browse(interfaces) as browser:
        await trio.sleep(timeout)
        return browser.listings()


# -- table names --------------------------------------------------------------------------------------------------


def parse_address(text: str) -> tuple[str, int] | None:
    """``HOST:PORT`` (``[v6]:PORT`` too) into its parts; None when ``text`` is not an address."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if " " in host or "'" in host:
        return None
    return host, int(port)


def match_tables(text: str, listings: Iterable[Listing]) -> list[Listing]:
    """The listings ``text`` names: exact names (table or instance name) first, else unique-prefix candidates.

    Matching is exact first (a table named "ann" is found even when "anne's table" exists), then
    case-insensitive on prefixes.
    """
    items = list(listings)
    exact = [item for item in items if text in (item.name, item.service)]
    if exact:
        return exact
    folded = text.casefold()
    return [
        item for item in items if item.name.casefold().startswith(folded) or item.service.casefold().startswith(folded)
    ]


def describe(listing: Listing) -> str:
    """One line about a table, for lists and messages."""
    s = listing.summary
    flags = [f for f, on in (("password", s.password), ("seeded", s.seeded), ("started", s.started)) if on]
    extra = f", {', '.join(flags)}" if flags else ""
    return f"{s.name!r} ({s.game}, {s.seats_taken}/{s.seats_total} seats{extra}) at {listing.address}"


async def find_table(text: str, interfaces: Sequence[str], timeout: float, settle: float = 0.3) -> Listing:
    """The one table ``text`` names (see :func:`match_tables`), browsing up to ``timeout`` seconds.

    Browsing stops early once a table of exactly that name has answered and nothing new arrived for ``settle``
    seconds. Raises :class:`NoSuchTable` or :class:`AmbiguousTable`.
    """
    async with browse(interfaces) as browser:
        with trio.move_on_after(timeout):
            while True:
                if any(text in (item.name, item.service) for item in browser.listings()):
                    with trio.move_on_after(settle) as quiet:
                        await browser.wait_changed()
                    if quiet.cancelled_caught:
                        break
                else:
                    await browser.wait_changed()
        found = match_tables(text, browser.listings())
    if not found:
        raise NoSuchTable(
            _("no table named {name!r} on the LAN (looked {seconds} s on {interfaces})").format(
                name=text, seconds=f"{timeout:g}", interfaces=", ".join(interfaces)
            )
        )
    if len(found) > 1:
        lines = "\n".join(f"  {describe(item)}" for item in found)
        found_text = _("{count} tables match {name!r}; name one exactly or use HOST:PORT:").format(
            count=len(found), name=text
        )
        raise AmbiguousTable(f"{found_text}\n{lines}", found)
    return found[0]


async def locate_table(table_id: str, interfaces: Sequence[str], timeout: float) -> Listing | None:
    """The table whose id is ``table_id``, wherever it answers now (a host restarted on another port, or on a
    laptop that changed networks); None when it has not answered within ``timeout`` seconds."""
    async with browse(interfaces) as browser:
        with trio.move_on_after(timeout):
            while True:
                for item in browser.listings():
                    if item.summary.table_id == table_id:
                        return item
                await browser.wait_changed()
    return None


def resolve_target(text: str, interfaces: Sequence[str], timeout: float) -> tuple[str, int]:
    """``HOST:PORT`` as given, or the address of the table named ``text`` on the LAN (outside trio).

    ``interfaces`` are the ``--interface`` values (see :func:`choose_interfaces`); they matter only for a name.
    Raises :class:`TargetError` or :class:`InterfaceError`.
    """
    address = parse_address(text)
    if address is not None:
        return address
    chosen = choose_interfaces(interfaces)
    listing = trio.run(find_table, text, chosen, timeout)
    return listing.host, listing.port


__all__ = [
    "SERVICE_TYPE",
    "Advertisement",
    "AmbiguousTable",
    "DiscoveryError",
    "InterfaceError",
    "Listing",
    "NoSuchTable",
    "TableBrowser",
    "TableSummary",
    "TargetError",
    "advertise",
    "advertise_table",
    "browse",
    "choose_interfaces",
    "find_table",
    "lan_interfaces",
    "list_tables",
    "locate_table",
    "match_tables",
    "probe_table",
    "resolve_target",
]
