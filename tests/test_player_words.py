"""Every message in the player's words (issue 29): refusals name the moves the help teaches, never the wire's
move types or the core's internal words."""

from __future__ import annotations

import io
import random
import re

import pytest

import cardnet
from cardnet.protocol import JSONValue, StateMessage
from cardnet.ui.app.runner import Runner
from cardnet.ui.app.table_controller import TableController
from cardnet.ui.app.draw import table_screen, text_of
from cardnet.ui.app.state import AppState, Choice, TableState
from cardnet.ui.plain import play_plain
from cardnet.ui.render import MoveTextError, renderer_for
from cardnet.ui.markdown import text_width
from cardnet.ui.render.cherki import card_kind, kind_name
from cardnet.ui.render.matchstick import card_label as matchstick_label

#: Each game's wire move types, which a player never types and must never read.
WIRE_TYPES = {
    "cherki": ("draw_stock", "take_discard"),
    "matchstick": ("discard_matchstick",),
    "fistful": (),
    "ten": ("skip_buy", "pass_bid", "accept_wild", "pay_token"),
}


@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
def test_an_unknown_word_is_refused_with_the_games_move_words(game: str) -> None:
    names = ["You"] + [f"Seat {n}" for n in range(1, cardnet.GAMES[game].default_players)]
    renderer = renderer_for(game, names)
    view = cardnet.new_game(game, seed=1).view(0)
    with pytest.raises(MoveTextError) as refused:
        renderer.parse_move("foo", view)
    text = str(refused.value)
    assert text.startswith("'foo' is not a move here") and renderer.move_words() in text
    assert not any(wire in text for wire in WIRE_TYPES[game]), text
    # A JSON object still reaches the host as it is (bot authors and tests type those).
    assert renderer.parse_move('{"type": "foo"}', view) == {"type": "foo"}


def test_cherki_line_mode_refuses_foo_in_the_words_help_teaches() -> None:
    out = io.StringIO()
    assert play_plain("cherki", players=3, seed=2, stdin=io.StringIO("foo\nquit\n"), stdout=out) == 0
    text = out.getvalue()
    assert "Refused: 'foo' is not a move here. The moves: draw, take, call, discard N" in text
    assert "unknown move type" not in text and "draw_stock" not in text


# -- TEN ----------------------------------------------------------------------------------------------------


def _ten_payment(seed: int) -> tuple[cardnet.Game, int]:
    """A 3-player TEN game played at random up to a payment with a choice (tokens or cards) for its payer."""
    g = cardnet.new_game("ten", players=3, seed=seed)
    rng = random.Random(seed)
    while True:
        seat = g.to_act()[0]
        if g.view(seat)["public"]["phase"] == "pay" and len(g.legal_moves(seat)) > 1:
            return g, seat
        g.apply(seat, rng.choice(g.legal_moves(seat)))


class PayingController(TableController):
    """The client's table controller with the host replaced by the core itself: a chosen move is applied at once and
    the next state comes straight back, as the host would send it."""

    def __init__(self, game: cardnet.Game, seat: int) -> None:
        super().__init__(Runner(AppState(screen="table"), lambda: None), lambda: None, lambda: None)
        self.game, self.seat, self.sent = game, seat, 0
        self.state.table = TableState.open("ten", 3, seat, "t")
        self.deliver()

    def deliver(self) -> None:
        ts = self.state.table
        assert ts is not None
        to_act = self.game.to_act()
        legal: list[JSONValue] = list(self.game.legal_moves(self.seat)) if self.seat in to_act else []
        view = self.game.view(self.seat)
        message = StateMessage(
            "update", 0, self.sent, "", view, to_act, self.sent + 1, legal, len(legal), False, None, False, None
        )
        self._on_state(ts, message)

    def choose(self, choice: Choice) -> None:
        ts = self.state.table
        assert ts is not None
        move = choice.move if choice.move is not None else ts.legal[choice.index or 0]
        self.game.apply(self.seat, move)
        self.sent += 1
        self.deliver()


