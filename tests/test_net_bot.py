"""Loading bots for `cardnet bot`: built-in names, files, modules, and the refusals."""

from __future__ import annotations

import pytest

from cardnet.bot import FirstBot, RandomBot, load_bot

from nethelpers import ROOT


def test_load_bot_specs() -> None:
    assert isinstance(load_bot("builtin:random"), RandomBot)
    assert isinstance(load_bot("builtin:first"), FirstBot)
    sdk = load_bot(str(ROOT / "examples" / "sdk_bot.py"))
    assert sdk.choose({}, [{"type": "a"}, {"type": "b"}]) in (0, 1)
    assert isinstance(load_bot("cardnet.bot:FirstBot"), FirstBot)
    for bad, words in (
        ("builtin:ismcts", "--bots 1 --bot ismcts"),
        ("builtin:nope", "unknown"),
        ("missing.py", "no such"),
        ("cardnet.bot:Peer", "not a cardnet.bot.Bot"),
        ("plain", "use builtin"),
    ):
        with pytest.raises(ValueError, match=words):
            load_bot(bad)
