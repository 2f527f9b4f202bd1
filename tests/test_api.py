"""The Python API over every registered game: shapes, round trips, copies, views, the fast path."""

from __future__ import annotations

import copy
import hashlib
import pickle
import random
import subprocess
import sys

import pytest

import cardnet
from gamehelpers import play_random

GAMES = list(cardnet.GAMES)


def test_version_and_build_info() -> None:
    assert cardnet.__version__.count(".") == 2
    info = cardnet.build_info()
    assert info["version"] == cardnet.__version__
    assert info["profile"] in ("release", "debug")
    assert len(info["source_digest"]) == 64


def test_import_is_light() -> None:
    code = "import sys, cardnet; print(sorted(m for m in ('trio', 'zeroconf', 'prompt_toolkit') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_games_info_is_typed() -> None:
    assert set(GAMES) <= {"matchstick", "fistful", "cherki", "ten"}
    for name, info in cardnet.GAMES.items():
        assert isinstance(info, cardnet.GameInfo)
        assert info.name == name
        assert info.min_players <= info.default_players <= info.max_players
        assert info.title and info.summary
        for spec in info.options:
            assert isinstance(spec, cardnet.OptionSpec)
            assert spec.kind in ("bool", "int", "choice")
            spec.check(spec.default)
            assert info.option(spec.name) is spec
        with pytest.raises(cardnet.BadOptions):
            info.option("no_such_option")


def test_matchstick_expansion_option() -> None:
    spec = cardnet.GAMES["matchstick"].option("expansion")
    assert spec.kind == "int" and spec.choices == (0, 2, 4) and spec.default == 0
    assert spec.parse("2") == 2
    with pytest.raises(cardnet.BadOptions):
        spec.parse("3")
    g = cardnet.new_game("matchstick", players=4, seed=7, options={"expansion": 2})
    assert g.options["expansion"] == 2
    assert (g.game, g.players, g.seed) == ("matchstick", 4, 7)


@pytest.mark.parametrize("name", GAMES)
def test_new_game_defaults(name: str) -> None:
    info = cardnet.GAMES[name]
    g = cardnet.new_game(name, seed=1)
    assert g.players == info.default_players
    assert g.options == info.default_options()
    assert g.to_act() and not g.is_over() and g.outcome() is None and g.outcome_json() is None
    unseeded = cardnet.new_game(name)
    assert 0 <= unseeded.seed < 1 << 64


