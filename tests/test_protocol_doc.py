"""docs/PROTOCOL.md stays true: its examples parse, and its worked session is consistent."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cardnet import protocol as P

DOC = (Path(__file__).resolve().parent.parent / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")


def session_lines() -> list[tuple[str, dict[str, object]]]:
    return [(m.group(1), json.loads(m.group(2))) for m in re.finditer(r"^([<>]) (\{.*\})$", DOC, re.M)]


def test_every_line_the_bot_sends_is_a_valid_message() -> None:
    sent = [msg for arrow, msg in session_lines() if arrow == ">"]
    assert len(sent) >= 4  # the hello and the moves shown
    kinds = {type(P.parse_client_message(msg)).__name__ for msg in sent}  # type: ignore[arg-type]
    assert kinds == {"Hello", "Move"}


def test_unelided_states_in_the_session_have_correct_hashes_and_answered_decisions() -> None:
    lines = session_lines()
    states = [msg for arrow, msg in lines if arrow == "<" and msg["type"] in ("update", "snapshot")]
    full = [P.StateMessage.parse(m) for m in states if isinstance(m["view"], dict)]  # type: ignore[arg-type]
    assert len(full) == 3 and all(s.hash_ok() for s in full)
    # Every move quotes a decision the bot was shown, and is acknowledged by a later update.
    shown: set[object] = set()
    acked = {msg["ack"]["decision_id"] for _, msg in lines if "ack" in msg}  # type: ignore[index]
    for arrow, msg in lines:
        if arrow == "<" and msg.get("decision"):
            shown.add(msg["decision"]["id"])  # type: ignore[index]
        if arrow == ">" and msg["type"] == "move":
            assert msg["decision_id"] in shown and msg["decision_id"] in acked
    assert states[-1]["over"] is True and states[-1]["outcome"]


def test_json_examples_in_the_reference_parse() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DOC, re.S)
    messages = [json.loads(line) for block in blocks for line in block.splitlines() if line.strip()]
    kinds = {m["type"] for m in messages if isinstance(m, dict) and "type" in m}
    assert {"table", "hello", "welcome", "move", "chat", "seats", "error"} <= kinds
    for message in messages:
        if message.get("type") in ("hello", "move", "chat"):
            P.parse_client_message(message)


def test_every_line_the_host_sends_parses_as_its_typed_message() -> None:
    received = [msg for arrow, msg in session_lines() if arrow == "<"]
    # States whose view the document elides ("...") are checked by the test above; every other line parses.
    whole = [msg for msg in received if not (msg["type"] == "update" and not isinstance(msg["view"], dict))]
    parsed = [P.parse_host_message(msg) for msg in whole]  # type: ignore[arg-type]
    kinds = {type(m).__name__ for m in parsed}
    assert {"TableInfo", "Welcome", "SeatsChanged", "StateMessage"} <= kinds
    for msg, typed in zip(whole, parsed):
        # Each goes back out byte for byte from its typed form: the classes carry every documented field.
        assert typed is not None
        assert P.canonical(typed.to_wire()) == P.canonical(msg), msg  # type: ignore[arg-type]
