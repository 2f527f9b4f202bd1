"""A tiny game with the core's Python face, so the host and peer can be tested on their own.

"Call and pick": each round the leader calls high or low, then every seat picks a card from its hidden hand at
the same time (picks stay hidden until all are in); the best card scores. It has what the network layer must
handle: a turn-based decision, a simultaneous hidden decision, per-seat redaction, and determinization.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from cardnet.protocol import canonical
from cardnet.table import Engine

ROUNDS = 3


class FakeIllegal(ValueError):
    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class FakeInvalid(ValueError):
    pass


class CallAndPick:
    def __init__(self, players: int, seed: int, options: dict[str, Any] | None = None) -> None:
        if not 2 <= players <= 4:
            raise ValueError("2..4 players")
        self.players = players
        self.seed = seed
        self.options = dict(options or {})
        self.rounds = int(self.options.get("rounds", ROUNDS))
        size = self.rounds + 1
        deck = list(range(1, size * players + 1))
        random.Random(seed).shuffle(deck)
        self.hands = [sorted(deck[i * size : i * size + size]) for i in range(players)]
        self.round = 0
        self.scores = [0] * players
        self.call: str | None = None
        self.picks: list[int | None] = [None] * players
        self.revealed: list[list[int]] = []
        self.events: list[tuple[int | str | None, dict[str, Any]]] = []

    # views ------------------------------------------------------------------------------------------------
    def leader(self) -> int:
        return self.round % self.players

    def public(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "call": self.call,
            "leader": self.leader(),
            "scores": list(self.scores),
            "picked": [p is not None for p in self.picks],
            "revealed": [list(r) for r in self.revealed],
            "hand_sizes": [len(h) for h in self.hands],
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        private = None if seat is None else {"hand": list(self.hands[seat]), "pick": self.picks[seat]}
        return {"public": self.public(), "private": private}

    def view_json(self, seat: int | None) -> str:
        return canonical(self.view(seat))

    def state_hash(self) -> str:
        return hashlib.sha256(canonical(self.public()).encode()).hexdigest()

    def events_for(self, seat: int | None) -> list[dict[str, Any]]:
        audience = "spectators" if seat is None else seat
        return [e for who, e in self.events if who is None or who == audience]

    def events_json(self, seat: int | None) -> str:
        return canonical(self.events_for(seat))

    # moves ------------------------------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.round >= self.rounds

    def to_act(self) -> list[int]:
        if self.is_over():
            return []
        if self.call is None:
            return [self.leader()]
        return [s for s in range(self.players) if self.picks[s] is None]

    def legal_moves(self, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act():
            return []
        if self.call is None:
            return [{"type": "call", "value": "high"}, {"type": "call", "value": "low"}]
        return [{"type": "pick", "card": c} for c in self.hands[seat]]

    def legal_moves_json(self, seat: int) -> str:
        return canonical(self.legal_moves(seat))

    def legal_count(self, seat: int) -> int:
        return len(self.legal_moves(seat))

    def legal_move(self, seat: int, index: int) -> dict[str, Any]:
        return self.legal_moves(seat)[index]

    def apply(self, seat: int, move: Any) -> None:
        if not isinstance(move, dict) or move.get("type") not in ("call", "pick"):
            raise FakeInvalid("a move is {type: call|pick, ...}")
        if seat not in self.to_act():
            raise FakeIllegal("not_your_turn", f"seat {seat} does not act now")
        if move not in self.legal_moves(seat):
            raise FakeIllegal("illegal", f"{json.dumps(move, sort_keys=True)} is not legal now")
        self.events = []
        if move["type"] == "call":
            self.call = move["value"]
            self.events.append((None, {"type": "called", "seat": seat, "value": self.call}))
            return
        self.picks[seat] = move["card"]
        self.events.append((seat, {"type": "picked", "seat": seat, "card": move["card"]}))
        for other in range(self.players):
            if other != seat:
                self.events.append((other, {"type": "picked", "seat": seat}))
        self.events.append(("spectators", {"type": "picked", "seat": seat}))
        if all(p is not None for p in self.picks):
            cards = [int(p) for p in self.picks if p is not None]
            best = max(cards) if self.call == "high" else min(cards)
            winner = cards.index(best)
            self.scores[winner] += 1
            for s, c in enumerate(cards):
                self.hands[s].remove(c)
            self.revealed.append(cards)
            self.events.append((None, {"type": "reveal", "cards": cards, "winner": winner}))
            self.round += 1
            self.call = None
            self.picks = [None] * self.players

    def outcome(self) -> dict[str, Any] | None:
        if not self.is_over():
            return None
        top = max(self.scores)
        return {"scores": list(self.scores), "winners": [s for s, v in enumerate(self.scores) if v == top]}

    def clone(self) -> CallAndPick:
        other = CallAndPick.__new__(CallAndPick)
        other.__dict__ = json.loads(json.dumps(self.__dict__))
        other.events = [(w, e) for w, e in other.events]
        return other

    def determinize(self, observer: int | None, seed: int) -> CallAndPick:
        """Deal every other seat's unseen cards (hand and pending pick) anew."""
        other = self.clone()
        rng = random.Random(seed)
        hidden_seats = [s for s in range(self.players) if s != observer]
        pool: list[int] = []
        for s in hidden_seats:
            pool.extend(other.hands[s])
        rng.shuffle(pool)
        for s in hidden_seats:
            n = len(other.hands[s])
            other.hands[s], pool = sorted(pool[:n]), pool[n:]
            if other.picks[s] is not None:
                other.picks[s] = rng.choice(other.hands[s])
        other.events = []
        return other


def fake_engine() -> Engine:
    def new_game(name: str, players: int, seed: int, options: dict[str, Any]) -> CallAndPick:
        if name != "callpick":
            raise ValueError(f"unknown game {name}")
        return CallAndPick(players, seed, options)

    def choose(game: Any, seat: int, player: str, seed: int) -> Any:
        legal = game.legal_moves(seat)
        return random.Random(seed).choice(legal)

    return Engine(new_game, choose, FakeIllegal, FakeInvalid)
