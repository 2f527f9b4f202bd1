"""A Fistful of Gold in line mode: both rows of played cards, the gold, the pot and the stars, each card
named with its owner's colour (Pink 7, Green 8), special cards explained in the move list, and every duel
resolved step by step. Moves are typed with the card faces the screen shows: ``pick 7``, ``pick D`` (the
Dynamite), ``discard 3 5`` or ``retrieve 4``; the Dynamite's internal id 9 is never a card word."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...games import Outcome
from . import GenericRenderer, Move, MoveTextError, View

__all__ = ["Renderer", "card_label"]

#: The id of each deck's Dynamite; 1-8 are the Revolver cards of that value.
DYNAMITE = 9
#: ANSI colour used for each deck colour.
_PAINT = {"pink": "magenta", "green": "green"}
_DYNAMITE_WORDS = ("d", "dyn", "dynamite")


def card_label(card: int) -> str:
    """The short face of a card: ``1``-``8`` or ``D`` for the Dynamite."""
    return "D" if card == DYNAMITE else str(card)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _parse_card(word: str) -> int | None:
    """A card word as the screen writes cards: ``1``-``8`` or ``D`` (also ``dyn``, ``dynamite``). A number
    the screen never shows is refused with a reason; None for a word that is no card at all."""
    if word.lower() in _DYNAMITE_WORDS:
        return DYNAMITE
    if not word.isdigit():
        return None
    if not 1 <= int(word) < DYNAMITE:
        raise MoveTextError(f"there is no card {word}: the cards are 1 to 8 and D (the Dynamite)")
    return int(word)


class Renderer(GenericRenderer):
    """Draws the duel table of A Fistful of Gold."""

    move_words = "pick CARD, discard CARD CARD, retrieve CARD"

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(names)
        self.colours: list[str] = []
        #: The seat whose moves are listed: the one named "You", or the last seat a table was drawn for.
        self.me = self.names.index("You") if "You" in self.names else 0

    def observe(self, view: View) -> None:
        self.colours = list(view["public"].get("colours") or [])

    # -- naming -------------------------------------------------------------------------------------

    def colour_of(self, seat: int) -> str:
        """``Pink`` or ``Green`` for a seat (empty before any view was seen)."""
        return self.colours[seat].capitalize() if 0 <= seat < len(self.colours) else ""

    def card(self, seat: int, card: int, short: bool = False) -> str:
        """A seat's card as ``Pink 7`` / ``Green Dynamite`` (or ``7`` / ``D`` when ``short``), painted in
        its colour."""
        colour = self.colours[seat] if 0 <= seat < len(self.colours) else ""
        if short:
            text = card_label(card)
        else:
            face = "Dynamite" if card == DYNAMITE else str(card)
            text = f"{colour.capitalize()} {face}".strip()
        return self.paint(text, _PAINT.get(colour))

    def cards(self, seat: int, cards: Sequence[int]) -> str:
        """Several of a seat's cards, short faces separated by spaces (``-`` for none)."""
        return " ".join(self.card(seat, c, short=True) for c in cards) or "-"

    def special(self, seat: int, card: int) -> str:
        """What a card does beyond the plain duel table (empty for 1-5)."""
        colour = self.colours[seat] if 0 <= seat < len(self.colours) else ""
        if card == DYNAMITE:
            return "Dynamite: beats 1-4, loses to 5-8, the winner gets 3"
        if card == 6:
            return "the round's first 6 takes the pot"
        if card == 7:
            return "Pink 7: ends the round from duel 3" if colour == "pink" else "Green 7: +1 gold per later duel won"
        if card == 8:
            if colour == "pink":
                return "Pink 8: wins 3 against a 1"
            return "Green 8: take a discard back, discard 2 at round end"
        return ""

    # -- the table ----------------------------------------------------------------------------------

    def table(self, view: View, me: int) -> list[str]:
        pub: Mapping[str, Any] = view["public"]
        priv: Mapping[str, Any] | None = view.get("private")
        # A spectator (no seat) sees the duel from seat 0's side, as the full-screen client draws it.
        me = me if me in (0, 1) else 0
        self.me = me
        them = 1 - me
        stars = ", ".join(f"{self.name(s)} {pub['stars'][s]}" for s in (me, them))
        length = f"{pub['length']} match (first to {_plural(pub['target_stars'], 'star')})"
        lines = [f"Round {pub['round']} of a {length}. Stars: {stars}"]
        if pub["phase"] in ("pick", "green8_retrieve"):
            lines.append(
                f"Duel {pub['duel']} of {pub['duels_in_round']}. Gold: {self.name(me)} {pub['gold'][me]}, "
                f"{self.name(them)} {pub['gold'][them]}; pot {pub['pot']}"
            )
        for seat in (me, them):
            who = f"{self.name(seat)} ({self.colour_of(seat)})"
            lines += self.wrap(
                f"  {who + ' played:':<24}",
                [
                    self.cards(seat, pub["played"][seat]),
                    f"[hand {pub['hand_sizes'][seat]}, discard pile {pub['discard_sizes'][seat]}]",
                ],
                indent="      ",
            )
        last = pub.get("last_duel")
        if last and last.get("round") == pub["round"]:
            played = f"{self.card(0, last['cards'][0])} vs {self.card(1, last['cards'][1])}"
            if me == 1:
                played = f"{self.card(1, last['cards'][1])} vs {self.card(0, last['cards'][0])}"
            steps = [self.step_text(s) for s in last.get("steps", [])] or ["nothing happens"]
            lines += self.wrap(f"Last duel ({last['duel']}): {played}:", steps, indent="    ", sep="; ")
        lines += self.effects(pub)
        if pub["picked"][them] and pub["phase"] == "pick":
            lines.append(f"{self.does(them, 'has', 'have')} picked a card.")
        if priv is not None:
            hand = f"Your hand ({self.colour_of(me)}):"
            lines += self.wrap(
                hand, [self.cards(me, priv["hand"]), f"  discard pile: {self.cards(me, priv['discard'])}"]
            )
            if priv.get("pick") is not None:
                lines.append(f"Your pick: {self.card(me, priv['pick'])}")
        lines += self.barred(pub, me)
        lines += self.prompt(pub, me)
        return lines

    def effects(self, pub: Mapping[str, Any]) -> list[str]:
        """Lines for the special effects already in play this round."""
        notes = []
        if pub.get("six_played"):
            notes.append("a 6 was played (no more pot taking)")
        at = pub.get("green7_played_at")
        if at is not None:
            green = self.colours.index("green") if "green" in self.colours else None
            who = f" by {self.name(green)}" if green is not None else ""
            notes.append(f"Green 7 played{who} in duel {at} (+1 per duel won after it)")
        retrieved = pub.get("retrieved")
        if retrieved:
            notes.append(
                f"{self.name(retrieved['seat'])} took back {self.card(retrieved['seat'], retrieved['card'])} (Green 8)"
            )
        return self.wrap("This round:", notes, sep="; ") if notes else []

    def barred(self, pub: Mapping[str, Any], me: int) -> list[str]:
        """Which card the +1 rule bars for each seat in this duel."""
        if pub["phase"] != "pick":
            return []
        lines = []
        for seat in (me, 1 - me):
            card = (pub.get("barred") or [None, None])[seat]
            if card is None:
                continue
            whose = "your" if self.name(seat) == "You" else f"{self.name(seat)}'s"
            lines.append(f"Barred by the +1 rule: {whose} {self.card(seat, card)} (played {card - 1} last duel)")
        return lines

    def prompt(self, pub: Mapping[str, Any], me: int) -> list[str]:
        """What the player is asked to do now."""
        phase = pub["phase"]
        if phase == "setup_discard":
            return ["Setup: discard 2 of your 9 cards face down; you keep 7 for round 1."]
        if phase == "pick":
            return [f"Pick your card for duel {pub['duel']}; both cards are revealed together."]
        if phase == "green8_retrieve":
            return ["Green 8: take one card back from your discard pile (your opponent sees it)."]
        if phase == "round_end_discard":
            return ["The round ended early: discard unplayed cards face down, then take back the played ones."]
        return []

    # -- moves --------------------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        kind = move.get("type")
        if kind == "pick":
            return f"pick {card_label(move['card'])}"
        if kind == "retrieve":
            return f"retrieve {card_label(move['card'])}"
        if kind == "discard":
            return " ".join(["discard"] + [card_label(c) for c in move["cards"]])
        return super().move_text(move)

    def move_note(self, move: Move, view: View) -> str:
        pub = view["public"]
        me = self.me
        kind = move.get("type")
        if kind == "discard":
            return " + ".join(self.card(me, c) for c in move["cards"])
        if kind == "retrieve":
            return self.card(me, move["card"]) + (f": {self.special(me, move['card'])}" if move["card"] >= 6 else "")
        if kind != "pick":
            return ""
        card: int = move["card"]
        colour = self.colours[me] if 0 <= me < len(self.colours) else ""
        notes = []
        if card == 6:
            notes.append(
                "a 6 was already played: no pot"
                if pub.get("six_played")
                else f"first 6 takes the pot ({pub['pot']} gold)"
            )
        elif card == 7 and colour == "pink":
            duel = pub["duel"]
            notes.append(
                "Pink 7: ends the round after this duel" if duel >= 3 else "Pink 7: ends the round from duel 3"
            )
        elif card >= 7:
            notes.append(self.special(me, card))
        hand = (view.get("private") or {}).get("hand", [])
        if card < 8 and card + 1 in hand and pub["duel"] < pub["duels_in_round"]:
            notes.append(f"bars your {card + 1} next duel")
        return "; ".join(notes)

    def list_hint(self, key: str) -> str:
        if key == "discard":
            return "or type any two, e.g. discard 3 D"
        return super().list_hint(key)

    def progress(self, public: Mapping[str, Any], seat: int) -> str:
        stars = public["stars"]
        return f"round {public['round']}, duel {public['duel']} of {public['duels_in_round']}, stars {stars[seat]}-{stars[1 - seat]}"

    def parse_move(self, text: str, view: View) -> Move | None:
        words = text.split()
        if not words:
            return None
        head = words[0].lower()
        cards = [_parse_card(w) for w in words[1:]]
        if head in ("pick", "play", "p", "retrieve", "r", "discard", "d") and cards and None not in cards:
            ids = [c for c in cards if c is not None]
            if head in ("discard", "d"):
                return {"type": "discard", "cards": sorted(ids)}
            if len(ids) == 1:
                kind = "retrieve" if head in ("retrieve", "r") else "pick"
                return {"type": kind, "card": ids[0]}
        return self.unknown_move(text, view)

    # -- events -------------------------------------------------------------------------------------

    def step_text(self, step: Mapping[str, Any]) -> str:
        """One resolution step of a duel (from ``last_duel.steps`` or a step event)."""
        kind = step.get("step") or step.get("type")
        seat: int = step.get("seat", -1)
        if kind == "tie":
            return f"tie: 2 gold into the pot (pot {step['pot']})"
        if kind == "base":
            return f"{self.does(seat, 'wins', 'win')} {step['gold']} gold"
        if kind == "pink8":
            return f"Pink 8 beats the 1: {self.does(seat, 'wins', 'win')} {step['gold']} gold instead"
        if kind == "green7_bonus":
            return f"Green 7 bonus: {self.does(seat, 'gets', 'get')} {step['gold']} more gold"
        if kind == "six_takes_pot":
            takes = self.does(seat, "takes", "take")
            if not step["gold"]:
                return f"first 6: {takes} the pot, but it is empty"
            return f"first 6: {takes} the pot ({step['gold']} gold)"
        if kind == "green8_retrieve":
            return f"Green 8: {self.does(seat, 'takes', 'take')} back {self.card(seat, step['card'])}"
        if kind == "pink7_end":
            return "Pink 7 in duel 3 or later: the round ends"
        return str(kind)

    def event_text(self, event: Mapping[str, Any]) -> str | None:
        kind = event.get("type")
        seat: int = event.get("seat", -1)
        if kind == "pick":
            if "card" in event:
                return f"{self.does(seat, 'picks', 'pick')} {self.card(seat, event['card'])}."
            return f"{self.does(seat, 'has', 'have')} picked a card."
        if kind == "discard":
            when = "setup" if event.get("when") == "setup" else "round end"
            forced = ", forced" if event.get("auto") else ""
            if "cards" in event:
                shown = " and ".join(self.card(seat, c) for c in event["cards"])
                return f"{self.does(seat, 'discards', 'discard')} {shown} face down ({when}{forced})."
            count = _plural(event["count"], "card")
            return f"{self.does(seat, 'discards', 'discard')} {count} face down ({when}{forced})."
        if kind == "reveal":
            a, b = event["cards"]
            return f"Duel {event['duel']}: {self.name(0)} {self.card(0, a)} vs {self.name(1)} {self.card(1, b)}"
        if kind in ("tie", "base", "pink8", "green7_bonus", "six_takes_pot", "green8_retrieve", "pink7_end"):
            return "  - " + self.step_text(event)
        if kind == "round_end":
            gold = ", ".join(f"{self.name(s)} {g}" for s, g in enumerate(event["gold"]))
            star = event.get("star")
            stars = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(event["stars"]))
            won = f"{self.does(star, 'wins', 'win')} a sheriff star" if isinstance(star, int) else "equal gold, no star"
            return f"Round {event['round']} over, gold {gold}:\n    {won}. Stars: {stars}."
        if kind == "take_back":
            sizes = event["hand_sizes"]
            return f"Played cards go back to hand (hands: {sizes[0]} and {sizes[1]} cards)."
        if kind == "round_start":
            return f"Round {event['round']} begins: {_plural(event['duels'], 'duel')}."
        if kind == "match_end":
            return None
        return super().event_text(event)

    def outcome_lines(self, outcome: Outcome) -> list[str]:
        lines = []
        for place, seat in enumerate(outcome.order, start=1):
            won = " - winner" if seat in outcome.winners else ""
            lines.append(
                f"  {place}. {self.name(seat)} ({self.colour_of(seat)}): {_plural(outcome.scores[seat], 'star')}{won}"
            )
        if outcome.detail.get("reason") == "no_duels_left":
            lines.append("  No duel was left to play, and the stars were equal.")
        return lines

    def help(self) -> list[str]:
        return [
            "Moves: 'pick 7' plays a card in the duel ('pick D' the Dynamite); 'discard 3 5' discards face down;"
            " 'retrieve 4' takes a card back after your Green 8. Cards are 1 to 8 and D, in their owner's colour:"
            " Pink 7, Green 8.",
            "Duel: equal cards tie (2 gold to the pot); 1-3 apart the higher card wins the difference, 4+ apart the"
            " lower one does. +1 rule: you may not play one more than your own card of the previous duel.",
        ]
