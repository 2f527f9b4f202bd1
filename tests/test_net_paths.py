"""The one decision of which path serves a table's moves (cardnet.net.paths): each condition, its order, and
the debug log that names every change of path once."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from cardnet.net.paths import MovePath, PathConditions, PathLog, choose_path, may_go_native

#: A table the native path may serve at a moment it can: every condition at its most permissive.
OPEN = PathConditions(
    core_game=True, fast_lane=True, native_lane=True, group_commit=False, turn_timer=False, system_clock=True,
    trio_idle=True, host_busy=False, all_served=True,
)  # fmt: skip


def test_with_every_condition_met_the_native_path_serves() -> None:
    assert choose_path(OPEN).path is MovePath.NATIVE
    assert may_go_native(OPEN)


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"core_game": False}, MovePath.GENERAL),
        ({"fast_lane": False}, MovePath.GENERAL),
        ({"group_commit": True}, MovePath.GENERAL),
        ({"turn_timer": True}, MovePath.GENERAL),
        ({"native_lane": False}, MovePath.FAST),
        ({"system_clock": False}, MovePath.FAST),
        ({"trio_idle": False}, MovePath.FAST),
        ({"host_busy": True}, MovePath.FAST),
        ({"all_served": False}, MovePath.FAST),
    ],
)
def test_each_condition_alone_sends_moves_down_its_path(change: dict[str, bool], path: MovePath) -> None:
    choice = choose_path(dataclasses.replace(OPEN, **change))
    assert choice.path is path
    assert choice.reason


def test_a_table_condition_outranks_the_moment() -> None:
    # A reader task's line on a table with turn timers: the general path, not the fast one.
    assert choose_path(dataclasses.replace(OPEN, turn_timer=True, trio_idle=False)).path is MovePath.GENERAL
    # Only the fixed conditions tell whether the lane is worth installing.
    assert may_go_native(dataclasses.replace(OPEN, trio_idle=False, host_busy=True, all_served=False))
    assert not may_go_native(dataclasses.replace(OPEN, system_clock=False))
    assert not may_go_native(dataclasses.replace(OPEN, group_commit=True))


def test_the_log_names_each_change_once(caplog: pytest.LogCaptureFixture) -> None:
    paths = PathLog()
    busy = dataclasses.replace(OPEN, host_busy=True)
    with caplog.at_level(logging.DEBUG, logger="cardnet.host"):
        for conditions in (OPEN, OPEN, busy, busy, busy, OPEN):
            paths.choose(conditions)
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        "moves take the native path: trio is idle and the core can serve every connection",
        "moves take the fast path: the host has work of its own on the table",
        "moves take the native path: trio is idle and the core can serve every connection",
    ]
    assert paths.current is MovePath.NATIVE


def test_nothing_is_logged_above_debug(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="cardnet.host"):
        PathLog().choose(OPEN)
    assert caplog.records == []
