"""A host restarted with ``--resume`` keeps its address: the journal records the port it listened on, the resumed
host listens there again (or, when the port is taken, on a new one, said in one line), an older journal without
that record still resumes, and the close hint is a whole command."""

from __future__ import annotations

import signal
import socket
from pathlib import Path

from cardnet.journal import read_journal
from cardnet.net.factory import create_table, resume_table, table_config

from discohelpers import Lines, cardnet, unique


def _listening_port(host: Lines) -> int:
    _, line = host.wait_line(lambda text: text.startswith("listening on "), 30)
    return int(line.rpartition(":")[2])


def _web_port(host: Lines) -> int:
    _, line = host.wait_line(lambda text: text.startswith("guests without cardnet: open "), 30)
    return int(line.split("http://", 1)[1].split("/", 1)[0].rpartition(":")[2])


def _host(tmp_path: Path, *args: str) -> Lines:
    return Lines(
        cardnet("host", *args, "--interface", "127.0.0.1", "--no-advertise", "--headless"),
        extra_env={"XDG_STATE_HOME": str(tmp_path)},
    )


def _killed(host: Lines) -> None:
    host.proc.send_signal(signal.SIGKILL)
    host.proc.wait(10)


def _killed_after_listening(tmp_path: Path, journal: Path, *args: str) -> tuple[int, int]:
    """Runs a new table journalled at ``journal`` until it listens, kills it; returns the ports it and its web
    seat had."""
    first = _host(tmp_path, "fistful", "--bots", "1", "--journal", str(journal), *args)
    try:
        return _listening_port(first), _web_port(first)
    finally:
        _killed(first)


def test_a_resumed_host_listens_on_the_port_it_had(tmp_path: Path) -> None:
    journal = tmp_path / "t.journal"
    port, web = _killed_after_listening(tmp_path, journal)
    records = read_journal(journal).records
    assert {"kind": "listen", "port": port, "interfaces": ["127.0.0.1"], "web": web} in records
    again = _host(tmp_path, "--resume", str(journal))
    try:
        assert _listening_port(again) == port
        _, banner = again.wait_line(lambda text: text.startswith("join with:"), 10)
        assert f"127.0.0.1:{port}" in banner
        assert _web_port(again) == web
    finally:
        again.stop()
    # The same ports are not journalled twice.
    assert sum(1 for r in read_journal(journal).records if r.get("kind") == "listen") == 1


def test_a_resumed_host_serves_its_web_seat_on_the_port_it_had(tmp_path: Path) -> None:
    # A web port the default (the table's port + 1) would not give: only the journal can bring it back, and a
    # guest's open page reconnects only to the address it was loaded from.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        chosen = probe.getsockname()[1]
    journal = tmp_path / "t.journal"
    port, web = _killed_after_listening(tmp_path, journal, "--web-port", str(chosen))
    assert web == chosen != port + 1
    again = _host(tmp_path, "--resume", str(journal))
    try:
        assert _listening_port(again) == port
        assert _web_port(again) == chosen
    finally:
        again.stop()
    # Taken by someone else meanwhile: the web seat serves elsewhere (as a new table's would), and says where.
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", chosen))
        squatter.listen()
        moved = _host(tmp_path, "--resume", str(journal))
        try:
            assert _listening_port(moved) == port
            elsewhere = _web_port(moved)
        finally:
            moved.stop()
    assert elsewhere != chosen
    assert read_journal(journal).records[-1] == {
        "kind": "listen",
        "port": port,
        "interfaces": ["127.0.0.1"],
        "web": elsewhere,
    }


def test_a_resumed_host_whose_port_is_taken_moves_and_says_so(tmp_path: Path) -> None:
    journal = tmp_path / "t.journal"
    port, web = _killed_after_listening(tmp_path, journal)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        again = _host(tmp_path, "--resume", str(journal))
        try:
            moved = _listening_port(again)
            _, line = again.wait_line(lambda text: text.startswith("port "), 10)
        finally:
            again.stop()
    assert moved != port
    assert f"port {port} is in use" in line and f"port {moved}" in line and "table id" in line
    assert read_journal(journal).records[-1] == {
        "kind": "listen",
        "port": moved,
        "interfaces": ["127.0.0.1"],
        "web": web,
    }


def test_a_journal_from_before_ports_were_recorded_still_resumes(tmp_path: Path) -> None:
    path = tmp_path / "old.journal"
    table, journal = create_table(table_config("fistful", players=2, seed=5, bots={1: "random"}), journal=path)
    journal.close()
    resumed = resume_table(path)
    try:
        assert resumed.port is None
        assert resumed.table.config.table_id == table.config.table_id
    finally:
        resumed.journal.close()
    host = _host(tmp_path, "--resume", str(path))
    try:
        assert _listening_port(host) > 0
    finally:
        host.stop()


