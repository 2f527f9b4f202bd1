"""journal.py: record format, torn-tail recovery, default paths."""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardnet.protocol import Encodable, Raw, canonical
from cardnet.journal import (
    MAGIC,
    Journal,
    JournalError,
    default_journal_path,
    encode_record,
    parse_journal,
    read_journal,
)

RECORDS: list[dict[str, Encodable]] = [
    {"kind": "table", "n": 0},
    {"kind": "move", "n": 1, "move": {"type": "x", "name": "Zoë"}},
    {"kind": "move", "n": 2},
]


def write(path: Path) -> bytes:
    journal = Journal.create(path)
    for rec in RECORDS:
        journal.append(rec)
    journal.close()
    return path.read_bytes()


def test_records_round_trip(tmp_path: Path) -> None:
    data = write(tmp_path / "j")
    assert data.startswith(MAGIC)
    contents = read_journal(tmp_path / "j")
    assert contents.records == RECORDS and contents.torn is None and contents.valid_length == len(data)


def test_record_layout_is_length_crc_payload() -> None:
    rec = encode_record({"kind": "move"})
    length, crc = struct.unpack(">II", rec[:8])
    assert rec[8:] == b'{"kind":"move"}' and length == len(rec) - 8 and crc == zlib.crc32(rec[8:])


def test_each_append_is_one_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = Journal.create(tmp_path / "j")
    calls: list[int] = []
    real_write = os.write

    def counting_write(fd: int, data: bytes) -> int:
        calls.append(len(data))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", counting_write)
    journal.append({"kind": "move", "payload": "x" * 5000})
    journal.close()
    assert len(calls) == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=200))
def test_every_truncation_keeps_the_valid_prefix(cut: int) -> None:
    full = MAGIC + b"".join(encode_record(r) for r in RECORDS)
    cut = min(cut, len(full))
    contents = parse_journal(full[:cut])
    boundaries = [len(MAGIC)]
    for rec in RECORDS:
        boundaries.append(boundaries[-1] + len(encode_record(rec)))
    complete = sum(1 for b in boundaries[1:] if b <= cut)
    assert contents.records == RECORDS[:complete]
    assert (contents.torn is None) == (cut in boundaries or cut == 0)


def test_corrupt_byte_stops_at_that_record(tmp_path: Path) -> None:
    path = tmp_path / "j"
    data = bytearray(write(path))
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    contents = read_journal(path)
    assert contents.records == RECORDS[:2]
    assert contents.torn is not None and contents.torn.reason == "CRC mismatch"
    assert "ignored" in contents.torn.describe()


def test_resume_cuts_the_torn_tail_and_appends_after_it(tmp_path: Path) -> None:
    path = tmp_path / "j"
    data = write(path)
    path.write_bytes(data + b"\x00\x00\x01")
    journal, contents = Journal.open_resume(path)
    assert contents.torn is not None and contents.records == RECORDS
    journal.append({"kind": "move", "n": 3})
    journal.close()
    again = read_journal(path)
    assert again.torn is None and again.records == RECORDS + [{"kind": "move", "n": 3}]


def test_create_refuses_to_overwrite_and_bad_magic_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "j"
    write(path)
    with pytest.raises(JournalError):
        Journal.create(path)
    other = tmp_path / "other"
    other.write_bytes(b"hello world, not a journal")
    with pytest.raises(JournalError):
        read_journal(other)
    with pytest.raises(JournalError):
        read_journal(tmp_path / "missing")


def test_fsync_mode_writes_the_same_bytes(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "j", fsync=True)
    journal.append(RECORDS[0])
    journal.fsync()
    journal.close()
    assert read_journal(tmp_path / "j").records == RECORDS[:1]


def test_default_path_follows_xdg_state_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_journal_path("abc") == tmp_path / "cardnet" / "journals" / "abc.journal"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert (
        default_journal_path("abc") == tmp_path / "home" / ".local" / "state" / "cardnet" / "journals" / "abc.journal"
    )
    monkeypatch.setenv("XDG_STATE_HOME", "relative/dir")
    assert default_journal_path("abc").is_relative_to(tmp_path / "home")


