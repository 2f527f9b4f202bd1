"""The lobby in player words (issue 29): the New table form names each game option by its label with a one-line
description, never the option's key, and remembers the last choices per game between runs; an unfinished game
is listed by its title, players, when it was last played and how far it has come."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

import cardnet
from cardnet.ui.app.controller import Controller
from cardnet.ui.app.draw import lobby_screen, text_of
from cardnet.ui.app.lobby import (
    focused_key,
    form_change,
    form_fields,
    new_form,
    resume_entry,
    when_played,
)
from cardnet.ui.app.remembered import load
from cardnet.ui.app.state import AppState, LobbyEntry
from cardnet.ui.render.screen import screen_for


def focus(form_key: str, c: Controller) -> None:
    form = c.state.form
    assert form is not None
    form.field_index = 0
    while focused_key(form) != form_key:
        form.field_index += 1


@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
def test_options_show_their_label_and_description_not_their_key(game: str) -> None:
    st = AppState(form=new_form(game=game))
    lines = text_of(lobby_screen(st, 80, 30)).split("\n")
    text = " ".join(" ".join(lines).split())
    for spec in cardnet.GAMES[game].options:
        label = screen_for(game).option_labels[spec.name]
        assert any(line.startswith(f"  {label}") for line in lines), lines
        assert " ".join(spec.doc.split()) in text
        # The key itself is never a field's name.
        assert not any(line.strip().startswith(spec.name + " ") for line in lines), spec.name


def test_the_form_remembers_the_last_choices_per_game(tmp_path: Path) -> None:
    memory = tmp_path / "new-table.json"

    def controller() -> Controller:
        c = Controller(AppState(entries=[LobbyEntry("new", "New table")]), lambda: None)
        c.lobby.form_memory = memory
        c.lobby.enter()
        assert c.state.form is not None
        return c

    c = controller()
    form = c.state.form
    assert form is not None
    while form.games[form.game] != "matchstick":
        focus("game", c)
        form_change(form, 1)
    focus("players", c)
    form_change(form, 1)
    focus("level", c)
    form_change(form, 1)
    focus("option:deal_all", c)
    form_change(form, 1)
    chosen = form_fields(form)
    # Enter hosts the table (no trio here, so the table itself does not open) and keeps the choices.
    c.lobby.enter()
    assert load(memory).game == "matchstick"

    again = controller().state.form
    assert again is not None and form_fields(again) == chosen
    assert ("Deal whole deck", "yes (house rules)") in chosen and ("Built-in level", "easy") in chosen
    # Another game keeps its own defaults.
    again.field_index = 0
    form_change(again, 1)
    assert again.games[again.game] == "fistful" and again.options == new_form(game="fistful").options


def test_a_broken_memory_file_means_defaults(tmp_path: Path) -> None:
    memory = tmp_path / "new-table.json"
    for text in (
        "not json",
        "[1, 2]",
        '{"game": 3, "games": {"matchstick": {"players": "many", "options": []}}}',
        '{"game": "matchstick", "games": {"matchstick": {"players": 99, "level": "godlike",'
        ' "options": {"deal_all": 7, "expansion": true}}}}',
    ):
        memory.write_text(text)
        form = new_form(remembered=load(memory))
        assert form_fields(form) == form_fields(new_form(game=form.games[form.game]))


def test_when_played_says_today_yesterday_weekday_or_date() -> None:
    def at(day: int, hour: int, minute: int) -> float:
        return time.mktime((2026, 12, day, hour, minute, 0, 0, 0, -1))

    now = at(6, 22, 15)
    assert when_played(at(6, 9, 5), now) == "today 09:05"
    assert when_played(at(5, 21, 40), now) == "yesterday 21:40"
    assert when_played(at(2, 21, 40), now) == "Wed 21:40"
    assert when_played(at(1, 8, 0) - 86400 * 10, now) == "21 Nov 08:00"


@pytest.mark.parametrize(
    "game,progress",
    [
        ("cherki", r"deal 1 of 1, \d+ cards in the stock"),
        ("fistful", r"round \d, duel \d of \d, stars \d-\d"),
        ("matchstick", r"\d+ cards? in your hand, \d of \d players out"),
        ("ten", r"turn \d+, \d+ cards left to draw"),
    ],
)
def test_an_unfinished_game_is_listed_with_players_when_and_progress(game: str, progress: str) -> None:
    g = cardnet.new_game(game, players=cardnet.GAMES[game].default_players, seed=3)
    rng = random.Random(3)
    for _ in range(12):
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_moves(seat)))
    now = time.time()
    entry = resume_entry(Path("x.journal"), game, g.players, now - 86400, 0, g.view(0)["public"], now)
    assert entry.label == cardnet.GAMES[game].title and entry.kind == "resume"
    assert re.fullmatch(rf"{g.players} players, played yesterday \d\d:\d\d, {progress}", entry.detail), entry.detail
