"""Local play through the in-process host: the journal, ``cardnet play --resume``, refusals and signals."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import cardnet
from cardnet.journal import read_journal
from cardnet.table import Table, core_engine
from cardnet.net.local import LocalError
from cardnet.ui.plain import play_plain
from cardnet.ui.render import renderer_for


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardnet", *args], input=stdin, capture_output=True, text=True, timeout=300
    )


def replay(path: Path) -> dict[str, object]:
    out = run("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert isinstance(doc, dict)
    return doc


def last_table(text: str) -> str:
    """The last table drawn before a prompt: from its blank line to the end of its move list."""
    block = text.rsplit("\n\nTable (", 1)[1]
    return "Table (" + block.split("\n> ", 1)[0]


def test_resume_after_end_of_input_continues_exactly(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    first = run("play", "--plain", "--seed", "3", "--players", "4", "--journal", str(journal), stdin="1\n2\n")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(f"journal: {journal}\n")
    assert f"continue it with: cardnet play --resume {journal}\nBye.\n" in first.stdout
    before = replay(journal)
    assert before["over"] is False and isinstance(before["state_id"], int) and before["state_id"] > 1

    second = run("play", "--plain", "--resume", str(journal), stdin="1\n" * 3000)
    assert second.returncode == 0, second.stderr
    assert "Traceback" not in second.stderr
    assert f"you are seat 0; resumed at state {before['state_id']}." in second.stdout
    # The player is shown the same table, hand and moves the interrupted session was asking about.
    assert second.stdout.split("\n\nTable (", 1)[1].startswith(last_table(first.stdout)[len("Table (") :])
    assert "Game over (ranking)." in second.stdout

    records = read_journal(journal).records
    # The resumed session re-keyed the player's seat right after the old records, then went on from there.
    rekey = next(i for i, r in enumerate(records) if i > 1 and r["kind"] == "seat")
    prefix = Table.from_records(records[:rekey], core_engine(), clock=lambda: 0.0)
    assert prefix.game.state_hash() == before["hash"] and prefix.state_id == before["state_id"]
    following = records[rekey + 1]
    assert following["kind"] == "move" and following["state_id"] == before["state_id"] + 1
    assert replay(journal)["over"] is True


def test_refused_typed_moves_show_the_core_reason() -> None:
    seed = next(s for s in range(100) if cardnet.new_game("matchstick", players=3, seed=s).to_act() == [0])
    g = cardnet.new_game("matchstick", players=3, seed=seed)
    hand = [card["id"] for card in g.view(0)["private"]["hand"]]
    move = g.legal_move(0, g.legal_count(0) - 1)
    # One move the rules refuse (the core's explained reason) and one naming a card the hand does not have.
    illegal = {"type": "play", "value": "2", "cards": [hand[0]]}
    with pytest.raises(cardnet.IllegalMove) as refusal:
        g.apply(0, illegal)
    reasons = [refusal.value.reason, f"there is no card at position 99: your hand has positions 1 to {len(hand)}"]
    renderer = renderer_for("matchstick", ["You", "Seat 1", "Seat 2"])
    renderer.observe(g.view(0))
    typed = renderer.move_text(move)
    out = io.StringIO()
    script = f"{renderer.move_text(illegal)}\nplay {move['value']} 99\n{typed}\nquit\n"
    assert play_plain("matchstick", players=3, seed=seed, stdin=io.StringIO(script), stdout=out) == 0
    text = out.getvalue()
    first = text.index(f"Refused: {reasons[0]}")
    second = text.index(f"Refused: {reasons[1]}")
    played = text.index(f"You: {typed}")
    # Nothing changed after a refusal: the same decision, not a new one, took the next line.
    assert first < second < played
    assert "Your moves (" not in text[first:played]


def test_resume_refuses_new_game_flags(tmp_path: Path) -> None:
    out = run("play", "--plain", "--resume", str(tmp_path / "x.journal"), "--seed", "3")
    assert out.returncode == 2
    assert "--seed" in out.stderr


def test_resume_of_a_missing_journal_fails_cleanly(tmp_path: Path) -> None:
    out = run("play", "--plain", "--resume", str(tmp_path / "missing.journal"))
    assert out.returncode == 1
    assert "cannot read journal" in out.stderr and "Traceback" not in out.stderr
    with pytest.raises(LocalError):
        play_plain(None, resume=tmp_path / "missing.journal", stdin=io.StringIO(""), stdout=io.StringIO())


def test_default_journal_goes_to_the_state_directory(private_state_dir: Path) -> None:
    game = next(iter(cardnet.GAMES))
    out = io.StringIO()
    assert play_plain(game, seed=1, stdin=io.StringIO(""), stdout=out) == 0
    first = out.getvalue().splitlines()[0]
    path = Path(first.removeprefix("journal: "))
    assert path.is_file() and path.parent == private_state_dir / "cardnet" / "journals"


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_levels_play_whole_games(level: str) -> None:
    out = run("play", "fistful", "--plain", "--seed", "2", "--level", level, stdin="1\n" * 2000)
    assert out.returncode == 0, out.stderr
    assert "Game over (match)." in out.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_at_the_prompt_exits_cleanly(tmp_path: Path) -> None:
    journal = tmp_path / "g.journal"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardnet", "play", "--plain", "--seed", "4", "--journal", str(journal)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    assert proc.stdout is not None
    seen = b""
    while not seen.endswith(b"> "):
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, seen.decode()
        seen += chunk
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGINT
    assert b"Traceback" not in err, err.decode()
    assert (seen + rest).decode().rstrip().endswith("Bye.")
    assert journal.is_file()


@pytest.mark.trio
async def test_in_process_host_serves_a_peer_over_memory_streams() -> None:
    import trio

    from cardnet.net.host import Host
    from cardnet.net.peer import Peer
    from cardnet.protocol import StateMessage
    from cardnet.table import TableConfig

    game = next(iter(cardnet.GAMES))
    players = cardnet.GAMES[game].default_players
    bots = {s: "random" for s in range(1, players)}
    config = TableConfig(game=game, players=players, seed=5, seeded=True, table_id="local", bots=bots)
    host = Host(Table(config, core_engine(), clock=trio.current_time))
    with pytest.raises(RuntimeError):
        host.open_local_stream()

    async def connect() -> trio.abc.Stream:
        return host.open_local_stream()

    async with trio.open_nursery() as nursery:
        await nursery.start(host.serve_in_process)
        assert host.port is None
        peer = Peer("in-process", 0, name="me", connect=connect, reconnect=False)
        await nursery.start(peer.run)
        assert peer.state.seat == 0 and peer.state.token
        async for event in peer.events:
            if isinstance(event, StateMessage):
                # The seat sees only its own view, checked against the public hash like any remote peer.
                assert event.hash_ok() and event.view["private"] is not None
                break
        nursery.cancel_scope.cancel()


def test_the_hosts_own_seat_is_held_before_any_guest_can_join(tmp_path: Path) -> None:
    """A seated host takes seat 0 before its table listens: a guest who greets the host first (before the
    host's own in-process peer) is given seat 1, never the host's seat, and the host's token holds seat 0."""
    from cardnet.net.factory import create_table, resume_table, table_config
    from cardnet.net.local import own_seat_token

    table, journal = create_table(table_config("cherki", players=3), journal=tmp_path / "t.journal")
    token = own_seat_token(table, journal, 0, "Hostess")
    seat0 = table.seats[0]
    assert (seat0.kind, seat0.name, seat0.connected) == ("human", "Hostess", False)
    assert not table.started
    guest, _, _, _ = table.claim_seat(None, "Ann")
    assert guest.index == 1
    assert table.seat_for_token(token) is seat0
    # Journalled: the table resumed from its journal has the host at seat 0 under the same token.
    journal.close()
    resumed = resume_table(tmp_path / "t.journal")
    try:
        held = resumed.table.seat_for_token(token)
        assert held is not None and (held.index, held.name) == (0, "Hostess")
        # Resumed, the seat is re-keyed: the old token no longer holds it, the new one does.
        again = own_seat_token(resumed.table, resumed.journal, 0)
        assert resumed.table.seat_for_token(token) is None
        assert resumed.table.seat_for_token(again) is resumed.table.seats[0]
        assert resumed.table.seats[0].name == "Hostess"
    finally:
        resumed.journal.close()
    # A table the host's seat fills (every other seat a built-in player's) starts only when the host's own peer
    # greets it with the token, so that player sees the built-in players' first moves.
    solo, solo_journal = create_table(table_config("fistful", players=2, bots={1: "easy"}), journal=tmp_path / "s.j")
    try:
        own_seat_token(solo, solo_journal, 0)
        assert not solo.started
    finally:
        solo_journal.close()