def test_any_torn_prefix_of_a_real_table_journal_resumes(tmp_path: Path) -> None:
    import random

    from cardnet.table import Table, TableConfig

    from netfake import fake_engine

    engine = fake_engine()
    table = Table(
        TableConfig("callpick", 2, 8, options={"rounds": 4}, seeded=True, table_id="tp"), engine, clock=lambda: 0.0
    )
    path = tmp_path / "full"
    journal = Journal.create(path)
    journal.append(table.config.record())
    for seat in range(2):
        journal.append(table.claim_seat(None, f"p{seat}")[2])
    rng = random.Random(1)
    states: dict[int, tuple[int, str] | None] = {len(MAGIC): None}
    while not table.game.is_over():
        seat = rng.choice(sorted(table.decisions))
        decision = table.decisions[seat]
        journal.append(table.apply_move(seat, decision, index=rng.randrange(decision.count)).record)
        states[path.stat().st_size] = (table.state_id, table.game.state_hash())
    journal.close()
    data = path.read_bytes()
    for cut in sorted(rng.sample(range(len(data)), 40)) + [len(data)]:
        torn = tmp_path / f"cut{cut}"
        torn.write_bytes(data[:cut])
        try:
            resumed_journal, contents = Journal.open_resume(torn)
        except JournalError:
            continue
        resumed_journal.close()
        if len(contents.records) < 3:
            continue  # killed before both seats were taken: nothing was played yet
        resumed = Table.from_records(contents.records, engine, clock=lambda: 0.0)
        boundary = max(b for b in states if b <= cut)
        expected = states[boundary]
        if expected is not None:
            assert (resumed.state_id, resumed.game.state_hash()) == expected
        assert torn.stat().st_size == contents.valid_length


def test_a_journalled_name_that_is_not_unicode_is_refused_on_resume() -> None:
    # Older hosts journalled a hello name such as "\udc00evil"; resuming must say so, not serve a table whose
    # seats can no longer be sent to anyone.
    from cardnet.table import Table, TableConfig

    from netfake import fake_engine

    table = TableConfig("callpick", 2, 8, table_id="tu").record()
    seat = {"kind": "seat", "seat": 0, "name": "\udc00evil", "token_hash": "0" * 64}
    with pytest.raises(ValueError, match="record 2: the seat's name is not valid Unicode"):
        Table.from_records([table, seat], fake_engine(), clock=lambda: 0.0)


@given(
    game_no=st.integers(0, 2**40),
    seat=st.integers(0, 7),
    state_id=st.integers(0, 2**40),
    move=st.sampled_from(['{"type":"pass"}', '{"cards":[1,2],"type":"discard"}', "3"]),
    extra=st.sampled_from([None, "game", "n"]),
)
@settings(max_examples=60, deadline=None)
def test_the_move_record_fast_path_writes_the_canonical_bytes(
    game_no: int, seat: int, state_id: int, move: str, extra: str | None
) -> None:
    """Move records skip the generic encoder; any record of another shape (here one key more, a kind other than
    "move" or a move that is not already canonical text) still goes through it, with the same bytes."""
    record: dict[str, Encodable] = {"kind": "move", "game_no": game_no, "seat": seat, "state_id": state_id}
    record["move"] = Raw(move)
    if extra == "game":
        record["kind"] = "game"
    elif extra == "n":
        record["n"] = 1
    payload = canonical(record).encode("ascii")
    assert encode_record(record) == struct.pack(">II", len(payload), zlib.crc32(payload)) + payload
    record["move"] = json.loads(move)
    assert encode_record(record)[8:] == canonical(record).encode("ascii")


def test_damage_in_the_middle_is_reported_and_never_cut_off(tmp_path: Path) -> None:
    """A flipped byte inside an early record is no torn tail: the records after it are acknowledged moves, so
    resuming refuses (writing nothing) instead of cutting them off with the damage."""
    path = tmp_path / "j"
    data = bytearray(write(path))
    first_payload = len(MAGIC) + 8
    data[first_payload + 3] ^= 0x01
    path.write_bytes(bytes(data))
    contents = read_journal(path)
    assert contents.records == [] and contents.torn is not None and contents.torn.in_the_middle
    assert contents.torn.intact_after == len(MAGIC) + len(encode_record(RECORDS[0]))
    assert "valid records after it" in contents.torn.describe()
    with pytest.raises(JournalError, match="nothing was cut off"):
        Journal.open_resume(path)
    assert path.read_bytes() == bytes(data)
    # The lock was released: the operator can repair the file and continue it.
    data[first_payload + 3] ^= 0x01
    path.write_bytes(bytes(data))
    journal, again = Journal.open_resume(path)
    journal.close()
    assert again.records == RECORDS and again.torn is None