def test_ten_one_key_pays_the_least_that_settles() -> None:
    g, seat = _ten_payment(4)
    pub = g.view(seat)["public"]
    owed, tokens = pub["payment"]["owed"], pub["seats"][seat]["tokens"]
    assert tokens >= owed >= 2
    c = PayingController(g, seat)
    assert "e pays it" in text_of(table_screen(c.state.table, 80, 24))  # type: ignore[arg-type]
    c.settle()
    after = g.view(seat)["public"]
    assert c.sent == owed and after["seats"][seat]["tokens"] == tokens - owed and after["payment"] is None
    assert c.state.error == ""


def test_ten_table_words_are_plain_and_wrap_at_words() -> None:
    g, seat = _ten_payment(4)
    ts = TableState.open("ten", 3, seat, "t")
    ts.view = g.view(seat)
    ts.view["public"]["tableau"] = {"cards": [], "numbers": 7, "currency": 2}
    for width in (40, 50, 60, 80):
        lines = text_of(table_screen(ts, width, 30)).split("\n")
        assert "the core's" not in "\n".join(lines)
        # A wrapped line never starts with the punctuation that joined it to the line before.
        assert [line for line in lines if line.strip()[:1] in (";", ",", ".")] == [], width
        assert "Safe next card: a number up to 5, any currency" in " ".join(" ".join(lines).split())


# -- Matchstick Tycoon ----------------------------------------------------------------------------------------


def test_matchstick_screen_shows_values_under_the_hand_and_says_you_lead() -> None:
    seed = next(s for s in range(100) if cardnet.new_game("matchstick", players=3, seed=s).to_act() == [0])
    g = cardnet.new_game("matchstick", players=3, seed=seed)
    ts = TableState.open("matchstick", 3, 0, "t")
    ts.view, ts.legal, ts.to_act, ts.decision_id = g.view(0), list(g.legal_moves(0)), [0], 1
    hand = ts.view["private"]["hand"]
    for width, height in ((80, 21), (60, 17)):
        lines = text_of(table_screen(ts, width, height)).split("\n")
        text = "\n".join(lines)
        assert "empty - you lead" in text and "You leads" not in text
        # Every seat's matchsticks in words, never the abbreviation "1 m".
        assert "1 matchstick" in text and not re.search(r"\d m\b", text)
        # Under the drawn hand: each card's value as line mode writes it, then its position (what '?' promises).
        shown = [matchstick_label(c["card"]) for c in hand]
        values = next(i for i, line in enumerate(lines) if line.split()[:5] == shown[:5])
        assert lines[values + 1].split()[:5] == ["1", "2", "3", "4", "5"], text


# -- Cherki -------------------------------------------------------------------------------------------------


def test_cherki_long_lines_wrap_instead_of_being_cut() -> None:
    g = cardnet.new_game("cherki", players=3, seed=2)
    ts = TableState.open("cherki", 3, 0, "t")
    ts.view = g.view(0)
    # Four pairs of honours and numbers: the progress line is longer than a narrow screen.
    ts.view["private"]["hand"] = [0, 1, 116, 117, 112, 113, 108, 109]
    for width in (40, 60, 80):
        lines = text_of(table_screen(ts, width, 30)).split("\n")
        assert all(text_width(line) <= width for line in lines), width
        words = " ".join(" ".join(lines).split())
        assert "pairs 4 of 1" in words and all(kind_name(card_kind(c)) in words for c in ts.view["private"]["hand"])
        assert "number = card id" in words
        # Too narrow for the drawn cards: every card as a chip, none of them cut off.
        assert width > 40 or ("[RF* 112]" in words and "[WF 109]" in words)


@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
def test_a_spectator_can_see_every_table(game: str) -> None:
    g = cardnet.new_game(game, seed=8)
    renderer = renderer_for(game, [f"Seat {n}" for n in range(g.players)])
    lines = renderer.table(g.view(None), -1)
    assert lines and not any("You" in line.split() for line in lines)


# -- A Fistful of Gold ----------------------------------------------------------------------------------------


