"""Fuzzing everything else that reads outside data: journals, saved games and RL saves, views given to
``game_from_view``, the seat-token store, discovery's TXT records and a hostile host's ``table`` lines.

Each reader gets mutations of its own valid input (structure-aware: a node of the JSON replaced, removed,
repeated or nested deep; then bytes flipped, cut, repeated or edge bytes inserted) and must answer with its
documented error or a valid result: never another exception, and never a write over data it refused. Used by
tests/test_fuzz_readers.py (a few hundred cases each in CI) and bench/fuzz_readers.py (many more).
"""

from __future__ import annotations

import json
import random
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cardnet
from cardnet import protocol as P
from cardnet import rl
from cardnet.errors import CardnetError
from cardnet.journal import JournalError, read_journal
from cardnet.net.discovery import TableSummary
from cardnet.net.factory import create_table, resume_table, table_config
from cardnet.protocol import TableInfo, decode_line
from cardnet.codec import is_token
from cardnet.protocol.peer import HOST_MAX_DEPTH

from sessionfuzz import EDGE_BYTES, EDGE_TEXT, hostile_value

#: A reader's check of one input: returns a problem, or None when the reader behaved.
Case = Callable[[random.Random], "str | None"]


def mutate_json(value: Any, rng: random.Random) -> Any:
    """``value`` with one random node replaced, removed, duplicated or swapped (a copy; ``value`` is kept)."""
    copy = json.loads(json.dumps(value))
    nodes: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in list(node):
                nodes.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for i in range(len(node)):
                nodes.append((node, i))
                walk(node[i])

    walk(copy)
    if not nodes:
        return hostile_value(rng)
    parent, key = rng.choice(nodes)
    op = rng.randrange(5)
    if op == 0:
        parent[key] = hostile_value(rng)
    elif op == 1:
        del parent[key]
    elif op == 2 and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif op == 3 and isinstance(parent, list) and len(parent) > 1:
        other = rng.randrange(len(parent))
        parent[key], parent[other] = parent[other], parent[key]
    elif isinstance(parent[key], int) and not isinstance(parent[key], bool):
        parent[key] += rng.choice((-1, 1, 2**32, -(2**32)))
    else:
        parent[key] = hostile_value(rng)
    return copy


def corrupt_bytes(data: bytes, rng: random.Random) -> bytes:
    """``data`` with a bit flipped, cut short, an edge byte sequence inserted or a piece repeated."""
    if not data:
        return rng.choice(EDGE_BYTES)
    pos = rng.randrange(len(data))
    op = rng.randrange(4)
    if op == 0:
        out = bytearray(data)
        out[pos] ^= 1 << rng.randrange(8)
        return bytes(out)
    if op == 1:
        return data[:pos]
    if op == 2:
        return data[:pos] + rng.choice(EDGE_BYTES) + data[pos:]
    end = min(len(data), pos + rng.randrange(1, 64))
    return data[:end] + data[pos:end] + data[end:]


def hostile_text(valid: Any, rng: random.Random) -> bytes:
    """A mutation of the JSON document ``valid``: its structure, its bytes, or both."""
    value = mutate_json(valid, rng) if rng.random() < 0.8 else valid
    data = json.dumps(value, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
    return corrupt_bytes(data, rng) if rng.random() < 0.4 else data


def _unexpected(what: str) -> str:
    return f"{what} raised an undocumented exception:\n{traceback.format_exc(limit=4)}"


# -- saved games, RL saves, views -----------------------------------------------------------------------------


def _finished_and_midway(game: str, seed: int) -> cardnet.Game:
    info = cardnet.GAMES[game]
    played = cardnet.new_game(game, int(info.default_players), seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 40)):
        if played.is_over():
            break
        seat = rng.choice(played.to_act())
        played.apply_index(seat, rng.randrange(played.legal_count(seat)))
    return played


def saved_game_case(rng: random.Random) -> str | None:
    """``load_game`` of a damaged save: the game it describes, or CorruptState (a CardnetError)."""
    game = _finished_and_midway(rng.choice(sorted(cardnet.GAMES)), rng.randrange(1000))
    text = hostile_text(json.loads(game.to_json()), rng)
    try:
        loaded = cardnet.load_game(text)
    except CardnetError:
        return None
    except Exception:  # noqa: BLE001 - anything else is the finding
        return _unexpected("load_game")
    # Whatever loads must be a game the core can go on with.
    loaded.state_hash()
    loaded.to_json()
    return None


