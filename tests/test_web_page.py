"""The web seat's page as files: its segment data is the core's, its code never turns strings into markup or
code, index.html holds no inline script or style (the host's Content-Security-Policy forbids them), every
module it imports is shipped, it stays light, and its words cover every code the host can send."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path


from browserseat import program_or_skip
from cardnet.codec import ERROR_CODES
from cardnet.refusals import refusal_codes

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "python" / "cardnet" / "web" / "page"
SCRIPTS = sorted((PAGE / "js").glob("*.js"))
#: The page's weight budget (HTML, JavaScript and CSS, uncompressed): a phone on a busy LAN loads it at once.
WEIGHT_BUDGET = 150 * 1024


def test_segments_json_is_what_the_core_gives() -> None:
    script = ROOT / "scripts" / "web_segments.py"
    done = subprocess.run([sys.executable, str(script), "check"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_segments_json_holds_every_card_and_value_of_the_core() -> None:
    from cardnet import segments

    data = json.loads((PAGE / "segments.json").read_text("utf-8"))
    assert sorted(data["cards"]) == sorted(segments.card_types(expansion=True))
    assert data["values"] == segments.values(expansion=True)
    for card, info in data["cards"].items():
        assert info["shape"] == segments.shape(card) and info["turned"] == segments.shape(card, rotated=True)
        assert info["ways"] == [list(way) for way in segments.transforms(card, expansion=True)]
    assert data["glyphs"]["8"] == "abcdefg" and data["cards"]["69"]["label"] == "6/9"


def test_no_script_turns_strings_into_markup_or_code() -> None:
    forbidden = re.compile(
        r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\s*\(|new\s+Function|setTimeout\(\s*[\"'`]"
        r"|setAttribute\(\s*[\"']style|cssText|DOMParser|createContextualFragment"
    )
    found = [f"{path.name}: {m.group(0)}" for path in SCRIPTS for m in forbidden.finditer(path.read_text("utf-8"))]
    assert SCRIPTS and found == []


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_index_has_no_inline_script_handler_or_style() -> None:
    parser = _Tags()
    parser.feed((PAGE / "index.html").read_text("utf-8"))
    scripts = [attrs for tag, attrs in parser.tags if tag == "script"]
    assert scripts == [{"type": "module", "src": "js/app.js"}]
    assert not [tag for tag, _ in parser.tags if tag == "style"]
    inline = [(tag, name) for tag, attrs in parser.tags for name in attrs if name.startswith("on") or name == "style"]
    assert inline == []


def test_every_imported_module_is_shipped() -> None:
    imports = re.compile(r"""^\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']""", re.MULTILINE)
    for path in SCRIPTS:
        for target in imports.findall(path.read_text("utf-8")):
            assert (path.parent / target).resolve().is_file(), f"{path.name} imports {target}"
    html = (PAGE / "index.html").read_text("utf-8")
    for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert (PAGE / ref).is_file(), ref


def test_the_page_weighs_less_than_its_budget() -> None:
    files = [PAGE / "index.html", *SCRIPTS, *PAGE.glob("*.css")]
    weight = sum(path.stat().st_size for path in files)
    assert weight <= WEIGHT_BUDGET, f"{weight} bytes"


def _table_keys(name: str) -> set[str]:
    """The keys of one `export const NAME = {...}` table of words.js."""
    text = (PAGE / "js" / "words.js").read_text("utf-8")
    body = re.search(r"export const %s = \{\n(.*?)\n\};" % name, text, re.DOTALL)
    assert body is not None, name
    return set(re.findall(r"^  (\w+):", body.group(1), re.MULTILINE))


def test_words_cover_every_host_error_and_every_refusal_of_the_two_games() -> None:
    assert set(ERROR_CODES) <= _table_keys("ERRORS")
    rules = (ROOT / "docs" / "GAMES.md").read_text("utf-8")
    for game in ("Matchstick Tycoon", "A Fistful of Gold"):
        section = rules.split(f"## {game}")[1].split("\n## ")[0]
        codes = set(re.findall(r"`([a-z_]+)`", section.split("efusal codes")[1].split(":", 1)[1].split("\n\n")[0]))
        assert codes and codes <= _table_keys("REFUSALS") & refusal_codes(), (game, codes)


