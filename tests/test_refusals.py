"""Refusals in every language (issue 32): every refusal code the core can raise, read from its source, has a
message, translated in every language; a refused move is explained in the player's language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardnet
from cardnet import i18n
from cardnet.refusals import explain_refusal, refusal_codes, refusal_message

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "rust" / "core" / "src"
TRANSLATIONS = [lang for lang in i18n.LANGUAGES if lang != "en"]
# `GameError::illegal("code", ...)` is the only way the core refuses a well-formed move (error.rs).
ILLEGAL = re.compile(r'GameError::illegal\(\s*"([a-z0-9_]+)"')


def core_refusal_codes() -> set[str]:
    """Every code the core refuses a move with; the RL environments' (rl/) are for developers and stay English."""
    codes: set[str] = set()
    for source in CORE.rglob("*.rs"):
        if "rl" not in source.relative_to(CORE).parts[:-1]:
            codes |= set(ILLEGAL.findall(source.read_text(encoding="utf-8")))
    return codes


@pytest.fixture
def speaking() -> Iterator[None]:
    yield
    i18n.set_language("en")


def test_the_scan_finds_the_codes_of_every_game() -> None:
    codes = core_refusal_codes()
    # One code the scan must see from each game, and the ones every game shares.
    assert {"not_your_turn", "game_over", "not_stronger", "plus_one", "not_ready", "empty_tableau"} <= codes
    assert "illegal_action" not in codes, "the RL environments' codes are left out"


def test_every_refusal_code_of_the_core_has_a_message_and_no_message_is_stale() -> None:
    codes = core_refusal_codes()
    assert sorted(codes - refusal_codes()) == [], "codes the core raises with no message in cardnet/refusals.py"
    assert sorted(refusal_codes() - codes) == [], "messages for codes the core no longer raises"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_refusal_message_is_translated(lang: str, speaking: None) -> None:
    english = {code: refusal_message(code) for code in refusal_codes()}
    i18n.set_language(lang)
    for code in sorted(refusal_codes()):
        message = refusal_message(code)
        assert message and message != english[code], f"{lang}: {code} is not translated"
    for game, code in [("matchstick", "wrong_count"), ("fistful", "wrong_count"), ("fistful", "not_in_hand")]:
        assert refusal_message(code, game) not in (None, refusal_message(code)), (game, code)


def refused(game: cardnet.Game, move: dict[str, object]) -> cardnet.IllegalMove:
    seat, _ = game.decision() or (0, 0)
    with pytest.raises(cardnet.IllegalMove) as caught:
        game.apply(seat, move)
    return caught.value


def test_a_refused_move_is_explained_in_the_players_language(speaking: None) -> None:
    cherki = refused(cardnet.new_game("cherki", seed=1), {"type": "discard", "card": 0})
    matchstick = refused(cardnet.new_game("matchstick", players=2, seed=1), {"type": "pass"})
    assert (cherki.code, matchstick.code) == ("draw_first", "must_lead")
    # English keeps the core's own sentence, which names the cards and numbers.
    assert explain_refusal(matchstick, "matchstick") == matchstick.reason
    i18n.set_language("fi")
    assert explain_refusal(cherki, "cherki") == "Nosta varastosta tai ota ylin hylätty kortti ennen kuin hylkäät."
    i18n.set_language("es")
    assert explain_refusal(matchstick, "matchstick") == "La mesa está vacía: abres tú y debes jugar de 1 a 5 cartas."
    i18n.set_language("id")
    assert explain_refusal(cherki) == "Ambil dari stok atau ambil buangan teratas sebelum membuang."
    # A code the core adds before it has a message still says something: the core's sentence.
    unknown = cardnet.IllegalMove("brand_new", "a reason from the core")
    assert explain_refusal(unknown) == "a reason from the core"