def rl_save_case(rng: random.Random) -> str | None:
    """``rl.load_state`` of a damaged RL save: a state, or CorruptState."""
    game = rng.choice(sorted(cardnet.GAMES))
    state = rl.new_state(game, seed=rng.randrange(1000))
    for _ in range(rng.randrange(30)):
        if state.is_over():
            break
        seat = state.to_act()[0]
        state.apply_action_id(seat, rng.choice(state.legal_action_ids(seat)))
    text = hostile_text(json.loads(state.to_json()), rng).decode("utf-8", "replace")
    try:
        loaded = rl.load_state(text)
    except CardnetError:
        return None
    except Exception:  # noqa: BLE001
        return _unexpected("rl.load_state")
    loaded.to_json()
    return None


def view_case(rng: random.Random) -> str | None:
    """``game_from_view`` of a damaged view: a determinized game, or CorruptState/UnknownGame/BadOptions."""
    name = rng.choice(sorted(cardnet.GAMES))
    game = _finished_and_midway(name, rng.randrange(1000))
    seat = rng.choice([None, *range(game.players)])
    view = mutate_json(game.view(seat), rng)
    if not isinstance(view, dict):
        view = {"view": view}
    wrong_seat = rng.random() < 0.1
    try:
        built = cardnet.game_from_view(
            name,
            view,
            rng.choice((-1, 99, game.players)) if wrong_seat else seat,
            game.players if rng.random() < 0.9 else rng.choice((0, 1, 99)),
            seed=rng.randrange(2**64),
        )
    except CardnetError:
        return None
    except Exception:  # noqa: BLE001
        return _unexpected("game_from_view")
    if not built.is_over():
        acting = built.to_act()
        if not acting:
            return "game_from_view built a game that is still on but in which nobody acts"
        built.apply_index(acting[0], rng.randrange(built.legal_count(acting[0])))
    return None


# -- journals -------------------------------------------------------------------------------------------------


def _journal(directory: Path, rng: random.Random, name: str) -> tuple[Path, cardnet.Game]:
    path = directory / name
    path.unlink(missing_ok=True)
    config = table_config("matchstick", players=3, seed=rng.randrange(1000))
    table, journal = create_table(config, journal=path, clock=lambda: 0.0)
    for seat in range(3):
        journal.append(table.claim_seat(seat, f"p{seat}")[2])
    for _ in range(rng.randrange(1, 30)):
        if table.game.is_over():
            break
        seat, decision = rng.choice(sorted(table.decisions.items()))
        journal.append(table.apply_move(seat, decision, index=rng.randrange(decision.count)).record)
    journal.close()
    return path, table.game  # type: ignore[return-value]


def journal_case_in(directory: Path) -> Case:
    """Resuming a damaged journal: the table of its valid prefix (only a torn tail cut off), or JournalError /
    ValueError with the file left exactly as it was."""

    def case(rng: random.Random) -> str | None:
        path, _ = _journal(directory, rng, "j.journal")
        data = path.read_bytes()
        contents = read_journal(path)
        op = rng.randrange(4)
        if op == 0:
            damaged = corrupt_bytes(data, rng)
        elif op == 1:
            # Records reordered: swap two whole records.
            from cardnet.journal import MAGIC, encode_record

            swapped: list[Any] = list(contents.records)
            i, k = rng.randrange(len(swapped)), rng.randrange(len(swapped))
            swapped[i], swapped[k] = swapped[k], swapped[i]
            damaged = MAGIC + b"".join(encode_record(r) for r in swapped)
        elif op == 2:
            # Another table's valid journal spliced in after this one's records.
            other, _ = _journal(directory, rng, "other.journal")
            damaged = data + other.read_bytes()[16:]
            other.unlink()
        else:
            # A record rewritten with a valid CRC (a buggy or hostile writer, not a disk): only replay sees it.
            from cardnet.journal import MAGIC, encode_payload

            records: list[Any] = list(contents.records)
            records[rng.randrange(len(records))] = mutate_json(records[rng.randrange(len(records))], rng)
            damaged = MAGIC + b"".join(encode_payload(json.dumps(r).encode()) for r in records)
        path.write_bytes(damaged)
        try:
            resumed = resume_table(path, clock=lambda: 0.0)
        except (JournalError, ValueError):
            if path.read_bytes() != damaged:
                return "a refused journal was changed on disk"
            return None
        except Exception:  # noqa: BLE001
            return _unexpected("resume_table")
        finally:
            path.with_name(path.name + ".lock").unlink(missing_ok=True)
        resumed.journal.close()
        after = path.read_bytes()
        if not damaged.startswith(after):
            return "resuming changed bytes before the cut"
        if len(after) < len(damaged) and (resumed.torn is None or resumed.torn.in_the_middle):
            return "resuming cut bytes that were no torn tail"
        path.unlink()
        return None

    return case


