"""What a player reads (issue 29): the `?` help and the rules on screen are formatted Markdown wrapped at word
boundaries to the help box at any terminal size, and the Markdown renderer itself (headings, emphasis, lists,
tables) never breaks a word nor shows a marker."""

from __future__ import annotations

import re

import pytest
from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output import DummyOutput

import cardnet
from cardnet.rulebook import rules_text
from cardnet.ui.app.commands import COMMANDS
from cardnet.ui.app.filters import build_filters
from cardnet.ui.app.layout import CONTEXT_NAMES, HELP_ROWS_LOST, HELP_TEXT, build_layout
from cardnet.ui.app.state import AppState, TableState
from cardnet.ui.markdown import as_overstrike, as_plain, line_width, markdown_lines, text_width, wrap_runs
from cardnet.ui.render.screen import screen_for

SIZES = [(60, 20), (80, 24), (200, 50)]
#: What only Markdown source shows: heading hashes, emphasis stars, code ticks, a table's delimiter row.
MARKERS = re.compile(r"^\s*#{1,6} |\*\*|`|\|\s*-{3,}|^\s*\|.*\w.*\|\s*$")


def draw(st: AppState, columns: int, rows: int) -> list[list[str]]:
    """The whole client screen as prompt_toolkit draws it at ``columns`` x ``rows``: each row's cells (a wide
    character's second cell is "")."""
    layout, _ = build_layout(st, build_filters(st, lambda: False), Buffer(), lambda: (columns, rows))
    screen = Screen()
    with set_app(Application(layout=layout, output=DummyOutput())):
        layout.container.write_to_screen(screen, MouseHandlers(), WritePosition(0, 0, columns, rows), "", True, None)
        screen.draw_all_floats()
    out = []
    for y in range(rows):
        row = [screen.data_buffer[y][x].char for x in range(columns)]
        out.append(["" if x and text_width(row[x - 1]) == 2 else ch for x, ch in enumerate(row)])
    return out


def help_pages(game: str, columns: int, rows: int) -> list[str]:
    """Every line inside the help box, scrolling page by page from the top to the end of the rules."""
    st = AppState(screen="table", table=TableState.open(game, cardnet.GAMES[game].default_players, 0, "t"))
    st.help_open = True
    page = rows - HELP_ROWS_LOST
    seen: list[str] = []
    for requested in range(0, 5000, page):
        st.help_offset = requested
        screen = draw(st, columns, rows)
        top = next(y for y, row in enumerate(screen) if "Help" in "".join(row) and row[2] == "┌")
        box = screen[top + 1 : top + 1 + page]
        # The frame's right edge is where the box says: nothing is drawn past it.
        assert all(row[columns - 3] == "│" for row in box), (columns, rows, ["".join(row) for row in box])
        # The help stops scrolling at its last page: keep only what this page adds.
        seen += ["".join(row[3 : columns - 3]).rstrip() for row in box][requested - st.help_offset :]
        if st.help_offset < requested:
            break
    return seen


def source_words(game: str) -> set[str]:
    """Every word the help is written from: the rules source without its markers, and the help's own texts."""
    st = TableState.open(game, cardnet.GAMES[game].default_players, 0, "t")
    texts = [rules_text(game), cardnet.GAMES[game].title, cardnet.GAMES[game].summary, *st.renderer.help()]
    texts += [*HELP_TEXT.values(), *CONTEXT_NAMES.values(), screen_for(game).help_note]
    texts += [f"{c.doc} {' '.join(c.keys)} {c.name} :{c.name}" for c in COMMANDS]
    texts.append("Ctrl-Q Ctrl-C Esc Enter Space Tab F2 F5 , 1. 2. 3. 4. 5. 6. 7. 8. 9.")
    words: set[str] = set()
    for text in texts:
        words.update(_bare(w) for w in text.split())
    return words


def _bare(word: str) -> str:
    return re.sub(r"[*`#]", "", word).strip(",")


@pytest.mark.parametrize("columns,rows", SIZES)
@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
def test_help_and_rules_wrap_at_words_without_markdown_markers(game: str, columns: int, rows: int) -> None:
    lines = help_pages(game, columns, rows)
    text = "\n".join(lines)
    assert cardnet.GAMES[game].title in text and "Our decisions" in text and "How to play it here" in text
    known = source_words(game)
    broken = [w for line in lines for w in line.split() if _bare(w) not in known and not set(w) <= set("•─")]
    assert broken == [], (columns, broken[:10])
    assert [line for line in lines if MARKERS.search(line)] == []


def test_help_box_fills_its_width_instead_of_breaking_mid_sentence() -> None:
    # A paragraph runs on to the box's edge: its lines are not cut where the source happened to break them.
    lines = help_pages("matchstick", 200, 50)
    moves = next(line for line in lines if line.strip().startswith("Moves: 'play VALUE"))
    assert "'pass' takes a matchstick" in moves


def test_markdown_renders_headings_emphasis_lists_and_tables() -> None:
    source = "# Title\n\nSome **bold** and *soft* `code`.\n\n1. first\n2. second\n   - inner\n\n"
    lines = markdown_lines(source + "| A | B |\n|---|---|\n| x | y |\n", 40)
    plain = as_plain(lines)
    assert plain == "Title\n\nSome bold and soft code.\n\n1. first\n2. second\n   • inner\n\n" + "A  B\n────\nx  y\n"
    styles = {text: style for line in lines for style, text in line}
    assert "class:heading" in styles["Title"] and "md.strong" in styles["bold"] and "md.em" in styles["soft"]
    assert "md.code" in styles["code"]


def test_wrap_breaks_only_between_words_and_hangs_list_items() -> None:
    lines = wrap_runs([("", "each Green card turning is a position")], 12, "• ", "  ")
    assert as_plain(lines) == "• each Green\n  card\n  turning is\n  a position\n"
    # A word wider than the whole line is the one thing cut.
    assert as_plain(wrap_runs([("", "abcdefgh")], 3)) == "abc\ndef\ngh\n"


@pytest.mark.parametrize("width", [30, 54, 77])
def test_a_table_too_wide_for_the_screen_wraps_its_cells_or_becomes_a_list(width: int) -> None:
    lines = markdown_lines(rules_text("matchstick"), width)
    assert all(line_width(line) <= width for line in lines if not any("md.code" in s for s, _ in line))
    text = as_plain(lines)
    # Every cell of the transform table is still there, whole.
    for cell in ("3/E", "G*", "H*", "Turned"):
        assert re.search(rf"(^|\s){re.escape(cell)}(\s|:|$)", text, re.M), cell


def test_wide_characters_count_two_columns() -> None:
    assert text_width("マッチ") == 6
    lines = wrap_runs([("", "マッチ売りの大富豪 by Unam Nichigetsu")], 20)
    assert [line_width(line) for line in lines] == [18, 18]


def test_overstrike_bolds_headings_for_the_pager() -> None:
    out = as_overstrike(markdown_lines("# Cherki\n\nplain *soft*\n", 40))
    assert out.startswith("C\bCh\bhe\ber\brk\bki\bi\n") and "_\bs_\bo_\bf_\bt" in out
