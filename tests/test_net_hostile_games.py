"""Hostile peers at tables of the real games: every bad line gets its documented error, and the table (its full
state, every other seat's view) stays exactly as it was; then the game plays on to the end and into a rematch."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest
import trio
import trio.testing

import cardnet
from cardnet import protocol as P
from cardnet.net.host import Host, HostOptions
from cardnet.table import core_engine, derive_seed

from nethelpers import RawClient, running_host

pytestmark = pytest.mark.trio

SEED = 5

#: Per game: the seat count, the core's refusal code to provoke, and well-formed moves that might provoke it.
#: Matchstick: a play showing a weaker value; Fistful: the card the +1 rule bars; Cherki: taking the discard on
#: two turns running; TEN: a payment piece that overpays.
ILLEGAL = {
    "matchstick": (2, "not_stronger"),
    "fistful": (2, "plus_one"),
    "cherki": (2, "took_last_turn"),
    "ten": (3, "overpayment"),
}


def candidates(game: Any, seat: int) -> list[dict[str, Any]]:
    name = game.game
    if name == "fistful":
        return [{"type": "pick", "card": c} for c in range(1, 10)]
    if name == "cherki":
        return [{"type": "take_discard"}]
    if name == "ten":
        pieces: list[dict[str, Any]] = [{"type": "pay_token"}, {"type": "pay_bust"}]
        for held in game.view(seat)["public"]["seats"]:
            pieces.extend({"type": "pay_card", "card": c["id"]} for c in held["collection"])
        return pieces
    plays = [m for m in game.legal_moves(seat) if m["type"] == "play"]
    return [dict(m, value=v) for m in plays for v in "0123456789"]


def refusal(game: Any, seat: int, code: str) -> tuple[dict[str, Any], str] | None:
    """A well-formed move the core refuses with ``code`` for ``seat`` now, and the core's reason."""
    for move in candidates(game, seat):
        probe = game.clone()
        try:
            probe.apply(seat, move)
        except cardnet.IllegalMove as exc:
            if exc.code == code:
                return move, str(exc.reason)
        except cardnet.InvalidMove:
            pass
    return None


def fingerprint(host: Host) -> tuple[int, str, str]:
    game: Any = host.table.game
    return host.table.state_id, game.state_hash(), game.to_json()


async def catch_up(client: RawClient, state_id: int) -> dict[str, Any]:
    """Read until the state message for ``state_id`` (the host may coalesce states into a snapshot)."""
    with trio.fail_after(5):
        while True:
            msg = await client.recv_type_in(("update", "snapshot"))
            if msg["state_id"] == state_id:
                return msg


async def settle(client: RawClient) -> None:
    """Read everything the host sent this peer so far (up to a ping round trip)."""
    await client.send({"type": "ping", "id": 4241})
    with trio.fail_after(5):
        while (await client.recv_type("pong"))["id"] != 4241:
            pass


async def quiet_since(client: RawClient) -> None:
    """Nothing but pings and seat lists reached this peer since its last read (checked by a ping round trip)."""
    await client.send({"type": "ping", "id": 4242})
    with trio.fail_after(5):
        while True:
            msg = await client.recv()
            assert msg is not None
            if msg["type"] == "pong" and msg["id"] == 4242:
                return
            assert msg["type"] in ("ping", "seats"), msg


async def play_one(
    host: Host, clients: list[RawClient], rng: random.Random, prefer: str | None, watchers: tuple[RawClient, ...] = ()
) -> None:
    """One legal move by the lowest seat to act, sent over the wire; every seat (and watcher) then catches up."""
    table = host.table
    seat = min(table.decisions)
    decision = table.decisions[seat]
    legal = table.game.legal_moves(seat)  # type: ignore[attr-defined]
    preferred = [i for i, m in enumerate(legal) if m["type"] == prefer]
    index = preferred[0] if preferred else rng.randrange(decision.count)
    before = table.state_id
    await clients[seat].send({"type": "move", "decision_id": decision.id, "index": index})
    with trio.fail_after(5):
        while table.state_id == before:
            await trio.sleep(0.001)
    for client in (*clients, *watchers):
        await catch_up(client, table.state_id)