@pytest.mark.parametrize("name", GAMES)
def test_legal_moves_agree(name: str) -> None:
    g = cardnet.new_game(name, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        d = g.decision()
        if d is None:
            break
        seat, count = d
        assert seat == g.to_act()[0]
        assert count == g.legal_count(seat)
        moves = g.legal_moves(seat)
        assert len(moves) == count
        assert cardnet.json_loads(g.legal_moves_json(seat)) == moves
        assert g.legal_moves_json(seat) == cardnet.json_dumps(moves)
        for i in rng.sample(range(count), min(count, 5)):
            assert g.legal_move(seat, i) == moves[i]
            assert g.index_of(seat, moves[i]) == i
        for other in range(g.players):
            if other not in g.to_act():
                # The fast path's count is 0; asking for the moves themselves is refused (issue 10).
                assert g.legal_count(other) == 0
                with pytest.raises(cardnet.IllegalMove, match="not to act"):
                    g.legal_moves(other)
        g.apply(seat, moves[rng.randrange(count)])


@pytest.mark.parametrize("name", GAMES)
def test_views_events_and_hash(name: str) -> None:
    g = cardnet.new_game(name, seed=11)
    rng = random.Random(11)
    for _ in range(25):
        spectator = g.view(None)
        assert spectator["private"] is None
        public = spectator["public"]
        assert g.state_hash() == hashlib.sha256(cardnet.json_dumps(public).encode()).hexdigest()
        for seat in [None, *range(g.players)]:
            view = g.view(seat)
            assert view["public"] == public
            assert g.view_json(seat) == cardnet.json_dumps(view)
            assert g.events_json(seat) == cardnet.json_dumps(g.events(seat))
            assert g.view_json(seat).isascii()
        d = g.decision()
        if d is None:
            break
        g.apply_index(d[0], rng.randrange(d[1]))


@pytest.mark.parametrize("name", GAMES)
def test_save_load_clone_history(name: str) -> None:
    g = cardnet.new_game(name, seed=5)
    play_random(g, random.Random(5), limit=20)
    history = g.history()
    assert all(isinstance(seat, int) and isinstance(move, dict) and "type" in move for seat, move in history)
    text = g.to_json()
    loaded = cardnet.load_game(text)
    assert loaded.to_json() == text
    assert cardnet.load_game(text.encode()).state_hash() == g.state_hash()
    assert loaded.history() == history
    replayed = cardnet.new_game(name, players=g.players, seed=g.seed, options=g.options)
    for seat, move in history:
        replayed.apply(seat, move)
    assert replayed.to_json() == text

    for twin in (g.clone(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert twin.to_json() == text
        play_random(twin, random.Random(1))
        assert twin.is_over()
        assert g.to_json() == text


@pytest.mark.parametrize("name", GAMES)
def test_determinize(name: str) -> None:
    g = cardnet.new_game(name, seed=9)
    play_random(g, random.Random(9), limit=15)
    for observer in [None, *range(g.players)]:
        det = g.determinize(observer, 42)
        assert det.view(observer) == g.view(observer)
        assert det.events(observer) == g.events(observer)
        assert det.to_act() == g.to_act()
        assert cardnet.load_game(det.to_json()).state_hash() == det.state_hash()
        assert g.determinize(observer, 42).state_hash() == det.state_hash()


@pytest.mark.parametrize("name", GAMES)
def test_apply_json_and_index(name: str) -> None:
    g = cardnet.new_game(name, seed=2)
    h = g.clone()
    d = g.decision()
    assert d is not None
    seat, count = d
    move = g.legal_move(seat, count - 1)
    g.apply_json(seat, cardnet.json_dumps(move))
    h.apply_index(seat, count - 1)
    assert g.to_json() == h.to_json()
    assert g.events_json(None) == h.events_json(None)


@pytest.mark.parametrize("name", GAMES)
def test_outcome_after_random_game(name: str) -> None:
    g = cardnet.new_game(name, seed=21)
    play_random(g, random.Random(21))
    assert g.is_over() and g.to_act() == [] and g.decision() is None
    outcome = g.outcome()
    assert isinstance(outcome, cardnet.Outcome)
    assert type(outcome).kind == outcome.kind
    assert len(outcome.scores) == g.players
    assert sorted(outcome.order) == list(range(g.players))
    assert set(outcome.winners) <= set(range(g.players))
    assert cardnet.json_loads(g.outcome_json() or "null") == outcome.to_dict()
    if isinstance(outcome, cardnet.Ranking):
        assert outcome.winner == outcome.order[0]
        assert sorted(outcome.positions) == list(range(1, g.players + 1))
    if isinstance(outcome, cardnet.Draw):
        assert outcome.winners == ()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("player", ["random", "heuristic", "ismcts:8"])
def test_builtin_players(name: str, player: str) -> None:
    g = cardnet.new_game(name, seed=4)
    seat = g.to_act()[0]
    index = cardnet.ai.choose_index(g, seat, player=player, seed=1)
    assert 0 <= index < g.legal_count(seat)
    assert cardnet.ai.choose_index(g, seat, player=player, seed=1) == index
    assert cardnet.ai.choose(g, seat, player=player, seed=1) == g.legal_move(seat, index)


@pytest.mark.parametrize("name", GAMES)
def test_builtin_levels(name: str) -> None:
    g = cardnet.new_game(name, seed=4)
    seat = g.to_act()[0]
    index = cardnet.ai.choose_index(g, seat, level="easy", seed=3)
    assert index == cardnet.ai.choose_index(g, seat, player="heuristic", seed=3)
    with pytest.raises(cardnet.BadOptions):
        cardnet.ai.choose(g, seat, level="impossible")
    with pytest.raises(cardnet.BadOptions):
        cardnet.ai.choose(g, seat, player="genius")


@pytest.mark.parametrize("name", GAMES)
def test_simulate(name: str) -> None:
    players = cardnet.GAMES[name].default_players
    a = cardnet.simulate(name, ["random"] * players, games=20, seed=1)
    b = cardnet.simulate(name, ["random"] * players, games=20, seed=1)
    assert (a.games, a.decisions, a.wins, a.no_winner, a.rewards) == (
        b.games,
        b.decisions,
        b.wins,
        b.no_winner,
        b.rewards,
    )
    assert a.games == 20 and a.decisions > 0 and len(a.wins) == players
    assert a.games_per_second > 0
    assert cardnet.simulate(name, ["random"] * players, games=0, seed=1).decisions == 0


def test_derive_is_stable() -> None:
    assert cardnet.derive(1, 0) == cardnet.derive(1, 0)
    assert cardnet.derive(1, 0) != cardnet.derive(1, 1)


def test_json_dumps_is_canonical() -> None:
    assert cardnet.json_dumps({"b": [1, -2, True, None], "a": {"z": "é😀\n", "y": "x"}}) == (
        '{"a":{"y":"x","z":"\\u00e9\\ud83d\\ude00\\n"},"b":[1,-2,true,null]}'
    )
    assert cardnet.json_dumps("\x7f\x01") == '"\\u007f\\u0001"'
    assert cardnet.json_dumps((1, 2)) == "[1,2]"
    assert cardnet.json_dumps(2**64 - 1) == "18446744073709551615"
    with pytest.raises(TypeError):
        cardnet.json_dumps(1.5)
    with pytest.raises(TypeError):
        cardnet.json_dumps({1: 2})
    with pytest.raises(TypeError):
        cardnet.json_dumps(object())
    with pytest.raises(ValueError):
        cardnet.json_dumps(2**64)
    assert cardnet.json_loads('{"a":[1,"x",null]}') == {"a": [1, "x", None]}
    with pytest.raises(ValueError):
        cardnet.json_loads("{} trailing")


def test_segments() -> None:
    seg = cardnet.segments
    assert seg.glyph("6") == "acdefg"
    assert seg.glyph("8") == "abcdefg"
    assert ("9", True, 0, "") in seg.transforms("69")
    assert seg.transforms("69")[[t.value for t in seg.transforms("69")].index("8")].added == "b"
    assert seg.transforms("6/9") == seg.transforms("69")
    assert seg.shape("69", rotated=True) == seg.glyph("9")
    assert seg.rotate("bc") == "ef"
    assert seg.value_of_shape("ef") is None
    assert seg.value_of_shape(seg.glyph("H"), expansion=True) == "H"
    assert seg.value_of_shape(seg.glyph("H")) is None
    assert seg.min_cost("1", "F") == 2 and seg.cost("1", "F", rotated=False) is None
    assert seg.added_segments("0", "8") == "g"
    assert len(seg.card_types()) == 14 and len(seg.card_types(expansion=True)) == 16
    assert seg.values()[-1] == "F" and seg.values(expansion=True)[-1] == "H"
    art = seg.render(seg.glyph("8"))
    assert len(art) == 5 and len({len(row) for row in art}) == 1
    assert "=" in "".join(seg.render("abcdef", "g"))
    cells = seg.render_cells("bc", "a")
    assert {kind for row in cells for _, kind in row} == {"blank", "lit", "added"}
    with pytest.raises(ValueError):
        seg.glyph("Z")


@pytest.mark.parametrize("name", sorted(cardnet.GAMES))
def test_game_from_view_keeps_what_the_seat_knows(name: str) -> None:
    g = cardnet.new_game(name, seed=21)
    rng = random.Random(4)
    for _ in range(40):
        decision = g.decision()
        if decision is None:
            break
        for seat in [None, *range(g.players)]:
            rebuilt = cardnet.game_from_view(name, g.view(seat), seat, g.players, g.options, seed=rng.getrandbits(64))
            assert rebuilt.view_json(seat) == g.view_json(seat)
            assert rebuilt.to_act() == g.to_act()
            if seat is not None and seat in g.to_act():
                assert rebuilt.legal_moves(seat) == g.legal_moves(seat)
        g.apply_index(decision[0], rng.randrange(decision[1]))
    rebuilt = cardnet.game_from_view(name, g.view(0), 0, g.players, g.options, seed=1)
    with pytest.raises(cardnet.IllegalMove):
        rebuilt.to_json()
    with pytest.raises(cardnet.CorruptState):
        cardnet.game_from_view(name, {"public": {"nonsense": 1}, "private": None}, 0, g.players, g.options)
    with pytest.raises(cardnet.UnknownGame):
        cardnet.game_from_view("chess", g.view(0), 0)
