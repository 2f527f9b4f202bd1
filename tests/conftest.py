"""Shared fixtures: no test writes outside its own temporary directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the user's state directory (default journals of local play, seat tokens) and config directory (the
    remembered name) into the test's tmp_path."""
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return state


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test speaks English, whatever the machine's locale, unless it chooses a language itself."""
    from cardnet import i18n

    monkeypatch.setenv("CARDNET_LANG", "en")
    monkeypatch.setattr(i18n, "_current", "en")
