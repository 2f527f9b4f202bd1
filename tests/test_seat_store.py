"""The seat-token store every client shares: keyed by table id, written atomically, private to its owner, and a
damaged file is a warning and a fresh store, never a traceback."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from cardnet.net.seats import SeatStore, seat_store_path

# Tokens of the shape hosts hand out (the store offers nothing else).
TOK_A, TOK_B, TOK_C, TOK_OLD = "a" * 43, "b" * 43, "c" * 43, "o" * 43


def test_tokens_are_kept_per_table_id(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats.json")
    assert store.token("aaaa") is None
    store.remember("aaaa", TOK_A, name="friday", address="10.0.0.1:4000")
    store.remember("bbbb", TOK_B)
    # Another client (a new store object on the same file) sees both.
    other = SeatStore(tmp_path / "seats.json")
    assert other.token("aaaa") == TOK_A and other.token("bbbb") == TOK_B
    other.forget("aaaa")
    assert store.token("aaaa") is None and store.token("bbbb") == TOK_B


def test_the_default_store_lives_in_the_state_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert seat_store_path() == tmp_path / "cardnet" / "seats.json"
    SeatStore().remember("cccc", TOK_C)
    assert json.loads((tmp_path / "cardnet" / "seats.json").read_text())["tables"]["cccc"]["token"] == TOK_C


def test_the_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "state" / "seats.json"
    SeatStore(path).remember("aaaa", TOK_A)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "seats.json"
    warnings: list[str] = []
    store = SeatStore(path, warn=warnings.append)
    store.remember("aaaa", TOK_A)
    before = path.read_bytes()

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    store.remember("bbbb", TOK_B)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["seats.json"]
    assert warnings and "No space left on device" in warnings[0]


@pytest.mark.parametrize("damage", ["{not json", "[1, 2]", '{"v": 1, "tables": 3}', ""])
def test_a_damaged_file_is_a_warning_and_a_fresh_store(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "seats.json"
    path.write_text(damage)
    warnings: list[str] = []
    store = SeatStore(path, warn=warnings.append)
    assert store.token("aaaa") is None
    assert len(warnings) == 1 and "not a seat-token store" in warnings[0] and "--token" in warnings[0]
    store.remember("aaaa", TOK_A)
    assert SeatStore(path).token("aaaa") == TOK_A
    # The damaged file is kept aside, not written over.
    assert (tmp_path / "seats.json.damaged").read_text() == damage


def test_the_older_address_keyed_store_is_dropped_quietly(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    path.write_text(json.dumps({"127.0.0.1:5000": TOK_OLD}))
    warnings: list[str] = []
    assert SeatStore(path, warn=warnings.append).token("127.0.0.1:5000") is None
    assert warnings == []


def test_a_second_player_on_one_machine_is_not_given_the_first_ones_seat(tmp_path: Path) -> None:
    import trio

    from cardnet.net.peer import open_peer

    from netfake import fake_engine
    from nethelpers import running_host

    store = SeatStore(tmp_path / "seats.json")

    async def scenario() -> None:
        async with running_host(fake_engine(), players=3, bots={2: "random"}) as host:
            port = host.port or 0
            with trio.fail_after(10):
                async with open_peer("127.0.0.1", port, name="ann", seats=store) as ann:
                    table_id = ann.state.table_info.table_id
                    assert store.token(table_id) == ann.state.token and store.seat(table_id) == 0
                    # Ann's seat is held: her kept token is not used, and bob gets a seat of his own.
                    async with open_peer("127.0.0.1", port, name="bob", seats=store) as bob:
                        assert bob.state.seat == 1 and not bob.session.token_from_store
                        assert host.table.seats[0].connected
                # Once nobody holds it, the kept token (now bob's, the last saved) takes its seat back.
                async with open_peer("127.0.0.1", port, name="bob again", seats=store) as back:
                    assert back.session.token_from_store and back.state.seat == 1

    trio.run(scenario)