@pytest.mark.parametrize("game", sorted(ILLEGAL))
async def test_hostile_peers_at_a_real_table_change_nothing(game: str) -> None:
    players, code = ILLEGAL[game]
    opts = HostOptions(handshake_timeout=0.3, write_timeout=0.3, max_strikes=40)
    async with running_host(core_engine(), game=game, players=players, seed=SEED, host_options=opts) as host:
        port = host.port or 0
        table = host.table
        clients: list[RawClient] = []
        tokens: list[str] = []
        for i in range(players):
            client = await RawClient.connect(port)
            welcome = await client.join(f"p{i}")
            assert welcome["seat"] == i
            clients.append(client)
            tokens.append(welcome["token"])
        for client in clients:
            await catch_up(client, table.state_id)
        # Play (taking the discard whenever possible in Cherki) until some seat can be refused with `code`.
        rng = random.Random(SEED)
        found: tuple[int, dict[str, Any], str] | None = None
        for _ in range(400):
            for seat in sorted(table.decisions):
                hit = refusal(table.game, seat, code)
                if hit is not None:
                    found = (seat, *hit)
                    break
            if found is not None:
                break
            await play_one(host, clients, rng, "take_discard" if game == "cherki" else None)
        assert found is not None, f"no {code} refusal reached"
        x, illegal, reason = found
        other_seat = next(i for i in range(players) if i != x)
        decision = table.decisions[x].id
        spectator = await RawClient.connect(port)
        assert (await spectator.join("eve", role="spectator"))["seat"] is None
        for client in clients + [spectator]:
            await settle(client)
        views = {i: (await snapshot_of(c))["view"] for i, c in enumerate(clients)}
        public = (await snapshot_of(spectator))["view"]
        before = fingerprint(host)

        async def refused(client: RawClient, line: dict[str, Any] | bytes, expected: str) -> dict[str, Any]:
            await client.send(line)
            err = await client.recv_type("error")
            assert err["code"] == expected, (line, err)
            assert err["fatal"] == P.ERROR_CODES[expected] and err["state_id"] == before[0]
            assert fingerprint(host) == before
            for other in (c for c in clients + [spectator] if c is not client):
                await quiet_since(other)
            return err

        x_client = clients[x]
        stale = decision - 16 if decision > 16 else 999_999  # x's previous decision (ids count per seat)
        hostile: list[tuple[dict[str, Any] | bytes, str]] = [
            (b"\xff\xfe\xfd\n", "bad_utf8"),
            (b'{"type":"move","decision_id":1,"index":0\n', "bad_json"),
            (b"[1,2]\n", "bad_json"),
            (b'{"type":"ping","type":"ping","id":1}\n', "bad_json"),
            (b'{"type":"ping","id":NaN}\n', "bad_json"),
            (b'{"type":"ping","id":1.5}\n', "bad_json"),
            (b'{"type":"ping","id":9007199254740993}\n', "bad_json"),
            (b'{"a":' + b"[" * 40 + b"]" * 40 + b"}\n", "bad_json"),
            ({"type": "teleport"}, "unknown_type"),
            ({"type": "move", "decision_id": str(decision), "index": 0}, "bad_message"),
            ({"type": "move", "decision_id": decision, "index": 0, "move": illegal}, "bad_message"),
            ({"type": "move", "decision_id": decision, "move": [illegal]}, "bad_message"),
            ({"type": "move", "decision_id": decision, "index": True}, "bad_message"),
            ({"type": "move", "decision_id": decision, "index": 0, "ref": "r" * 65}, "bad_message"),
            ({"type": "chat", "text": ["hi"]}, "bad_message"),
            ({"type": "legal", "decision_id": decision, "offset": 10**6}, "bad_message"),
            ({"type": "move", "decision_id": stale, "index": 0}, "stale_decision"),
            ({"type": "move", "decision_id": decision, "index": table.decisions[x].count}, "invalid_move"),
            ({"type": "move", "decision_id": decision, "move": {"type": "teleport"}}, "invalid_move"),
            ({"type": "rematch"}, "not_over"),
        ]
        for line, expected in hostile:
            await refused(x_client, line, expected)
        illegal_line = {"type": "move", "decision_id": decision, "move": illegal, "ref": 9}
        err = await refused(x_client, illegal_line, "illegal_move")
        assert (err["detail"], err["reason"], err["ref"], err["decision_id"]) == (code, reason, 9, decision)
        # Another seat answering x's decision, and a spectator moving.
        await refused(clients[other_seat], {"type": "move", "decision_id": decision, "move": illegal}, "wrong_seat")
        await refused(spectator, {"type": "move", "decision_id": decision, "index": 0}, "spectator")

        # Fatal cases, each on a connection of its own: the table and the seats are untouched.
        async def fatal(hello: dict[str, Any] | None, line: bytes | None, expected: str) -> None:
            intruder = await RawClient.connect(port)
            if hello is not None:
                reply = await intruder.join("mallory", **hello)
                if reply["type"] == "error":
                    assert reply["code"] == expected, reply
                    assert await intruder.closed()
                    return
            else:
                assert (await intruder.recv())["type"] == "table"  # type: ignore[index]
            if line is not None:
                await intruder.send(line)
            err = await intruder.recv_type("error")
            while not err["fatal"]:
                err = await intruder.recv_type("error")
            assert err["code"] == expected
            assert await intruder.closed()

        await fatal({"token": tokens[x][:-3] + "AAA"}, None, "bad_token")
        await fatal({"token": "A" * 43}, None, "bad_token")
        await fatal({"seat": x}, None, "no_seat")
        await fatal({}, None, "table_full")
        await fatal({"protocol": 2}, None, "unsupported_version")
        await fatal(None, b'{"type":"move","decision_id":1,"index":0}\n', "handshake_required")
        await fatal(None, None, "handshake_timeout")
        await fatal({"role": "spectator"}, b"{" + b" " * (P.MAX_PEER_LINE + 1), "line_too_long")
        await fatal({"role": "spectator"}, b'{"type":"ping","id":1}\n' * 300, "rate_limited")
        await fatal({"role": "spectator"}, b'{"type":"nope"}\n' * 45, "too_many_errors")
        assert fingerprint(host) == before
        for client in clients + [spectator]:
            await quiet_since(client)

        # A replayed token takes the seat over: the old connection is told `replaced`, the decision carries on.
        heir = await RawClient.connect(port)
        resumed = await heir.join("p-again", token=tokens[x])
        assert resumed["type"] == "welcome" and resumed["seat"] == x and resumed["token"] is None
        assert (await x_client.recv_type("error"))["code"] == "replaced"
        assert await x_client.closed()
        clients[x] = heir
        snap = await heir.recv_type("snapshot")
        assert snap["decision"]["id"] == decision and snap["view"] == views[x]
        assert fingerprint(host) == before
        for i, client in enumerate(clients):
            assert (await snapshot_of(client))["view"] == views[i]
        assert (await snapshot_of(spectator))["view"] == public

        # A spectator that stops reading after its first snapshot cannot stall play, and is dropped.
        async with trio.open_nursery() as side:
            mute_end, host_end = trio.testing.lockstep_stream_pair()
            side.start_soon(host.accept_stream, host_end)
            mute = RawClient(mute_end)  # type: ignore[arg-type]
            assert (await mute.join("mute", role="spectator"))["type"] == "welcome"
            await mute.recv_type("snapshot")
            for _ in range(5000):
                if table.game.is_over():
                    break
                await play_one(host, clients, rng, None, (spectator,))
            assert table.game.is_over()
            with trio.fail_after(5):
                while len([c for c in host.conns.values() if c.spectator]) > 1:
                    await trio.sleep(0.01)
        await mute_end.aclose()

        # Rematch with the same seats: same tokens, the documented seed derivation, fresh decisions.
        first_state = table.state_id
        for client in clients:
            await client.send({"type": "rematch"})
        for client in clients:
            snap = await client.recv_type("snapshot")
            while snap["game_no"] != 1:
                snap = await client.recv_type("snapshot")
            assert snap["state_id"] == first_state + 1 and not snap["over"]
        documented = int.from_bytes(hashlib.sha256(f"cardnet-rematch/1|{SEED}|1".encode()).digest()[:8], "big")
        assert derive_seed(SEED, 1) == documented
        fresh: Any = cardnet.new_game(game, players=players, seed=documented)
        assert table.game.state_hash() == fresh.state_hash()
        await clients[x].aclose()
        back = await RawClient.connect(port)
        again = await back.join("p-back", token=tokens[x])
        assert again["type"] == "welcome" and again["seat"] == x
        assert (await back.recv_type("snapshot"))["game_no"] == 1


async def snapshot_of(client: RawClient) -> dict[str, Any]:
    await client.send({"type": "snapshot"})
    return await client.recv_type("snapshot")
