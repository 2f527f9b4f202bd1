"""Everything that reads outside data, fed mutations of its own valid input (tests/readerfuzz.py): saved games
and RL saves, views given to ``game_from_view``, journals (damaged, reordered, another table's records spliced
in), the seat-token store, the config file, TXT records and a hostile host's ``table`` lines and what it sends a player. About 6 s in CI; bench/fuzz_readers.py
runs many more cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from readerfuzz import readers, run_reader

CASES = {
    "saved_game": 300,
    "rl_save": 300,
    "view": 400,
    "journal": 150,
    "token_store": 200,
    "config": 200,
    "txt": 600,
    "table_line": 600,
    "host_lines": 200,
}


@pytest.mark.parametrize("reader", sorted(CASES))
def test_a_reader_of_outside_data_answers_damage_with_its_documented_error(reader: str, tmp_path: Path) -> None:
    assert run_reader(readers(tmp_path)[reader], CASES[reader], seed=7) == []


@pytest.mark.parametrize("game", ["fistful", "matchstick", "cherki", "ten"])
def test_a_view_of_a_game_still_on_in_which_nobody_acts_is_corrupt(game: str) -> None:
    """Found by the reader fuzzer: Fistful's spectator view with ``"to_act": []`` built a game no bot could ever
    move in (to_act empty, not over)."""
    import cardnet

    played = cardnet.new_game(game, seed=7)
    for _ in range(4):
        played.apply_index(played.to_act()[0], 0)
    for observer in (None, 0):
        view = played.view(observer)
        view["public"]["to_act"] = []
        with pytest.raises(cardnet.CorruptState):
            cardnet.game_from_view(game, view, observer, played.players, seed=1)


def test_a_kept_token_of_a_shape_no_host_accepts_is_not_offered() -> None:
    """A seats.json entry that is not a token made the hello fail with handshake_required, which the lobby did
    not treat as a stale token: the player could never join that table again."""
    from cardnet.net.seats import SeatStore, seat_store_path

    path = seat_store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    good = "A" * 43
    entries = {"t1": good, "t2": "\x1b[2J", "t3": "A" * 42 + "@", "t4": 7}
    path.write_text(json.dumps({"v": 1, "tables": {k: {"token": v} for k, v in entries.items()}}))
    store = SeatStore()
    assert store.token("t1") == good
    assert [store.token(t) for t in ("t2", "t3", "t4")] == [None, None, None]


def test_a_seat_token_file_too_deep_to_parse_is_kept_aside_not_a_crash() -> None:
    """json.loads raises RecursionError (no ValueError) on deep nesting: reading the store crashed the lobby."""
    from cardnet.net.seats import SeatStore, seat_store_path

    path = seat_store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"[" * 100_000)
    warnings: list[str] = []
    store = SeatStore(warn=warnings.append)
    assert store.token("t1") is None
    store.remember("t1", "B" * 43)
    assert store.token("t1") == "B" * 43
    assert path.with_name(path.name + ".damaged").read_bytes() == b"[" * 100_000
    assert len(warnings) == 1
