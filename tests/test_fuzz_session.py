"""The host's session under generated hostile lines from several links at once (tests/sessionfuzz.py).

A CI-sized run (about 7 s); bench/fuzz_session.py runs the same fuzzer for a million lines and more. Two planted
bugs show that the checks after each line catch what they are there to catch.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardnet.protocol.host import HostSession
from cardnet.table import Table

from sessionfuzz import SessionFuzz


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_hostile_lines_from_many_links_break_nothing(seed: int) -> None:
    fuzz = SessionFuzz(seed, lines_per_table=3000)
    totals = fuzz.run(10_000)
    assert [f.describe() for f in totals.failures] == []
    # The run did what it is for: games were played through the noise, honest moves went in, hostile lines
    # were refused and links were cut off for them.
    assert totals.lines == 10_000 and totals.honest_moves > 100 and totals.games_finished >= 1
    assert totals.refusals > 1000 and totals.closes > 100 and totals.quick_moves > 0 and totals.tables >= 2


def test_an_exception_inside_the_session_is_caught_by_the_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: a ping with an id divisible by 7 raises inside the host (the peer then hears "internal")."""
    real = HostSession._dispatch

    def buggy(self: HostSession, link: Any, msg: Any, now: float) -> Any:
        if type(msg).__name__ == "Ping" and msg.id % 7 == 0:
            raise KeyError("planted")
        return real(self, link, msg, now)

    monkeypatch.setattr(HostSession, "_dispatch", buggy)
    totals = SessionFuzz(5).run(3000)
    assert any("internal" in f.problem for f in totals.failures)


def test_a_move_journalled_for_the_wrong_seat_is_caught_by_the_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: the journal record of every move names seat 0, so the journal no longer replays."""
    real = Table.apply_move

    def buggy(self: Table, seat: int, decision: Any, move: Any = None, index: int | None = None) -> Any:
        applied = real(self, seat, decision, move, index)
        applied.record["seat"] = 0
        return applied

    monkeypatch.setattr(Table, "apply_move", buggy)
    totals = SessionFuzz(6, games=("fistful",)).run(3000)
    assert any("replay" in f.problem or "moves" in f.problem for f in totals.failures)
