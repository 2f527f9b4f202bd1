"""The one table factory: configurations, new journalled tables, resumed ones."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardnet
from cardnet.journal import read_journal
from cardnet.net.factory import create_table, resume_table, table_config


def stopped_clock() -> float:
    """Outside trio, tables run on a stopped clock (no turn timers here)."""
    return 0.0


def test_a_config_takes_the_game_defaults_and_marks_a_given_seed() -> None:
    config = table_config("fistful", bots={1: "easy"})
    assert config.players == cardnet.GAMES["fistful"].default_players and not config.seeded
    assert len(config.table_id) == 16 and config.bots == {1: "easy"}
    seeded = table_config("fistful", seed=7, name="night")
    assert seeded.seeded and seeded.seed == 7 and seeded.name == "night"
    with pytest.raises(cardnet.UnknownGame):
        table_config("nosuch")


def test_create_journals_the_config_and_a_bad_setup_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    config = table_config("matchstick", players=3, seed=2)
    table, journal = create_table(config, journal=path, clock=stopped_clock)
    journal.close()
    assert table.config == config and not table.started  # every seat is open: it waits for players
    assert read_journal(path).records == [config.record()]
    bad = tmp_path / "bad.journal"
    with pytest.raises(cardnet.BadOptions):
        create_table(table_config("matchstick", players=99, seed=2), journal=bad, clock=stopped_clock)
    assert not bad.exists()


def test_resume_rebuilds_the_table_and_refuses_a_journal_that_does_not_replay(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    table, journal = create_table(
        table_config("fistful", seed=4, bots={0: "random", 1: "random"}), journal=path, clock=stopped_clock
    )
    seat, decision = next(iter(table.decisions.items()))
    applied = table.apply_move(seat, decision, index=0)
    journal.append(applied.record)
    journal.close()
    resumed = resume_table(path, clock=stopped_clock)
    resumed.journal.close()
    assert resumed.torn is None and resumed.table.state_id == table.state_id
    assert resumed.table.game.state_hash() == table.game.state_hash()
    broken = tmp_path / "broken.journal"
    _, other = create_table(table_config("fistful", seed=4), journal=broken, clock=stopped_clock)
    other.append({"kind": "move", "game_no": 0, "state_id": 9, "seat": 0, "move": {}})
    other.close()
    before = broken.read_bytes()
    with pytest.raises(ValueError, match="cannot resume"):
        resume_table(broken, clock=stopped_clock)
    assert broken.read_bytes() == before


def test_a_journal_that_does_not_replay_is_left_whole_torn_tail_included(tmp_path: Path) -> None:
    broken = tmp_path / "broken.journal"
    _, other = create_table(table_config("fistful", seed=4), journal=broken, clock=stopped_clock)
    other.append({"kind": "move", "game_no": 0, "state_id": 9, "seat": 0, "move": {}})
    other.close()
    with broken.open("ab") as f:
        f.write(b"\x00\x00\x00\x09torn")
    before = broken.read_bytes()
    with pytest.raises(ValueError, match="cannot resume"):
        resume_table(broken, clock=stopped_clock)
    assert broken.read_bytes() == before