def test_a_torn_tail_after_garbage_is_still_only_a_tail(tmp_path: Path) -> None:
    """Half a record (a killed write) and random bytes at the end have no valid record after the damage."""
    full = MAGIC + b"".join(encode_record(r) for r in RECORDS)
    half = encode_record({"kind": "move", "move": {"a": {"b": 1}}})
    for tail in (half[: len(half) // 2], b"\x00" * 40, b"{" * 30):
        contents = parse_journal(full + tail)
        assert contents.records == RECORDS and contents.torn is not None and not contents.torn.in_the_middle


def test_a_journal_that_does_not_replay_keeps_its_torn_tail(tmp_path: Path) -> None:
    """Resuming replays before it writes: a refused journal is left exactly as it was, tail included."""
    path = tmp_path / "j"
    data = write(path) + b"\x00\x00\x01"
    path.write_bytes(data)

    def refuse(contents: object) -> None:
        raise ValueError("does not replay")

    with pytest.raises(ValueError, match="does not replay"):
        Journal.open_resume(path, accept=refuse)
    assert path.read_bytes() == data
    journal, _ = Journal.open_resume(path)
    journal.close()


@pytest.mark.parametrize("seat", [-1, 2, 99, "1", 1.5, True, None])
def test_a_journalled_seat_number_out_of_range_or_not_an_integer_is_refused(seat: object) -> None:
    """A seat record of -1 once seated the last seat (Python's negative index) and 99 escaped as an IndexError
    past the resume path's error handling; both are a journal that does not replay."""
    from cardnet.table import Table, TableConfig

    from netfake import fake_engine

    table = TableConfig("callpick", 2, 8, table_id="ts").record()
    record = {"kind": "seat", "seat": seat, "name": "ann", "token_hash": "0" * 64}
    with pytest.raises(ValueError, match="record 2: field 'seat' must be an integer in 0..1"):
        Table.from_records([table, record], fake_engine(), clock=lambda: 0.0)


@pytest.mark.parametrize("field", ["seat", "game_no", "state_id"])
def test_a_move_record_with_a_field_that_is_not_a_plain_integer_is_refused(field: str) -> None:
    from cardnet.table import Table, TableConfig

    from netfake import fake_engine

    config = TableConfig("callpick", 2, 8, seeded=True, table_id="tm")
    live = Table(config, fake_engine(), clock=lambda: 0.0)
    records: list[dict[str, Any]] = [config.record()]
    for seat in range(2):
        records.append(live.claim_seat(seat, f"p{seat}")[2])
    seat, decision = next(iter(live.decisions.items()))
    move = json.loads(json.dumps(live.apply_move(seat, decision, index=0).record, default=lambda r: json.loads(r.text)))
    assert Table.from_records([*records, move], fake_engine(), clock=lambda: 0.0).state_id == live.state_id
    for bad in (-1, str(move[field]), float(move[field]), 7 if field == "seat" else 2**60):
        with pytest.raises(ValueError, match="record 4"):
            Table.from_records([*records, {**move, field: bad}], fake_engine(), clock=lambda: 0.0)


@pytest.mark.parametrize("seat", ["-1", "3", "99", "\u0661", " 1", "1.0"])
def test_a_table_record_giving_a_bot_a_seat_that_does_not_exist_is_refused(seat: str) -> None:
    """A bot seat of "-1" made a Seat(-1) at the last seat's place, "3" of three seats escaped as IndexError."""
    from cardnet.table import Table, TableConfig

    from netfake import fake_engine

    record = TableConfig("callpick", 3, 8, table_id="tb").record()
    assert (
        Table.from_records([{**record, "bots": {"2": "random"}}], fake_engine(), clock=lambda: 0.0).seats[2].kind
        == "bot"
    )
    with pytest.raises(ValueError, match="built-in player to seat"):
        Table.from_records([{**record, "bots": {seat: "random"}}], fake_engine(), clock=lambda: 0.0)
