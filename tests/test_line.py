"""The line-mode loop's wording: seat names for the renderer and refusals in a player's words."""

from __future__ import annotations

from cardnet.net.peer import HostError
from cardnet.protocol import JSONValue
from cardnet.ui.line import refusal_text, seat_names


def seat(index: int, name: str | None, kind: str = "human") -> JSONValue:
    return {"seat": index, "name": name, "kind": kind, "connected": True, "auto": False}


def test_seat_names_call_the_player_you_and_tell_equal_names_apart() -> None:
    seats = [seat(0, "ann"), seat(1, "random bot", "bot"), seat(2, "random bot", "bot"), seat(3, None, "open")]
    assert seat_names(seats, 0) == ["You", "random bot #1", "random bot #2", "Seat 3"]
    # A spectator has no "You".
    assert seat_names(seats, None)[0] == "ann"


def test_refusals_are_explained_in_player_words() -> None:
    def error(code: str, reason: str) -> HostError:
        return HostError(code, reason, 3, None)

    assert refusal_text(error("stale_decision", "decision 12 is not open; yours is 14")).startswith("too late")
    assert refusal_text(error("wrong_seat", "decision 4 belongs to seat 1")) == "it is not your turn"
    # The core's own reason for a move the rules refuse is already in words.
    assert refusal_text(error("illegal_move", "a 7 cannot show 2")) == "a 7 cannot show 2"
