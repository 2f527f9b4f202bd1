"""A Fistful of Gold in line mode: both rows of played cards, the gold, the pot and the stars, each card
named with its owner's colour (Pink 7, Green 8), special cards explained in the move list, and every duel
resolved step by step. Moves are typed with the card faces the screen shows: ``pick 7``, ``pick D`` (the
Dynamite), ``discard 3 5`` or ``retrieve 4``; the Dynamite's internal id 9 is never a card word."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...games import Outcome
from ...i18n import gettext as _
from ...i18n import ngettext, pgettext
from . import GenericRenderer, Move, MoveTextError, View, reads, you

__all__ = ["Renderer", "card_label"]

#: The id of each deck's Dynamite; 1-8 are the Revolver cards of that value.
DYNAMITE = 9
#: ANSI colour used for each deck colour.
_PAINT = {"pink": "magenta", "green": "green"}
_DYNAMITE_WORDS = ("d", "dyn", "dynamite")


def card_label(card: int) -> str:
    """The short face of a card: ``1``-``8`` or ``D`` for the Dynamite."""
    return "D" if card == DYNAMITE else str(card)


def _word(word: str) -> str:
    """A move word a Fistful player types (``pick``, ``discard``, ``retrieve``) in the current language."""
    words = {
        "pick": pgettext("fistful move", "pick"),
        "discard": pgettext("fistful move", "discard"),
        "retrieve": pgettext("fistful move", "retrieve"),
    }
    return words[word]


def _colour_name(colour: str) -> str:
    """``Pink`` or ``Green`` in the current language (empty for an unknown colour)."""
    return {"pink": _("Pink"), "green": _("Green")}.get(colour, colour.capitalize())


def _parse_card(word: str) -> int | None:
    """A card word as the screen writes cards: ``1``-``8`` or ``D`` (also ``dyn``, ``dynamite``). A number
    the screen never shows is refused with a reason; None for a word that is no card at all."""
    if word.lower() in _DYNAMITE_WORDS:
        return DYNAMITE
    if not word.isdigit():
        return None
    if not 1 <= int(word) < DYNAMITE:
        raise MoveTextError(_("there is no card {card}: the cards are 1 to 8 and D (the Dynamite)").format(card=word))
    return int(word)


class Renderer(GenericRenderer):
    """Draws the duel table of A Fistful of Gold."""

    def move_words(self) -> str:
        return _("{pick} CARD, {discard} CARD CARD, {retrieve} CARD").format(
            pick=_word("pick"), discard=_word("discard"), retrieve=_word("retrieve")
        )

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(names)
        self.colours: list[str] = []
        #: The seat whose moves are listed: the one named "You", or the last seat a table was drawn for.
        mine = [s for s in range(len(self.names)) if self.names[s] in (you(), "You")]
        self.me = mine[0] if mine else 0

    def observe(self, view: View) -> None:
        self.colours = list(view["public"].get("colours") or [])

    # -- naming -------------------------------------------------------------------------------------

    def colour_of(self, seat: int) -> str:
        """``Pink`` or ``Green`` for a seat (empty before any view was seen)."""
        return _colour_name(self.colours[seat]) if 0 <= seat < len(self.colours) else ""

    def card(self, seat: int, card: int, short: bool = False) -> str:
        """A seat's card as ``Pink 7`` / ``Green Dynamite`` (or ``7`` / ``D`` when ``short``), painted in
        its colour."""
        colour = self.colours[seat] if 0 <= seat < len(self.colours) else ""
        if short:
            text = card_label(card)
        elif card == DYNAMITE:
            text = {"pink": _("Pink Dynamite"), "green": _("Green Dynamite")}.get(colour, _("Dynamite"))
        else:
            text = {"pink": _("Pink {card}"), "green": _("Green {card}")}.get(colour, "{card}").format(card=card)
        return self.paint(text, _PAINT.get(colour))

    def cards(self, seat: int, cards: Sequence[int]) -> str:
        """Several of a seat's cards, short faces separated by spaces (``-`` for none)."""
        return " ".join(self.card(seat, c, short=True) for c in cards) or "-"

    def special(self, seat: int, card: int) -> str:
        """What a card does beyond the plain duel table (empty for 1-5)."""
        colour = self.colours[seat] if 0 <= seat < len(self.colours) else ""
        if card == DYNAMITE:
            return _("Dynamite: beats 1-4, loses to 5-8, the winner gets 3")
        if card == 6:
            return _("the round's first 6 takes the pot")
        if card == 7:
            return (
                _("Pink 7: ends the round from duel 3")
                if colour == "pink"
                else _("Green 7: +1 gold per later duel won")
            )
        if card == 8:
            if colour == "pink":
                return _("Pink 8: wins 3 against a 1")
            return _("Green 8: take a discard back, discard 2 at round end")
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
        if pub["length"] == "short":
            head = ngettext(
                "Round {round} of a short match (first to {count} star). Stars: {stars}",
                "Round {round} of a short match (first to {count} stars). Stars: {stars}",
                pub["target_stars"],
            )
        else:
            head = ngettext(
                "Round {round} of a long match (first to {count} star). Stars: {stars}",
                "Round {round} of a long match (first to {count} stars). Stars: {stars}",
                pub["target_stars"],
            )
        lines = [head.format(round=pub["round"], count=pub["target_stars"], stars=stars)]
        if pub["phase"] in ("pick", "green8_retrieve"):
            lines.append(
                _("Duel {duel} of {duels}. Gold: {me} {my_gold}, {them} {their_gold}; pot {pot}").format(
                    duel=pub["duel"],
                    duels=pub["duels_in_round"],
                    me=self.name(me),
                    my_gold=pub["gold"][me],
                    them=self.name(them),
                    their_gold=pub["gold"][them],
                    pot=pub["pot"],
                )
            )
        for seat in (me, them):
            who = _("{name} ({colour}) played:").format(name=self.name(seat), colour=self.colour_of(seat))
            lines += self.wrap(
                f"  {who:<24}",
                [
                    self.cards(seat, pub["played"][seat]),
                    _("[hand {hand}, discard pile {discards}]").format(
                        hand=pub["hand_sizes"][seat], discards=pub["discard_sizes"][seat]
                    ),
                ],
                indent="      ",
            )
        last = pub.get("last_duel")
        if last and last.get("round") == pub["round"]:
            first, second = (0, 1) if me == 0 else (1, 0)
            played = _("{first} vs {second}").format(
                first=self.card(first, last["cards"][first]), second=self.card(second, last["cards"][second])
            )
            steps = [self.step_text(s) for s in last.get("steps", [])] or [_("nothing happens")]
            head = _("Last duel ({duel}): {played}:").format(duel=last["duel"], played=played)
            lines += self.wrap(head, steps, indent="    ", sep="; ")
        lines += self.effects(pub)
        if pub["picked"][them] and pub["phase"] == "pick":
            lines.append(self.says(them, _("You have picked a card."), _("{name} has picked a card.")))
        if priv is not None:
            hand = _("Your hand ({colour}):").format(colour=self.colour_of(me))
            lines += self.wrap(
                hand,
                [
                    self.cards(me, priv["hand"]),
                    "  " + _("discard pile: {cards}").format(cards=self.cards(me, priv["discard"])),
                ],
            )
            if priv.get("pick") is not None:
                lines.append(_("Your pick: {card}").format(card=self.card(me, priv["pick"])))
        lines += self.barred(pub, me)
        lines += self.prompt(pub, priv)
        return lines

    def effects(self, pub: Mapping[str, Any]) -> list[str]:
        """Lines for the special effects already in play this round."""
        notes = []
        if pub.get("six_played"):
            notes.append(_("a 6 was played (no more pot taking)"))
        at = pub.get("green7_played_at")
        if at is not None:
            green = self.colours.index("green") if "green" in self.colours else None
            if green is not None:
                notes.append(
                    _("Green 7 played by {name} in duel {duel} (+1 per duel won after it)").format(
                        name=self.name(green), duel=at
                    )
                )
            else:
                notes.append(_("Green 7 played in duel {duel} (+1 per duel won after it)").format(duel=at))
        retrieved = pub.get("retrieved")
        if retrieved:
            notes.append(
                _("{name} took back {card} (Green 8)").format(
                    name=self.name(retrieved["seat"]), card=self.card(retrieved["seat"], retrieved["card"])
                )
            )
        return self.wrap(_("This round:"), notes, sep="; ") if notes else []

    def barred(self, pub: Mapping[str, Any], me: int) -> list[str]:
        """Which card the +1 rule bars for each seat in this duel."""
        if pub["phase"] != "pick":
            return []
        lines = []
        for seat in (me, 1 - me):
            card = (pub.get("barred") or [None, None])[seat]
            if card is None:
                continue
            lines.append(
                self.says(
                    seat,
                    _("Barred by the +1 rule: your {card} (played {last} last duel)"),
                    _("Barred by the +1 rule: {name}'s {card} (played {last} last duel)"),
                    card=self.card(seat, card),
                    last=card - 1,
                )
            )
        return lines

    def prompt(self, pub: Mapping[str, Any], priv: Mapping[str, Any] | None) -> list[str]:
        """What the player is asked to do now; nothing for a spectator (``priv`` None), who has no cards to do
        it with."""
        if priv is None:
            return []
        phase = pub["phase"]
        if phase == "setup_discard":
            return [_("Setup: discard 2 of your 9 cards face down; you keep 7 for round 1.")]
        if phase == "pick":
            return [_("Pick your card for duel {duel}; both cards are revealed together.").format(duel=pub["duel"])]
        if phase == "green8_retrieve":
            return [_("Green 8: take one card back from your discard pile (your opponent sees it).")]
        if phase == "round_end_discard":
            return [_("The round ended early: discard unplayed cards face down, then take back the played ones.")]
        return []

    # -- moves --------------------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        kind = move.get("type")
        if kind == "pick":
            return f"{_word('pick')} {card_label(move['card'])}"
        if kind == "retrieve":
            return f"{_word('retrieve')} {card_label(move['card'])}"
        if kind == "discard":
            return " ".join([_word("discard")] + [card_label(c) for c in move["cards"]])
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
                _("a 6 was already played: no pot")
                if pub.get("six_played")
                else _("first 6 takes the pot ({gold} gold)").format(gold=pub["pot"])
            )
        elif card == 7 and colour == "pink":
            duel = pub["duel"]
            notes.append(
                _("Pink 7: ends the round after this duel") if duel >= 3 else _("Pink 7: ends the round from duel 3")
            )
        elif card >= 7:
            notes.append(self.special(me, card))
        hand = (view.get("private") or {}).get("hand", [])
        if card < 8 and card + 1 in hand and pub["duel"] < pub["duels_in_round"]:
            notes.append(_("bars your {card} next duel").format(card=card + 1))
        return "; ".join(notes)

    def group_key(self, move: Move) -> str:
        kind = move.get("type")
        return _word(kind) if kind in ("pick", "discard", "retrieve") else super().group_key(move)

    def list_hint(self, key: str) -> str:
        if key == _word("discard"):
            return _("or type any two, e.g. {discard} 3 D").format(discard=_word("discard"))
        return super().list_hint(key)

    def progress(self, public: Mapping[str, Any], seat: int) -> str:
        stars = public["stars"]
        return _("round {round}, duel {duel} of {duels}, stars {mine}-{theirs}").format(
            round=public["round"],
            duel=public["duel"],
            duels=public["duels_in_round"],
            mine=stars[seat],
            theirs=stars[1 - seat],
        )

    def parse_move(self, text: str, view: View) -> Move | None:
        words = text.split()
        if not words:
            return None
        head = words[0].lower()
        discard = reads(head, "discard", _word) or head == "d"
        retrieve = reads(head, "retrieve", _word) or head == "r"
        pick = reads(head, "pick", _word) or head in ("play", "p")
        cards = [_parse_card(w) for w in words[1:]]
        if (pick or retrieve or discard) and cards and None not in cards:
            ids = [c for c in cards if c is not None]
            if discard:
                return {"type": "discard", "cards": sorted(ids)}
            if len(ids) == 1:
                return {"type": "retrieve" if retrieve else "pick", "card": ids[0]}
        return self.unknown_move(text, view)

    # -- events -------------------------------------------------------------------------------------

    def step_text(self, step: Mapping[str, Any]) -> str:
        """One resolution step of a duel (from ``last_duel.steps`` or a step event)."""
        kind = step.get("step") or step.get("type")
        seat: int = step.get("seat", -1)
        if kind == "tie":
            return _("tie: 2 gold into the pot (pot {pot})").format(pot=step["pot"])
        if kind == "base":
            return self.says(seat, _("You win {gold} gold"), _("{name} wins {gold} gold"), gold=step["gold"])
        if kind == "pink8":
            return self.says(
                seat,
                _("Pink 8 beats the 1: You win {gold} gold instead"),
                _("Pink 8 beats the 1: {name} wins {gold} gold instead"),
                gold=step["gold"],
            )
        if kind == "green7_bonus":
            return self.says(
                seat,
                _("Green 7 bonus: You get {gold} more gold"),
                _("Green 7 bonus: {name} gets {gold} more gold"),
                gold=step["gold"],
            )
        if kind == "six_takes_pot":
            if not step["gold"]:
                return self.says(
                    seat,
                    _("first 6: You take the pot, but it is empty"),
                    _("first 6: {name} takes the pot, but it is empty"),
                )
            return self.says(
                seat,
                _("first 6: You take the pot ({gold} gold)"),
                _("first 6: {name} takes the pot ({gold} gold)"),
                gold=step["gold"],
            )
        if kind == "green8_retrieve":
            return self.says(
                seat,
                _("Green 8: You take back {card}"),
                _("Green 8: {name} takes back {card}"),
                card=self.card(seat, step["card"]),
            )
        if kind == "pink7_end":
            return _("Pink 7 in duel 3 or later: the round ends")
        return str(kind)

    def event_text(self, event: Mapping[str, Any]) -> str | None:
        kind = event.get("type")
        seat: int = event.get("seat", -1)
        if kind == "pick":
            if "card" in event:
                return self.says(
                    seat, _("You pick {card}."), _("{name} picks {card}."), card=self.card(seat, event["card"])
                )
            return self.says(seat, _("You have picked a card."), _("{name} has picked a card."))
        if kind == "discard":
            if "cards" in event:
                shown = (
                    _("{first} and {second}").format(
                        first=self.card(seat, event["cards"][0]), second=self.card(seat, event["cards"][-1])
                    )
                    if len(event["cards"]) == 2
                    else ", ".join(self.card(seat, c) for c in event["cards"])
                )
            else:
                shown = ngettext("{count} card", "{count} cards", event["count"]).format(count=event["count"])
            setup = event.get("when") == "setup"
            if event.get("auto"):
                yours = (
                    _("You discard {cards} face down (setup, forced).")
                    if setup
                    else _("You discard {cards} face down (round end, forced).")
                )
                theirs = (
                    _("{name} discards {cards} face down (setup, forced).")
                    if setup
                    else _("{name} discards {cards} face down (round end, forced).")
                )
            else:
                yours = (
                    _("You discard {cards} face down (setup).")
                    if setup
                    else _("You discard {cards} face down (round end).")
                )
                theirs = (
                    _("{name} discards {cards} face down (setup).")
                    if setup
                    else _("{name} discards {cards} face down (round end).")
                )
            return self.says(seat, yours, theirs, cards=shown)
        if kind == "reveal":
            a, b = event["cards"]
            return _("Duel {duel}: {first} {first_card} vs {second} {second_card}").format(
                duel=event["duel"],
                first=self.name(0),
                first_card=self.card(0, a),
                second=self.name(1),
                second_card=self.card(1, b),
            )
        if kind in ("tie", "base", "pink8", "green7_bonus", "six_takes_pot", "green8_retrieve", "pink7_end"):
            return "  - " + self.step_text(event)
        if kind == "round_end":
            gold = ", ".join(f"{self.name(s)} {g}" for s, g in enumerate(event["gold"]))
            star = event.get("star")
            stars = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(event["stars"]))
            if isinstance(star, int):
                won = self.says(star, _("You win a sheriff star"), _("{name} wins a sheriff star"))
            else:
                won = _("equal gold, no star")
            return _("Round {round} over, gold {gold}:\n    {result}. Stars: {stars}.").format(
                round=event["round"], gold=gold, result=won, stars=stars
            )
        if kind == "take_back":
            sizes = event["hand_sizes"]
            return _("Played cards go back to hand (hands: {first} and {second} cards).").format(
                first=sizes[0], second=sizes[1]
            )
        if kind == "round_start":
            return ngettext(
                "Round {round} begins: {count} duel.", "Round {round} begins: {count} duels.", event["duels"]
            ).format(round=event["round"], count=event["duels"])
        if kind == "match_end":
            return None
        return super().event_text(event)

    def outcome_lines(self, outcome: Outcome) -> list[str]:
        lines = []
        for place, seat in enumerate(outcome.order, start=1):
            stars = outcome.scores[seat]
            fields = {"place": place, "name": self.name(seat), "colour": self.colour_of(seat), "count": stars}
            if seat in outcome.winners:
                text = ngettext(
                    "{place}. {name} ({colour}): {count} star - winner",
                    "{place}. {name} ({colour}): {count} stars - winner",
                    stars,
                )
            else:
                text = ngettext(
                    "{place}. {name} ({colour}): {count} star", "{place}. {name} ({colour}): {count} stars", stars
                )
            lines.append("  " + text.format(**fields))
        if outcome.detail.get("reason") == "no_duels_left":
            lines.append("  " + _("No duel was left to play, and the stars were equal."))
        return lines

    def help(self) -> list[str]:
        return [
            _(
                "Moves: '{pick} 7' plays a card in the duel ('{pick} D' the Dynamite); '{discard} 3 5' discards face"
                " down; '{retrieve} 4' takes a card back after your Green 8. Cards are 1 to 8 and D, in their owner's"
                " colour: Pink 7, Green 8."
            ).format(pick=_word("pick"), discard=_word("discard"), retrieve=_word("retrieve")),
            _(
                "Duel: equal cards tie (2 gold to the pot); 1-3 apart the higher card wins the difference, 4+ apart"
                " the lower one does. +1 rule: you may not play one more than your own card of the previous duel."
            ),
        ]
