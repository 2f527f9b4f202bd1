"""Every message in the player's words (issue 29): refusals name the moves the help teaches, never the wire's
move types or the core's internal words."""

from __future__ import annotations

import io

import pytest

import cardnet
from cardnet.ui.plain import play_plain
from cardnet.ui.render import MoveTextError, renderer_for

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
    assert text.startswith("'foo' is not a move here") and renderer.move_words in text
    assert not any(wire in text for wire in WIRE_TYPES[game]), text
    # A JSON object still reaches the host as it is (bot authors and tests type those).
    assert renderer.parse_move('{"type": "foo"}', view) == {"type": "foo"}


def test_cherki_line_mode_refuses_foo_in_the_words_help_teaches() -> None:
    out = io.StringIO()
    assert play_plain("cherki", players=3, seed=2, stdin=io.StringIO("foo\nquit\n"), stdout=out) == 0
    text = out.getvalue()
    assert "Refused: 'foo' is not a move here. The moves: draw, take, call, discard N" in text
    assert "unknown move type" not in text and "draw_stock" not in text