def test_a_renamed_table_keeps_its_new_name_across_a_resume(tmp_path: Path) -> None:
    path = tmp_path / "named.journal"
    table, journal = create_table(table_config("fistful", players=2, bots={1: "random"}, name="friday"), journal=path)
    try:
        journal.append(table.rename("friday-2"))
    finally:
        journal.close()
    resumed = resume_table(path)
    try:
        assert resumed.table.config.name == "friday-2"
    finally:
        resumed.journal.close()


def test_the_close_hint_is_a_whole_command(tmp_path: Path) -> None:
    journal = tmp_path / "t.journal"
    secret = tmp_path / "pw"
    secret.write_text("sesame\n")
    host = _host(tmp_path, "fistful", "--bots", "1", "--journal", str(journal), "--password-file", str(secret))
    try:
        _listening_port(host)
        host.proc.send_signal(signal.SIGTERM)
        _, hint = host.wait_line(lambda text: "continue it with:" in text, 10)
    finally:
        host.stop()
    command = hint.partition("continue it with: ")[2]
    assert command == (f"cardnet host --resume {journal} --interface 127.0.0.1 --password-file {secret} --headless")


def test_an_unknown_record_kind_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.journal"
    _, journal = create_table(table_config("fistful", players=2, bots={1: "random"}), journal=path)
    journal.append({"kind": "listen", "port": 7777, "interfaces": []})
    journal.append({"kind": "teleport"})
    journal.close()
    try:
        resume_table(path)
    except ValueError as exc:
        assert "unknown kind 'teleport'" in str(exc)
    else:
        raise AssertionError("a journal with an unknown record resumed")


def _lan_host(tmp_path: Path, *args: str) -> Lines:
    return Lines(
        cardnet("host", *args, "--interface", "127.0.0.1", "--no-probe", "--headless", "--seat-timeout", "120"),
        extra_env={"XDG_STATE_HOME": str(tmp_path / "host")},
    )


def _player(tmp_path: Path, name: str) -> Lines:
    """``cardnet join NAME`` in line mode with nothing typed (its input stays open), with its own state dir."""
    return Lines(
        cardnet("join", name, "--interface", "127.0.0.1", "--reconnect-for", "60"),
        extra_env={"XDG_STATE_HOME": str(tmp_path / "player")},
        hold_stdin=True,
    )


def test_join_run_again_after_a_restart_takes_its_old_seat_back(tmp_path: Path) -> None:
    name = unique("restart")
    journal = tmp_path / "t.journal"
    host = _lan_host(tmp_path, "fistful", "--players", "2", "--bots", "1", "--name", name, "--journal", str(journal))
    try:
        port = _listening_port(host)
        player = _player(tmp_path, name)
        try:
            _, line = player.wait_line(lambda text: text.startswith("Seat token"), 30)
            token = line.split(": ", 1)[1]
        finally:
            _killed(player)
    finally:
        _killed(host)
    again = _lan_host(tmp_path, "--resume", str(journal))
    try:
        assert _listening_port(again) == port
        # No --token typed: the seat store, keyed by the table's id, gives the seat back.
        back = _player(tmp_path, name)
        try:
            back.wait_line(lambda text: text.startswith("Your seat, taken back"), 30)
            _, line = back.wait_line(lambda text: text.startswith("Seat token"), 5)
            assert line.endswith(token)
        finally:
            back.stop()
    finally:
        again.stop()


def test_a_player_follows_its_table_to_a_new_port_by_its_id(tmp_path: Path) -> None:
    name = unique("moved")
    journal = tmp_path / "t.journal"
    host = _lan_host(tmp_path, "fistful", "--players", "2", "--bots", "1", "--name", name, "--journal", str(journal))
    player = _player(tmp_path, name)
    try:
        port = _listening_port(host)
        player.wait_line(lambda text: text.startswith("Seat token"), 30)
        _killed(host)
        player.wait_line(lambda text: text.startswith("Reconnecting: attempt "), 30)
        with socket.socket() as squatter:
            # The killed host's connections linger in TIME_WAIT on that port.
            squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            squatter.bind(("127.0.0.1", port))
            squatter.listen()
            moved = _lan_host(tmp_path, "--resume", str(journal))
            try:
                assert _listening_port(moved) != port
                player.wait_line(lambda text: text == "Reconnected to the host.", 40)
            finally:
                moved.stop()
    finally:
        player.stop()
