"""The core's own words about each game (its summary, its options' documentation, its house-rule notes) in
the player's language.

The core describes every game in English (:class:`cardnet.games.GameInfo`, read from ``_core``). This module
marks each of those English texts for the catalogs, so that :func:`core_text` finds its translation; a text
the core writes that is not listed here is shown as the core wrote it. ``tests/test_cli_i18n.py`` checks that
the list is exactly the core's texts, so a sentence changed in the Rust source fails a test rather than
falling back to English unnoticed.
"""

from __future__ import annotations

from .i18n import gettext

__all__ = ["CORE_TEXTS", "core_text"]


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs; it is translated when shown (gettext's no-op marker)."""
    return message


#: Every English text of the core's game descriptions, word for word.
CORE_TEXTS = frozenset(
    {
        # Matchstick Tycoon
        N_(
            "Climbing game with seven-segment cards: turn cards and add matchsticks to change their values, beat"
            " the table with the same number of cards, pass to take a matchstick, and be the first to empty your"
            " hand and your matchsticks."
        ),
        N_("copies of each expansion card G and H shuffled into the deck (0 = none)"),
        N_("at 2-3 players, deal the whole deck instead of 15 cards each (ignored at 4+)"),
        # A Fistful of Gold
        N_(
            "Two gunslingers duel with 9-card decks, both choosing a card in secret each duel; the closer the"
            " values the more the higher card wins, far apart the lower card wins. The richer player takes the"
            " round's sheriff star; first to 2 (or 3) stars wins."
        ),
        N_("short: first to 2 sheriff stars; long: first to 3"),
        N_("which seat plays the Pink deck: drawn at random, or fixed by the host"),
        # Cherki
        N_(
            "Malaysian money cards: draw from the stock or take the last discard, discard back to eight, call"
            " Cherki with two triples and a pair, then win by drawing or taking the card that completes the third"
            " triple. Each opponent pays the winner the hand's points."
        ),
        N_("Deals to play; scores add up over the deals and the dealer moves one seat clockwise."),
        # TEN
        N_(
            "Push your luck: draw cards until you stop or bust (numbers minus currency, or currency, reaching 11),"
            " then take the numbers or the currency. Every wild drawn is auctioned. Score the longest run per"
            " colour; a full 1–9 run scores 10."
        ),
        N_(
            "house rules: TEN's official solo mode could not be found; this variant uses the 2-player deck,"
            " ignores gains meant for other players, offers each drawn wild at a fixed price (accept or decline),"
            " and is won by reaching a target score (option solo_target)"
        ),
        N_("Solo house variant only (1 player): the total score that wins. Ignored with 2–5 players."),
    }
)


def core_text(text: str) -> str:
    """One of the core's English texts about a game, in the current language (as it is when not listed)."""
    return gettext(text) if text in CORE_TEXTS else text
