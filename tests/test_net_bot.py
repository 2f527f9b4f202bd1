"""Loading bots for `cardnet bot`: built-in names, files, modules, and the refusals."""

from __future__ import annotations

import pytest

from cardnet.bot import BuiltinBot, FirstBot, RandomBot, load_bot

from nethelpers import ROOT


def test_load_bot_specs() -> None:
    assert isinstance(load_bot("builtin:random"), RandomBot)
    assert isinstance(load_bot("builtin:first"), FirstBot)
    sdk = load_bot(str(ROOT / "examples" / "sdk_bot.py"))
    assert sdk.choose({}, [{"type": "a"}, {"type": "b"}]) in (0, 1)
    assert isinstance(load_bot("cardnet.bot:FirstBot"), FirstBot)
    for spec in ("builtin:heuristic", "builtin:ismcts", "builtin:ismcts:50", "builtin:easy", "builtin:hard"):
        assert isinstance(load_bot(spec), BuiltinBot)
    for bad, words in (
        ("builtin:nope", "unknown"),
        ("missing.py", "no such"),
        ("cardnet.bot:Peer", "not a cardnet.bot.Bot"),
        ("plain", "use builtin"),
    ):
        with pytest.raises(ValueError, match=words):
            load_bot(bad)
