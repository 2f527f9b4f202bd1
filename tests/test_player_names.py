"""Everyone has a name: ``--player-name`` (``--name`` for join and bot), ``CARDNET_NAME``, the name the client
remembers in its config file, then the login; names are checked like the protocol's (length, control
characters); a table's default name is "NAME's GAME"."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cardnet.identity import BadName, check_name, config_path, default_name, save_name, saved_name
from cardnet.net.factory import table_config

from discohelpers import Lines, cardnet, env
from nethelpers import free_port


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("CARDNET_NAME", raising=False)
    monkeypatch.setenv("USER", "login")
    return tmp_path


def test_the_name_comes_from_the_environment_then_the_config_then_the_login(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert default_name() == "login"
    save_name("  Ann  ")
    assert saved_name() == "Ann" and default_name() == "Ann"
    assert config_path() == home / "config" / "cardnet" / "config.toml"
    monkeypatch.setenv("CARDNET_NAME", "Zoë")
    assert default_name() == "Zoë"
    # A name a host would refuse is passed over.
    monkeypatch.setenv("CARDNET_NAME", "bad\x07name")
    assert default_name() == "Ann"


def test_saving_a_name_keeps_the_other_settings(home: Path) -> None:
    path = config_path()
    path.parent.mkdir(parents=True)
    path.write_text('name = "old"\ncolour = "never"\n')
    save_name('Ann "the bold"')
    text = path.read_text()
    assert 'colour = "never"' in text and '"old"' not in text
    assert saved_name() == 'Ann "the bold"'


def test_a_damaged_config_file_is_no_name(home: Path) -> None:
    path = config_path()
    path.parent.mkdir(parents=True)
    path.write_text("name = [unclosed\n")
    assert saved_name() is None and default_name() == "login"


@pytest.mark.parametrize("bad", ["", "   ", "x" * 33, "tab\there", "nul\x00"])
def test_names_are_checked_like_the_protocol_checks_them(bad: str) -> None:
    with pytest.raises(BadName):
        check_name(bad)


def test_a_table_is_named_after_its_host(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDNET_NAME", "Ann")
    assert table_config("fistful", players=2).name == "Ann's fistful"


def test_join_refuses_a_bad_name_as_a_usage_error() -> None:
    done = subprocess.run(
        cardnet("join", "127.0.0.1:9", "--player-name", "a\tb"), capture_output=True, text=True, env=env(), timeout=60
    )
    assert done.returncode == 2 and "control characters" in done.stderr


def test_names_reach_the_seats_from_the_host_join_and_bot(tmp_path: Path) -> None:
    port = free_port()
    argv = cardnet(
        "host",
        "cherki",
        "--players",
        "3",
        "--player-name",
        "Hostess",
        "--port",
        str(port),
        "--interface",
        "127.0.0.1",
        "--no-advertise",
    )
    host = Lines(argv, hold_stdin=True, extra_env={"XDG_STATE_HOME": str(tmp_path / "h"), "CARDNET_NAME": "ignored"})
    try:
        _, banner = host.wait_line(lambda line: line.startswith("cardnet host: table"), 30)
        assert "Hostess's cherki" in banner
        player = Lines(
            cardnet("join", f"127.0.0.1:{port}"),
            hold_stdin=True,
            extra_env={"XDG_STATE_HOME": str(tmp_path / "p"), "CARDNET_NAME": "Ann"},
        )
        bot = Lines(cardnet("bot", "builtin:random", f"127.0.0.1:{port}", "--player-name", "Robo"))
        try:
            try:
                _, seats = player.wait_line(lambda line: line.startswith("Seats: ") and "Robo" in line, 30)
            except AssertionError as failed:
                # Once seen in CI: the player found nothing listening after the host's banner; say what the host did.
                raise AssertionError(f"{failed}\nhost: {host.story()}\nbot: {bot.story()}") from None
            # Whoever came first took seat 1.
            assert seats in (
                "Seats: 0: Hostess, 1: you, 2: Robo; nobody watching",
                "Seats: 0: Hostess, 1: Robo, 2: you; nobody watching",
            )
            # The host's own screen names the joined player after CARDNET_NAME.
            host.wait_line(lambda line: line.startswith("Seats: 0: you") and "Ann" in line, 10)
        finally:
            player.stop()
            bot.stop()
    finally:
        host.stop()
