"""docs/PROTOCOL.md stays true: its examples parse, and its worked session is a real one, line for line."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

import cardnet
from cardnet import protocol as P
from cardnet.net.host import Host, HostOptions
from cardnet.table import Table, TableConfig, core_engine

DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "PROTOCOL.md"
DOC = DOC_PATH.read_text(encoding="utf-8")


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


async def record_session() -> list[tuple[str, str]]:
    """Play section 12's session against a real host and return its lines as ("<" or ">", text).

    The host runs in process with its built-in player in the trio thread, under the autojump clock: the bot's
    0.2 s wait then always lets the built-in player's pick in first, so the recording is the same on every run.
    """
    config = TableConfig(
        "fistful",
        2,
        2,
        options={"length": "short"},
        seeded=True,
        name="demo",
        table_id="5f3a9c1e2b7d4f60",
        bots={1: "heuristic"},
    )
    host = Host(Table(config, core_engine(), clock=trio.current_time), options=HostOptions(ai_in_thread=False))
    lines: list[tuple[str, str]] = []
    async with trio.open_nursery() as nursery:
        await nursery.start(host.serve_in_process)
        stream = host.open_local_stream()
        buffer = P.LineBuffer(P.MAX_HOST_LINE)

        async def receive() -> dict[str, Any]:
            while (line := buffer.next_line()) is None:
                buffer.feed(await stream.receive_some(1 << 16))
            lines.append(("<", line.decode("ascii")))
            message: dict[str, Any] = json.loads(line)
            return message

        async def send(message: dict[str, P.Encodable]) -> None:
            text = P.canonical(message)
            lines.append((">", text))
            await stream.send_all(text.encode("ascii") + b"\n")

        await receive()
        hello: dict[str, P.Encodable] = {"type": "hello", "protocol": 1, "name": "Robo", "role": "player"}
        await send({**hello, "capabilities": ["index_moves", "rematch"], "client": "demo/1"})
        answered: set[int] = set()
        while True:
            message = await receive()
            if message["type"] == "ping":
                await send({"type": "pong", "id": message["id"]})
            if message["type"] not in ("update", "snapshot"):
                continue
            if message["over"]:
                break
            decision = message["decision"]
            if decision is not None and decision["id"] not in answered:
                answered.add(decision["id"])
                await trio.sleep(0.2)
                move = {"type": "move", "decision_id": decision["id"], "index": decision["count"] - 1}
                await send({**move, "ref": len(answered)})
        nursery.cancel_scope.cancel()
    return lines


def as_shown(lines: list[tuple[str, str]]) -> list[str]:
    """The session as section 12 prints it: the handshake and the first two decisions, then the last one.

    Random values (challenge, token) become "…"; after the first three state messages, so do the views, and the
    hashes keep their first 8 hex digits.
    """
    shown: list[str] = []
    states = 0
    for arrow, text in lines[:11] + lines[-4:]:
        text = re.sub(r'"(challenge|token)":"[^"]*"', r'"\1":"…"', text)
        if re.search(r'"type":"(update|snapshot)"', text):
            states += 1
            if states > 3:
                assert text.endswith("}}") and list(json.loads(text))[-1] == "view"
                text = re.sub(r'"hash":"([0-9a-f]{8})[0-9a-f]{56}"', r'"hash":"\1…"', text)
                text = text[: text.index(',"view":')] + ',"view":"…"}'
        shown.append(f"{arrow} {text}")
    return shown


@pytest.mark.trio
async def test_the_worked_session_is_what_the_host_sends_today(autojump_clock: trio.testing.MockClock) -> None:
    # Section 12 promises exact lines; regenerate it with CARDNET_BLESS=1 after a deliberate change of the wire
    # or of a game's view, and reread its prose.
    shown = as_shown(await record_session())
    documented = [m.group(0) for m in re.finditer(r"^[<>] \{.*\}$", DOC, re.M)]
    if shown != documented and os.environ.get("CARDNET_BLESS"):
        blessed = iter(shown)
        DOC_PATH.write_text(re.sub(r"^[<>] \{.*\}$", lambda _: next(blessed), DOC, flags=re.M), encoding="utf-8")
        return
    assert len(shown) == len(documented)
    for number, (now, doc) in enumerate(zip(shown, documented), start=1):
        assert now == doc, f"session line {number} differs (CARDNET_BLESS=1 rewrites section 12)"


#: Text that every canonical-JSON recipe must get right: DEL, C0 controls, short escapes, Latin-1, BMP, astral.
AWKWARD = {"z": 'del\x7f nul\x00 us\x1f \\ " \n\r\t\b\f é ☃ \U0001f600', "a": [1, -2, None, True, {"y": "\x7f"}]}

#: Section 1's JavaScript recipe, run by node on a JSON document given as its argument.
JS_CANONICAL = r"""
const sort = (v) => Array.isArray(v) ? v.map(sort) : v !== null && typeof v === "object"
  ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])])) : v;
const text = JSON.stringify(sort(JSON.parse(process.argv[1])));
process.stdout.write(text.replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")));
"""


def test_section_1_recipes_write_the_canonical_bytes() -> None:
    canonical = P.canonical(AWKWARD)
    assert '"del\\u007f nul\\u0000 us\\u001f' in canonical and "\\ud83d\\ude00" in canonical
    assert canonical == cardnet.json_dumps(AWKWARD)
    assert json.dumps(AWKWARD, sort_keys=True, separators=(",", ":"), ensure_ascii=True) == canonical
    # What section 1 warns about: without ensure_ascii, DEL goes out raw.
    assert "\x7f" in json.dumps(AWKWARD, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is required to check section 1's JavaScript recipe")
    done = subprocess.run([node, "-e", JS_CANONICAL, json.dumps(AWKWARD)], capture_output=True, timeout=30, check=True)
    assert done.stdout.decode("ascii") == canonical


def journal_fields_documented() -> dict[str, set[str]]:
    """Section 14's table of journal records: kind -> its fields (``kind`` included)."""
    section = DOC[DOC.index("## 14.") :]
    rows = re.findall(r"^\| `(\w+)` \| (.*?) \|[^|]*\|$", section, re.M)
    return {kind: {"kind", *re.findall(r"`(\w+)`", fields)} for kind, fields in rows if kind != "kind"}


def test_section_14_lists_every_field_of_every_journal_record() -> None:
    from netfake import fake_engine

    table = Table(TableConfig("callpick", 2, 1, options={"rounds": 1}), fake_engine(), clock=lambda: 0.0)
    records = [table.config.record(), table.claim_seat(None, "a")[2], table.claim_seat(None, "b")[2]]
    while not table.game.is_over():
        seat = min(table.decisions)
        records.append(table.apply_move(seat, table.decisions[seat], index=0).record)
    records += table.vote_rematch(0, [0])
    assert [r["kind"] for r in records[-2:]] == ["vote", "game"]
    # What the host itself journals: where it listens, and a name mDNS probing gave it.
    from cardnet.net.factory import listen_record

    records += [listen_record(7777, ["127.0.0.1"], 7778), table.rename("a-2")]
    written = {str(r["kind"]): set(r) for r in records}
    assert journal_fields_documented() == written
