"""The rules in the product (issue 10): every game's full rules ship inside the package, `cardnet rules`
prints them, `docs/rules/` links to the very same text, Matchstick's glyphs and transform table match the core,
each "how to play it here" names every move word the line-mode client writes, and no relative link in the
repository's Markdown points at a missing file."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import cardnet
from cardnet import segments
from cardnet.ui.render import renderer_for

ROOT = Path(__file__).resolve().parents[1]
DOCS_RULES = ROOT / "docs" / "rules"
GAMES = list(cardnet.GAMES)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardnet", *args], capture_output=True, text=True, timeout=60)


def columns(line: str) -> int:
    """Terminal columns a line takes (East Asian wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def section(text: str, title: str) -> str:
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


@pytest.mark.parametrize("game", GAMES)
def test_rules_ship_in_the_package_and_docs_rules_is_the_same_text(game: str) -> None:
    text = cardnet.rules_text(game)
    assert text.startswith(f"# {cardnet.GAMES[game].title}\n")
    for heading in ("## Setup", "## Our decisions", "## How to play it here"):
        assert heading in text, heading
    # docs/rules/ is what the repository shows; it links to the package's file, the one source.
    assert (DOCS_RULES / f"{game}.md").read_text(encoding="utf-8") == text, (
        f"docs/rules/{game}.md must be a link to ../../python/cardnet/rules/{game}.md"
    )
    for line in text.splitlines():
        assert columns(line) <= 80, line


def test_docs_rules_has_no_other_files() -> None:
    assert sorted(p.stem for p in DOCS_RULES.glob("*.md")) == sorted(GAMES)
    with pytest.raises(cardnet.UnknownGame):
        cardnet.rules_text("chess")


@pytest.mark.parametrize("game", GAMES)
def test_cardnet_rules_prints_the_whole_text_when_not_a_terminal(game: str) -> None:
    out = run("rules", game)
    assert out.returncode == 0, out.stderr
    assert out.stdout == cardnet.rules_text(game)


def test_rules_summary_keeps_the_short_form_in_player_words() -> None:
    fistful = run("rules", "fistful", "--summary")
    assert fistful.returncode == 0
    assert "Players: 2\n" in fistful.stdout and "2-2" not in fistful.stdout
    assert "The whole rules: cardnet rules fistful" in fistful.stdout
    ten = run("rules", "ten", "--summary").stdout
    assert "Players: 1 to 5 (default 3)" in ten
    assert "  1 player: house rules: " in ten
    assert "house rules - house rules" not in ten and "player(s)" not in ten


def glyph_picture() -> str:
    values = segments.values(expansion=True)
    blocks = []
    for chunk in (values[:9], values[9:]):
        drawn = [segments.render(segments.glyph(v)) for v in chunk]
        rows = ["    " + " ".join(d[r] for d in drawn) for r in range(len(drawn[0]))]
        rows.append("    " + " ".join(f"{v:^4}" for v in chunk))
        blocks.append("\n".join(r.rstrip() for r in rows))
    return "\n\n".join(blocks)


def transform_table() -> str:
    extra = set(segments.values(expansion=True)) - set(segments.values())

    def star(value: str) -> str:
        return value + ("*" if value in extra else "")

    costs = range(6)
    rows = [("Card", "Turned", "free", *(f"+{k}" for k in costs[1:]))]
    for card in segments.card_types(expansion=True):
        fewest: dict[str, int] = {}
        for t in segments.transforms(card, expansion=True):
            fewest[t.value] = min(fewest.get(t.value, t.matchsticks), t.matchsticks)
        turned = segments.value_of_shape(segments.shape(card, rotated=True), expansion=True) or "-"
        name = star({"3E": "3/E", "69": "6/9"}.get(card, card))
        rows.append((name, turned, *(" ".join(star(v) for v, k in fewest.items() if k == c) for c in costs)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(c.ljust(widths[i]) for i, c in enumerate(r)) + " |" for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def test_matchstick_glyphs_and_transform_table_are_the_cores() -> None:
    text = cardnet.rules_text("matchstick")
    assert glyph_picture() in text
    assert transform_table() in text


def move_words(game: str) -> set[str]:
    """The first word of every move text the line-mode client writes over a few random games."""
    words: set[str] = set()
    players = {"ten": [1, 3]}.get(game, [None])
    for count in players:
        for seed in range(6):
            g = cardnet.new_game(game, players=count, seed=seed)
            rng = random.Random(seed)
            renderer = renderer_for(game, ["You"] * g.players)
            while (d := g.decision()) is not None:
                seat, n = d
                renderer.observe(g.view(seat))
                for move in g.legal_moves(seat)[:50]:
                    words.add(renderer.move_text(move).split()[0])
                g.apply_index(seat, rng.randrange(n))
    return words


@pytest.mark.parametrize("game", GAMES)
def test_how_to_play_names_every_move_word(game: str) -> None:
    how = section(cardnet.rules_text(game), "How to play it here")
    for word in sorted(move_words(game)):
        assert f"`{word}" in how, f"{game}: the move word {word!r} is not explained"
    for command in ("list", "more", "table", "help", "quit"):
        assert f"`{command}" in how


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def markdown_files() -> list[Path]:
    skip = {"target", "node_modules", "__pycache__"}
    found = []
    for path in ROOT.rglob("*.md"):
        parts = path.relative_to(ROOT).parts
        if any(p.startswith(".") or p in skip for p in parts[:-1]):
            continue
        found.append(path)
    return found


def test_every_relative_markdown_link_points_at_a_file() -> None:
    files = markdown_files()
    assert ROOT / "README.md" in files and ROOT / "docs" / "GAMES.md" in files
    broken = []
    for path in files:
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (path.parent / target.split("#")[0]).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_readme_and_games_md_link_to_the_rules() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    games = (ROOT / "docs" / "GAMES.md").read_text(encoding="utf-8")
    for game in GAMES:
        assert f"(docs/rules/{game}.md)" in readme, game
        assert f"(rules/{game}.md)" in games, game