def test_fistful_long_seat_labels_stay_apart_from_the_cards() -> None:
    g = cardnet.new_game("fistful", seed=1)
    ts = TableState.open("fistful", 2, 0, "t")
    ts.view = g.view(0)
    # A built-in player's name in Finnish with the colour after it is longer than the usual column.
    ts.renderer.names = ["Sinä", "Botti 1 · satunnainen"]
    lines = text_of(table_screen(ts, 80, 24)).split("\n")
    rows = [line for line in lines if line.startswith(("Sinä (", "Botti 1"))]
    assert len(rows) == 2, lines
    # Each label is followed by at least one space, and both rows' cards begin in the same column.
    labels = [row[: row.index(")") + 1] for row in rows]
    starts = [len(row) - len(row[len(label) :].lstrip()) for label, row in zip(labels, rows)]
    assert all(start > len(label) for start, label in zip(starts, labels)), rows
    assert starts[0] == starts[1], rows


def test_cherki_a_discard_you_took_says_you_in_every_language() -> None:
    from cardnet import i18n

    g = cardnet.new_game("cherki", players=3, seed=2)
    view = g.view(0)
    view["public"]["discards"] = [{"card": 73, "seat": 2, "taken_by": 0}, {"card": 3, "seat": 0, "taken_by": 1}]
    expected = {"en": "taken by you)", "es": "la tomaste tú)", "fi": "sinä otit)", "id": "dipungut oleh Anda)"}
    try:
        for lang, words in expected.items():
            i18n.set_language(lang)
            you = i18n.gettext("You")
            renderer = renderer_for("cherki", [you, "Ann", "Bob"])
            text = " ".join(" ".join(renderer.table(view, 0)).split())
            assert words in text, (lang, text)
            # The seat label "You" never stands where the sentence needs the pronoun.
            assert not re.search(rf"(taken by|la tomó|otti) {re.escape(you)}\b", text), (lang, text)
    finally:
        i18n.set_language("en")


def test_ten_points_line_up_after_long_names() -> None:
    g = cardnet.new_game("ten", players=3, seed=1)
    ts = TableState.open("ten", 3, 0, "t")
    ts.view = g.view(0)
    ts.renderer.names = ["Anda", "Bot 1 · mudah", "Botti 2 · normaali"]
    for width in (60, 80):
        lines = text_of(table_screen(ts, width, 30)).split("\n")
        rows = [line for line in lines if line[1:].startswith(tuple(ts.renderer.names))]
        assert len(rows) == 3, lines
        # Every seat's points begin in one column, with a space at least after the name.
        columns = {row.index(" pts") for row in rows}
        assert len(columns) == 1, rows
        assert all(row[1 + len(name)] == " " for row, name in zip(rows, ts.renderer.names)), rows


def test_matchstick_line_mode_says_you_played_in_the_second_person() -> None:
    from cardnet import i18n

    seed = next(s for s in range(100) if cardnet.new_game("matchstick", players=3, seed=s).to_act() == [0])
    g = cardnet.new_game("matchstick", players=3, seed=seed)
    g.apply(0, next(m for m in g.legal_moves(0) if m["type"] == "play"))
    expected = {"en": ": you played 1 x", "es": ": jugaste 1 x", "fi": ": pelasit 1 x", "id": ": Anda memainkan 1 x"}
    try:
        for lang, words in expected.items():
            i18n.set_language(lang)
            renderer = renderer_for("matchstick", [i18n.gettext("You"), "Ann", "Bob"])
            text = "\n".join(renderer.table(g.view(0), 0))
            assert words in text, (lang, text)
            # Another seat sees the same play under the player's name.
            other = renderer_for("matchstick", ["Cai", i18n.gettext("You"), "Bob"])
            assert "Cai " in "\n".join(other.table(g.view(1), 1)), lang
    finally:
        i18n.set_language("en")


def test_fistful_spectators_are_not_asked_to_discard_their_cards() -> None:
    g = cardnet.new_game("fistful", seed=1)
    renderer = renderer_for("fistful", ["Ann", "Bob"])
    watched = "\n".join(renderer.table(g.view(None), -1))
    seated = "\n".join(renderer.table(g.view(0), 0))
    assert "Setup: discard 2 of your 9 cards" in seated
    assert "your" not in watched.lower(), watched
    ts = TableState.open("fistful", 2, None, "t")
    ts.view = g.view(None)
    assert "your" not in text_of(table_screen(ts, 80, 24)).lower()
