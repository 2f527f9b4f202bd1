"""Markdown as formatted terminal text: headings, emphasis, lists and tables, wrapped at word boundaries.

The rules (``cardnet/rules/*.md``) and the help screen are written once and shown at whatever width the
terminal has. :func:`markdown_lines` parses Markdown with markdown-it-py (CommonMark plus tables) and lays it
out as lines of styled runs no wider than the width; :func:`wrap_runs` is the word wrapper it uses, for text
that is not Markdown. A word is only ever split when it alone is wider than the whole line.

Styles are prompt_toolkit class names (``class:heading``, ``class:md.strong``...); :func:`as_plain` and
:func:`as_overstrike` turn the lines into text for a pipe or for a pager (bold and underline by overstriking,
which ``less`` shows and ``more`` or a plain terminal simply overwrite).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token
from wcwidth import wcwidth

__all__ = ["Line", "Run", "as_overstrike", "as_plain", "markdown_lines", "text_width", "wrap_runs"]

#: One piece of text in one style (a prompt_toolkit style string, "" for none).
Run = tuple[str, str]
#: One screen line: its runs, left to right.
Line = list[Run]

BULLET = "• "
HEADING = "class:heading"
STRONG = "class:md.strong"
EMPHASIS = "class:md.em"
CODE = "class:md.code"
#: Space between two table columns.
COLUMN_GAP = "  "
#: What draws a rule under a table's header and for a thematic break.
RULE_CHAR = "─"

_PARSER = MarkdownIt("commonmark").enable("table")


def _cells(ch: str) -> int:
    """Terminal cells one character takes (0 for a control or combining character)."""
    return max(0, wcwidth(ch))


def text_width(text: str) -> int:
    """Terminal cells ``text`` takes (East Asian wide characters take two)."""
    return sum(_cells(ch) for ch in text)


def line_width(line: Sequence[Run]) -> int:
    """Terminal cells one line of runs takes."""
    return sum(text_width(text) for _, text in line)


# -- wrapping ------------------------------------------------------------------------------------------------

#: A word: the runs it is made of (a word can change style midway, as in "**Cherki**,").
_Word = list[Run]
#: Stands for a hard line break in a list of words.
_BREAK: _Word = []


def _words(runs: Sequence[Run]) -> list[_Word]:
    """Runs split into words at white space; a newline in the text is a hard break."""
    words: list[_Word] = [[]]
    for style, text in runs:
        for i, hard_piece in enumerate(text.split("\n")):
            if i:
                words += [_BREAK, []]
            for j, piece in enumerate(hard_piece.split(" ")):
                if j:
                    words.append([])
                if piece:
                    words[-1].append((style, piece))
    return [w for w in words if w or w is _BREAK]


def _split_long(word: _Word, width: int) -> list[_Word]:
    """A word wider than ``width`` cut into pieces that fit (the only case a word is ever cut)."""
    pieces: list[_Word] = [[]]
    used = 0
    for style, text in word:
        for ch in text:
            cells = _cells(ch)
            if used + cells > width and pieces[-1]:
                pieces.append([])
                used = 0
            if pieces[-1] and pieces[-1][-1][0] == style:
                pieces[-1][-1] = (style, pieces[-1][-1][1] + ch)
            else:
                pieces[-1].append((style, ch))
            used += cells
    return pieces


def wrap_runs(runs: Sequence[Run], width: int, first: str = "", rest: str = "") -> list[Line]:
    """``runs`` laid out in lines of at most ``width`` cells, broken only between words.

    ``first`` starts the first line and ``rest`` every other one (a list bullet and its hanging indent).
    White space between words becomes one space; a newline in the text starts a new line.
    """
    lines: list[Line] = [[("", first)] if first else []]
    used = text_width(first)
    fresh = True
    for word in _words(runs):
        if word is _BREAK:
            lines.append([("", rest)] if rest else [])
            used, fresh = text_width(rest), True
            continue
        size = line_width(word)
        if not fresh and used + 1 + size > width:
            lines.append([("", rest)] if rest else [])
            used, fresh = text_width(rest), True
        room = max(1, width - used)
        for n, piece in enumerate(_split_long(word, room) if size > room else [word]):
            if n:
                lines.append([("", rest)] if rest else [])
                used = text_width(rest)
            elif not fresh:
                lines[-1].append(("", " "))
                used += 1
            lines[-1] += piece
            used += line_width(piece)
        fresh = False
    return lines


# -- Markdown ------------------------------------------------------------------------------------------------


def _styled(style: str, extra: str) -> str:
    return f"{style} {extra}".strip()


def _inline_runs(token: Token, base: str = "") -> list[Run]:
    """The runs of one inline token: text with its emphasis, code and links, soft breaks as spaces."""
    runs: list[Run] = []
    stack = [base]
    for child in token.children or []:
        kind = child.type
        if kind in ("text", "html_inline"):
            runs.append((stack[-1], child.content))
        elif kind == "code_inline":
            runs.append((_styled(stack[-1], CODE), child.content))
        elif kind == "softbreak":
            runs.append((stack[-1], " "))
        elif kind == "hardbreak":
            runs.append((stack[-1], "\n"))
        elif kind == "strong_open":
            stack.append(_styled(stack[-1], STRONG))
        elif kind == "em_open":
            stack.append(_styled(stack[-1], EMPHASIS))
        elif kind in ("strong_close", "em_close") and len(stack) > 1:
            stack.pop()
        elif kind == "image":
            runs.append((stack[-1], child.content))
    return runs


@dataclass
class _Layout:
    """Where the walk over the tokens is: the output so far, list indents and a bullet waiting for its text."""

    width: int
    lines: list[Line] = field(default_factory=list)
    indents: list[str] = field(default_factory=list)
    marker: str | None = None
    counters: list[int | None] = field(default_factory=list)

    def gap(self) -> None:
        """A blank line before a block, unless the output is empty or already ends with one."""
        if self.lines and self.lines[-1] and self.marker is None:
            self.lines.append([])

    def prefixes(self) -> tuple[str, str]:
        rest = "".join(self.indents)
        if self.marker is None:
            return rest, rest
        first = "".join(self.indents[:-1]) + self.marker
        self.marker = None
        return first, rest

    def block(self, runs: Sequence[Run]) -> None:
        first, rest = self.prefixes()
        self.lines += wrap_runs(runs, self.width, first, rest)


def markdown_lines(text: str, width: int) -> list[Line]:
    """Markdown ``text`` as formatted lines of at most ``width`` cells (wider only for a word wider than that)."""
    width = max(1, width)
    out = _Layout(width)
    tokens = _PARSER.parse(text)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = token.type
        if kind == "heading_open":
            out.gap()
            out.block(_inline_runs(tokens[i + 1], HEADING))
            i += 2
        elif kind == "paragraph_open":
            # A tight list's paragraphs are hidden: its items follow each other without blank lines.
            if not token.hidden:
                out.gap()
            out.block(_inline_runs(tokens[i + 1]))
            i += 2
        elif kind in ("bullet_list_open", "ordered_list_open"):
            if not out.indents:
                out.gap()
            start = token.attrGet("start")
            if kind == "ordered_list_open":
                out.counters.append(int(start) if start is not None else 1)
            else:
                out.counters.append(None)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            out.counters.pop()
        elif kind == "list_item_open":
            number = out.counters[-1] if out.counters else None
            if number is None:
                marker = BULLET
            else:
                marker = f"{token.info or number}. "
                out.counters[-1] = number + 1
            out.indents.append(" " * text_width(marker))
            out.marker = marker
        elif kind == "list_item_close":
            out.indents.pop()
            out.marker = None
        elif kind == "table_open":
            out.gap()
            end = next(j for j in range(i, len(tokens)) if tokens[j].type == "table_close")
            out.lines += _table(tokens[i:end], width - text_width("".join(out.indents)), "".join(out.indents))
            i = end
        elif kind in ("fence", "code_block"):
            out.gap()
            rows = token.content.rstrip("\n").split("\n")
            # Code is drawn as it is (the glyph pictures); its indent shrinks first on a narrow screen.
            indent = "".join(out.indents)
            room = width - text_width(indent) - max(text_width(row) for row in rows)
            pad = indent + " " * max(0, min(4, room))
            out.lines += [[("", pad), (CODE, row)] for row in rows]
        elif kind == "hr":
            out.gap()
            out.lines.append([("class:rule", RULE_CHAR * width)])
        elif kind == "blockquote_open":
            out.indents.append("  ")
        elif kind == "blockquote_close":
            out.indents.pop()
        i += 1
    return out.lines


def _table(tokens: Sequence[Token], width: int, indent: str) -> list[Line]:
    """A Markdown table laid out in columns that fit ``width``: cells wrap at words when the natural widths do
    not fit; when even one word per column is too wide, each row becomes a small list of "header: cell"."""
    rows: list[list[list[Run]]] = []
    for token in tokens:
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and rows:
            rows[-1].append(_inline_runs(token))
    if not rows:
        return []
    header, body = rows[0], rows[1:]
    count = max(len(r) for r in rows)
    rows = [r + [[] for _ in range(count - len(r))] for r in rows]
    natural = [max(line_width(r[c]) for r in rows) for c in range(count)]
    narrowest = [max([line_width(w) for r in rows for w in _words(r[c]) if w] or [0]) for c in range(count)]
    gaps = text_width(COLUMN_GAP) * (count - 1)
    if sum(natural) + gaps <= width:
        widths = natural
    elif sum(narrowest) + gaps <= width:
        # The columns that need the least to show whole take it first, so as few cells as possible wrap.
        widths = list(narrowest)
        spare = width - gaps - sum(narrowest)
        for c in sorted(range(count), key=lambda c: natural[c] - narrowest[c]):
            extra = min(natural[c] - narrowest[c], spare)
            widths[c] += extra
            spare -= extra
    else:
        return _table_as_list(header, body, width, indent)
    out: list[Line] = []
    for n, row in enumerate([header, *body]):
        styled = [[(_styled(s, HEADING) if n == 0 else s, t) for s, t in cell] for cell in row]
        cells = [wrap_runs(styled[c], max(1, widths[c])) for c in range(count)]
        for k in range(max(len(cell) for cell in cells)):
            line: Line = [("", indent)] if indent else []
            for c, cell in enumerate(cells):
                part = cell[k] if k < len(cell) else []
                line += part
                if c < count - 1:
                    line.append(("", " " * (widths[c] - line_width(part)) + COLUMN_GAP))
            out.append(line)
        if n == 0:
            out.append([("", indent), ("class:rule", RULE_CHAR * (sum(widths) + gaps))])
    return out


def _table_as_list(header: list[list[Run]], body: list[list[list[Run]]], width: int, indent: str) -> list[Line]:
    out: list[Line] = []
    for row in body:
        for c, cell in enumerate(row):
            name = header[c] if c < len(header) else []
            runs = [(_styled(s, HEADING), t) for s, t in name] + [(HEADING, ":"), ("", " ")] + cell
            bullet = BULLET if c == 0 else " " * text_width(BULLET)
            out += wrap_runs(runs, width + text_width(indent), indent + bullet, indent + " " * text_width(BULLET))
    return out


# -- output as text --------------------------------------------------------------------------------------------


def as_plain(lines: Sequence[Line]) -> str:
    """The lines as plain text, one per line, without trailing spaces."""
    return "".join("".join(text for _, text in line).rstrip() + "\n" for line in lines)


def as_overstrike(lines: Sequence[Line]) -> str:
    """The lines with bold (headings, strong) and underline (emphasis) drawn by overstriking, for a pager."""
    out = []
    for line in lines:
        row = ""
        for style, text in line:
            if HEADING in style or STRONG in style:
                row += "".join(f"{ch}\b{ch}" if not ch.isspace() else ch for ch in text)
            elif EMPHASIS in style:
                row += "".join(f"_\b{ch}" if not ch.isspace() else ch for ch in text)
            else:
                row += text
        out.append(row.rstrip() + "\n")
    return "".join(out)