# -- the seat-token store -------------------------------------------------------------------------------------


def token_store_case_in(directory: Path) -> Case:
    """A damaged ``seats.json``: the store gives a token the protocol accepts or None; remembering a new token
    never raises."""
    from cardnet.net.seats import SeatStore, seat_store_path

    def case(rng: random.Random) -> str | None:
        path = seat_store_path()
        good = {"v": 1, "tables": {"0123abcd": {"token": "A" * 43}, "t2": {"token": "b_-" * 10}}}
        path.parent.mkdir(parents=True, exist_ok=True)
        deep = rng.random() < 0.05
        path.write_bytes(b"[" * 100_000 if deep else hostile_text(good, rng))
        store = SeatStore(warn=lambda _text: None)
        try:
            for table_id in ("0123abcd", "t2"):
                token = store.token(table_id)
                if token is not None and not is_token(token):
                    return f"the store gave {token!r}, which no host accepts"
            store.remember("t3", "C" * 43)
        except Exception:  # noqa: BLE001
            return _unexpected("the seat-token store")
        return None

    return case


def config_case_in(directory: Path) -> Case:
    """A damaged ``config.toml``: the remembered name is a name a host accepts or None, the default name is one,
    and remembering a new name never raises and is read back (the damaged file kept aside, not lost)."""
    from cardnet.identity import BadName, check_name, config_path, default_name, save_name, saved_name

    def case(rng: random.Random) -> str | None:
        path = config_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        valid = 'name = "Ann"\n[window]\nwidth = 80\n'
        deep = rng.random() < 0.05
        data = b"a = " + b"[" * 100_000 if deep else corrupt_bytes(valid.encode(), rng)
        path.write_bytes(data)
        try:
            name = saved_name()
            for candidate in (name, default_name()):
                if candidate is not None:
                    check_name(candidate)
            save_name("Bea")
            if saved_name() != "Bea":
                return f"the name saved over {data[:60]!r} reads back as {saved_name()!r}"
        except BadName as exc:
            return f"a name a host refuses came out of the config file: {exc}"
        except Exception:  # noqa: BLE001
            return _unexpected("the config file")
        return None

    return case


# -- discovery ------------------------------------------------------------------------------------------------


def txt_case(rng: random.Random) -> str | None:
    """A hostile TXT record: a checked summary or ValueError."""
    good = TableSummary("t", "ten", 1, 4, "abcd", False, False, True, "0123abcd").txt()
    props = mutate_json(good, rng)
    if not isinstance(props, dict):
        return None
    props = {str(k): str(v) if not isinstance(v, str) else v for k, v in props.items()}
    try:
        summary = TableSummary.from_txt(rng.choice(("t", *EDGE_TEXT)), props)
    except ValueError:
        return None
    except Exception:  # noqa: BLE001
        return _unexpected("TableSummary.from_txt")
    return None if summary.checked() is summary else "from_txt returned an unchecked summary"


