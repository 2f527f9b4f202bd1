"""Leak test: what the host sends a seat depends only on what that seat may know.

For random games of every game, at every step and for every observer (each seat and the spectator), the
other seats' hidden information is re-dealt with ``determinize``; the exact bytes of the observer's state
message (view, events, hash, to_act, decision with legal moves, outcome) must not change.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardnet
from cardnet.protocol.host import HostSession
from cardnet.table import Table, TableConfig, core_engine

MAX_STEPS = 2000


@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_bytes_sent_to_a_seat_do_not_depend_on_others_hidden_cards(game: str, seed: int) -> None:
    info = cardnet.GAMES[game]
    rng = random.Random(seed)
    players = rng.randint(info.min_players, min(info.max_players, 5))
    config = TableConfig(game, players, seed, seeded=True, table_id="leak", bots={s: "random" for s in range(players)})
    table = Table(config, core_engine(), clock=lambda: 0.0)
    session = HostSession(table)
    real: Any = table.game  # the core's Game: it also has determinize
    observers: list[int | None] = [*range(players), None]
    checks = 0
    for step in range(MAX_STEPS):
        for observer in observers:
            expected = session.state_line(observer, "update")
            for k in range(2):
                other = real.determinize(observer, rng.getrandbits(63))
                assert other.to_act() == real.to_act()
                if observer is not None and observer in table.decisions:
                    assert other.legal_moves_json(observer) == table.decisions[observer].legal_json
                table.game = other
                try:
                    assert session.state_line(observer, "update") == expected, (game, step, observer, k)
                finally:
                    table.game = real
                checks += 1
        if real.is_over():
            break
        seat = rng.choice(sorted(table.decisions))
        decision = table.decisions[seat]
        table.apply_move(seat, decision, index=rng.randrange(decision.count))
    assert real.is_over(), f"{game} did not finish within {MAX_STEPS} moves"
    assert checks > players
