"""docs/RL.md shows the tensor layouts and action-space sizes the engine really has."""

from __future__ import annotations

import re
from pathlib import Path

from cardnet.rl import new_state
from cardnet.rl.openspiel import merged_layout

DOC = (Path(__file__).resolve().parents[1] / "docs" / "RL.md").read_text()


def test_documented_layouts_match_the_engine() -> None:
    sections = re.findall(
        r"Observation of `(\w+)` at (\d+) players \((\d+) floats; information state (\d+)\):\n\n((?:\|.*\n)+)", DOC
    )
    assert {name for name, *_ in sections} == {"matchstick", "fistful", "cherki", "ten"}
    for name, players, obs_len, info_len, table in sections:
        state = new_state(name, int(players))
        assert (state.observation_len(), state.infostate_len()) == (int(obs_len), int(info_len))
        rows = re.findall(r"\| `(\w+)` \| (\d+) \| (\d+) \|", table)
        assert [(n, int(o), int(size)) for n, o, size in rows] == merged_layout(state.observation_layout())


def test_documented_action_space_sizes() -> None:
    assert "**17 287** ids for the" in DOC
    assert new_state("matchstick", 4).action_space_size() == 17287
    assert new_state("matchstick", 4, options={"expansion": 2}).action_space_size() == 28277
    assert new_state("matchstick", 4, options={"expansion": 4}).action_space_size() == 28798
    assert "### A Fistful of Gold (63 ids)" in DOC and new_state("fistful").action_space_size() == 63
    assert "### Cherki (63 ids)" in DOC and new_state("cherki").action_space_size() == 63