def test_ten_deck_json_is_what_the_core_gives() -> None:
    script = ROOT / "scripts" / "web_ten_deck.py"
    done = subprocess.run([sys.executable, str(script), "check"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_words_cover_every_refusal_and_event_of_ten() -> None:
    # The codes TEN's core refuses moves with, read from its source (the games' docs do not list them).
    explain = (ROOT / "rust" / "core" / "src" / "games" / "ten" / "explain.rs").read_text("utf-8")
    codes = set(re.findall(r'GameError::illegal\(\s*"([a-z_]+)"', explain))
    assert {"draw_pile_empty", "not_minimal", "overpayment"} <= codes
    assert codes <= _table_keys("REFUSALS") & refusal_codes()
    # Every event GAMES.md lists for TEN is worded by ten.js, from the words module's TEN_EVENTS table; the two
    # that say nothing of their own are named here (the next turn's line and the outcome say them).
    section = (ROOT / "docs" / "GAMES.md").read_text("utf-8").split("## TEN")[1].split("\n## ")[0]
    listed = section.split("### Events")[1].split("Examples:")[0]
    events = set(re.findall(r"`([a-z_]+)`", re.sub(r"\([^)]*\)", "", listed)))
    assert {"draw", "pay", "final_round", "game_over"} <= events
    ten = (PAGE / "js" / "ten.js").read_text("utf-8")
    worded = set(re.findall(r'^    case "([a-z_]+)":', ten.split("export function eventText")[1], re.MULTILINE))
    assert events - worded == {"turn_end", "game_over"}
    assert worded <= _table_keys("TEN_EVENTS")


def test_the_page_s_password_proof_is_the_protocol_s_hmac(tmp_path: Path) -> None:
    """auth.js (the browser's crypto.subtle is missing on plain-http LAN pages) against Python's hmac, in Node."""
    node = program_or_skip("node", "nodejs")
    shutil.copy(PAGE / "js" / "auth.js", tmp_path / "auth.mjs")
    cases = [
        ["open sesame", "4be0c1d2e3f40516", "9f2c41d07a5be3e8c0a1d2f3e4b5c6d7"],
        ["", "t1", "00"],
        ["pässwörd 🔑", "table", "c" * 32],
        ["k" * 100, "t" * 55, "x" * 200],
    ]
    runner = tmp_path / "run.mjs"
    runner.write_text(
        'import { passwordProof } from "./auth.mjs";\n'
        "const cases = JSON.parse(process.argv[2]);\n"
        "console.log(JSON.stringify(cases.map(([p, t, c]) => passwordProof(p, t, c))));\n",
        encoding="utf-8",
    )
    done = subprocess.run([node, str(runner), json.dumps(cases)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    expected = [
        hmac.new(p.encode(), f"cardnet-auth/1|{t}|{c}".encode(), hashlib.sha256).hexdigest() for p, t, c in cases
    ]
    assert json.loads(done.stdout) == expected


def _cherki_section() -> str:
    return (ROOT / "docs" / "GAMES.md").read_text("utf-8").split("## Cherki")[1].split("\n## ")[0]


def test_words_cover_every_refusal_of_cherki() -> None:
    section = _cherki_section()
    codes = set(re.findall(r"`([a-z_]+)`", section)) & refusal_codes()
    assert {"took_last_turn", "not_pair_kind", "just_taken", "call_with_discard"} <= codes
    assert codes <= _table_keys("REFUSALS")


def test_the_cherki_page_words_every_event_and_offers_every_move_of_the_game() -> None:
    section = _cherki_section()
    script = (PAGE / "js" / "cherki.js").read_text("utf-8")
    moves = set(re.findall(r'"type":"(\w+)"', section.split("**Moves**")[1].split("**View.**")[0]))
    events = set(re.findall(r'"type":"(\w+)"', section.split("**Events.**")[1].split("**Outcome.**")[0]))
    assert moves == {"draw_stock", "take_discard", "discard", "call"}
    assert {"draw_stock", "take_discard", "discard", "call", "win", "new_deal", "deal_drawn"} <= events
    assert [move for move in moves if f'move.type === "{move}"' not in script] == []
    assert [event for event in events if f'case "{event}":' not in script] == []
