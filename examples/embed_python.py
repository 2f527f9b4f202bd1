"""Embedding cardnet's core from Python: rules, views, search and saves without any networking.

python examples/embed_python.py
"""

from __future__ import annotations

import random

import cardnet


def main() -> None:
    # Rules as an API: moves are dicts, refusals are typed and change nothing.
    g = cardnet.new_game("cherki", players=3, seed=11)
    seat = g.to_act()[0]
    print("seat", seat, "may", [m["type"] for m in g.legal_moves(seat)])
    try:
        g.apply(seat, {"type": "take_discard"})
    except cardnet.IllegalMove as refusal:
        print("refused:", refusal.code, "-", refusal.reason)

    # Each seat sees only its own hand; a spectator sees none.
    print("my hand:", g.view(seat)["private"]["hand"])
    print("spectator private part:", g.view(None)["private"])

    # Built-in players pick moves; the fast path drives the rest of the deal.
    g.apply(seat, cardnet.ai.choose(g, seat, level="normal", seed=1))
    rng = random.Random(3)
    while (decision := g.decision()) is not None:
        acting, count = decision
        g.apply_index(acting, rng.randrange(count))
    print("outcome:", g.outcome())

    # A save holds the seed and every move; loading replays and verifies them.
    again = cardnet.load_game(g.to_json())
    assert again.state_hash() == g.state_hash()

    # Batch self-play in Rust.
    result = cardnet.simulate("fistful", ["heuristic", "random"], games=2000, seed=5)
    print("heuristic vs random over 2000 matches:", result)


if __name__ == "__main__":
    main()
