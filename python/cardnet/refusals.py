"""Why a move was refused, in the player's language.

The core refuses a move with :class:`~cardnet.IllegalMove`: a stable ``code`` (``not_stronger``,
``plus_one``, ...) and an English ``reason`` that names the cards and numbers involved. This module gives
every code the core can raise a message of its own, translated through the gettext catalogs
(:mod:`cardnet.i18n`). The core does not yet hand over the cards and numbers apart from its English
sentence, so a translated message says what rule was broken without repeating them; in English,
:func:`explain_refusal` keeps the core's own, more specific sentence.

``tests/test_refusals.py`` reads the codes out of the core's source, so a new code without a message here
(or a message for a code the core no longer raises) fails.
"""

from __future__ import annotations

from .errors import IllegalMove
from .i18n import DEFAULT_LANGUAGE, current_language, gettext

__all__ = ["explain_refusal", "refusal_codes", "refusal_message"]


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs; it is translated later, when shown (gettext's usual no-op marker)."""
    return message


# One message per refusal code of the core (games, sessions and the built-in players; the RL environments'
# codes are for developers and stay English).
_MESSAGES: dict[str, str] = {
    # Every game
    "game_over": N_("The game is over."),
    "not_your_turn": N_("It is not your turn."),
    "no_such_seat": N_("There is no such seat at this table."),
    "no_such_move": N_("There is no move with that number."),
    "wrong_phase": N_("That move does not fit this moment of the game."),
    "not_in_hand": N_("That card is not in your hand."),
    "wrong_count": N_("That is the wrong number of cards."),
    "determinized": N_("A copy with guessed hidden cards cannot be saved."),
    # Cherki
    "already_drawn": N_("You have already drawn this turn: discard a card."),
    "call_with_discard": N_("After drawing, you call Cherki as you discard, not as a move of its own."),
    "draw_first": N_("Draw from the stock or take the discard before you discard."),
    "no_discard": N_("There is no discard to take: draw from the stock."),
    "took_last_turn": N_("You took the discard on your previous turn, so now you must draw from the stock."),
    "not_pair_kind": N_("You have called: you may take only a card of your pair kind."),
    "already_called": N_("You have already called Cherki this deal."),
    "not_ready": N_("Your eight cards are not two triples and a pair, so you cannot call."),
    "must_discard_drawn": N_("Your hand is locked: discard the card you drew."),
    "just_taken": N_("You cannot discard the card you took from the discard pile this turn."),
    "not_legal": N_("That move is not allowed now."),
    # A Fistful of Gold
    "plus_one": N_("The +1 rule: you may not play the card one higher than your card in the previous duel."),
    "not_in_discard": N_("That card is not in your discard pile."),
    # Matchstick Tycoon
    "must_discard": N_("Your hand is empty: your turn is to discard one matchstick."),
    "no_such_value": N_("That value exists only with the expansion, which is not in play."),
    "duplicate_card": N_("The same card is listed twice."),
    "not_stronger": N_("Your play must show a stronger value than the table's."),
    "cannot_show": N_("That card can never show that value, turned or with matchsticks."),
    "bad_detail": N_("The matchsticks or the turning given for a card do not make that value."),
    "too_few_matchsticks": N_("You do not have enough matchsticks for this play."),
    "illegal_play": N_("This play is not allowed now."),
    "not_forced": N_("You discard a matchstick only when your hand is empty: play or pass."),
    "must_lead": N_("The table is empty: you lead and must play 1 to 5 cards."),
    # TEN
    "draw_pile_empty": N_("The draw pile is empty: you must stop."),
    "empty_tableau": N_("You may stop only with a number or currency card in the tableau: draw."),
    "prize_absent": N_("The tableau holds no card of that kind, so that prize is not available."),
    "not_in_market": N_("That card is not in the market."),
    "duplicate": N_("You already have a number card of that colour and number."),
    "cannot_afford": N_("You cannot pay that much."),
    "bid_too_low": N_("A bid must be higher than the highest bid so far."),
    "no_tokens": N_("You have no currency tokens."),
    "no_bust_tokens": N_("You have no bust tokens."),
    "card_being_paid_for": N_("You cannot pay with the card you are buying."),
    "not_in_collection": N_("That card is not in your collection."),
    "overpayment": N_("A bust token now would pay more than the price while a piece already paid was not needed."),
    "not_minimal": N_("After this piece, what you have left could no longer pay the rest exactly."),
}

# Codes whose meaning differs between games get a message of the game's own.
_GAME_MESSAGES: dict[tuple[str, str], str] = {
    ("matchstick", "wrong_count"): N_("Play exactly as many cards as the table holds, or pass."),
    ("fistful", "wrong_count"): N_("That is the wrong number of cards to discard."),
    ("fistful", "not_in_hand"): N_("That card is not among the cards in your hand."),
}


def refusal_codes() -> frozenset[str]:
    """Every refusal code that has a message."""
    return frozenset(_MESSAGES)


def refusal_message(code: str, game: str | None = None) -> str | None:
    """The message for ``code`` (in ``game``, when it has one of its own) in the current language, or ``None``."""
    message = _GAME_MESSAGES.get((game, code)) if game is not None else None
    message = message or _MESSAGES.get(code)
    return gettext(message) if message is not None else None


def explain_refusal(error: IllegalMove, game: str | None = None) -> str:
    """What to tell the player whose move was refused.

    In English, the core's own reason (it names the cards and numbers). In another language, the code's
    message in that language; the core's reason only for a code this module does not know yet.
    """
    if current_language() == DEFAULT_LANGUAGE:
        return error.reason
    return refusal_message(error.code, game) or error.reason