def table_line_case(rng: random.Random) -> str | None:
    """A hostile host's first line, read as ``probe_table`` reads it: a checked summary, or ProtocolError /
    ValueError."""
    good = {
        "type": "table",
        "versions": [1],
        "capabilities": ["chat"],
        "table_id": "abcd",
        "name": "t",
        "game": "ten",
        "players": 2,
        "options": {"rounds": 2},
        "seeded": False,
        "password": False,
        "challenge": "c",
        "started": False,
        "game_no": 0,
        "seats": [{"kind": "human"}],
    }
    line = hostile_text(good, rng)
    try:
        message = decode_line(line, 256 * 1024, HOST_MAX_DEPTH)
        if message.get("type") != "table":
            return None
        TableSummary.from_table_info(TableInfo.parse(message)).checked()
    except (P.ProtocolError, ValueError):
        return None
    except Exception:  # noqa: BLE001
        return _unexpected("reading a table line")
    return None


def _host_lines(rng: random.Random) -> list[bytes]:
    """What a real host sends one player: its table line, welcome, seats, snapshot, then a few updates."""
    from cardnet.protocol.host import Commit, HostOptions, HostSession, Resync, Send
    from cardnet.table import Table, TableConfig, core_engine

    game = rng.choice(("fistful", "matchstick"))
    table = Table(
        TableConfig(game, 2, rng.randrange(1000), seeded=True, table_id="hl"), core_engine(), clock=lambda: 0.0
    )
    session = HostSession(table, HostOptions(msg_rate=1e9, msg_burst=1e9))
    out: list[bytes] = []
    links = []
    for seat in range(2):
        link, effects = session.connect(0.0)
        hello = P.Hello(1, f"p{seat}", "player", ("chat",), seat=seat).to_wire()
        effects += session.receive_line(link, P.encode(hello)[:-1], 0.0)
        links.append(link)
        for effect in effects:
            if isinstance(effect, Send) and effect.link is links[0]:
                out.append(effect.data)
            elif isinstance(effect, Commit):
                out += [d.data for d in effect.deliveries if d.seat == 0 and d.data is not None]
    for _ in range(rng.randrange(1, 8)):
        if table.game.is_over():
            break
        seat, decision = rng.choice(sorted(table.decisions.items()))
        line = P.encode(P.Move(decision.id, index=rng.randrange(decision.count)).to_wire())[:-1]
        for effect in session.receive_line(links[seat], line, 0.0):
            if isinstance(effect, Commit):
                out += [d.data for d in effect.deliveries if d.seat == 0 and d.data is not None]
            elif isinstance(effect, Resync) and effect.link is links[0]:
                out.append(session.snapshot(effect.link, effect.ack)[0])
    return [line.rstrip(b"\n") for line in out]


def host_lines_case(rng: random.Random) -> str | None:
    """A hostile host: a player's session (``PeerSession``) gets a real host's lines with one of them damaged and
    answers with ProtocolError or PeerError (or takes a harmless line), never another exception."""
    from cardnet.protocol.peer import PeerError, PeerSession

    lines = _host_lines(rng)
    victim = rng.randrange(len(lines))
    lines[victim] = hostile_text(json.loads(lines[victim]), rng).replace(b"\n", b"")
    session = PeerSession(name="p0", seat=0)
    session.connection_made()
    try:
        for line in lines:
            step = session.receive_line(line)
            if step.lost:
                break
    except (P.ProtocolError, PeerError):
        return None
    except Exception:  # noqa: BLE001
        return _unexpected("PeerSession.receive_line")
    return None


def readers(directory: Path) -> dict[str, Case]:
    """Every reader's case, by name."""
    return {
        "saved_game": saved_game_case,
        "rl_save": rl_save_case,
        "view": view_case,
        "journal": journal_case_in(directory),
        "token_store": token_store_case_in(directory),
        "config": config_case_in(directory),
        "txt": txt_case,
        "table_line": table_line_case,
        "host_lines": host_lines_case,
    }


def run_reader(case: Case, cases: int, seed: int) -> list[str]:
    """Run ``cases`` inputs through one reader; the problems found (with the seed of each input)."""
    problems: list[str] = []
    for n in range(cases):
        rng = random.Random(seed * 1_000_003 + n)
        problem = case(rng)
        if problem is not None:
            problems.append(f"case seed {seed * 1_000_003 + n}: {problem}")
    return problems
