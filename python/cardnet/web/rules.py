"""A game's whole rules for the web seat's start page: the Markdown ``cardnet rules`` prints
(:func:`cardnet.rulebook.rules_text`), parsed on the host with markdown-it-py and served as a tree of
elements in JSON at ``/rules/<game>.json``.

The page builds that tree into the document element by element with text nodes only, so no string from the
host is ever parsed as markup there (the page's code holds no ``innerHTML``). The tree names only the tags in
:data:`BLOCK_TAGS` and :data:`INLINE_TAGS`; raw HTML in the Markdown is not recognised (``html`` off) and
stays text, a link keeps its text and only an ``http(s)`` target, and an image becomes its alt text.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..i18n import DEFAULT_LANGUAGE, LANGUAGES
from ..rulebook import rules_games, rules_text

__all__ = ["BLOCK_TAGS", "INLINE_TAGS", "RulesNode", "rules_json", "rules_tree"]

#: One node of the tree: a text, or ``{"tag": ..., "children": [...]}`` (``href`` on a link, ``start`` on a
#: numbered list that does not start at 1).
RulesNode = str | dict[str, Any]

#: The block elements a tree may hold.
BLOCK_TAGS = frozenset(
    {"h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "blockquote", "pre", "hr"}
    | {"table", "thead", "tbody", "tr", "th", "td"}
)
#: The inline elements a tree may hold.
INLINE_TAGS = frozenset({"strong", "em", "code", "a", "br", "s"})

_PARSER = MarkdownIt("commonmark", {"html": False}).enable("table")


def rules_tree(markdown: str) -> list[RulesNode]:
    """``markdown`` as a list of block nodes (see :data:`RulesNode`)."""
    root: dict[str, Any] = {"tag": "", "children": []}
    stack = [root]
    for token in _PARSER.parse(markdown):
        _add(token, stack)
    children: list[RulesNode] = root["children"]
    return children


def _add(token: Token, stack: list[dict[str, Any]]) -> None:
    """Add one token (block or inline) to the node on top of ``stack``, opening or closing elements."""
    top = stack[-1]["children"]
    if token.type == "inline":
        for child in token.children or []:
            _add(child, stack)
    elif token.hidden:
        # The paragraphs of a tight list: their text goes straight into the item.
        return
    elif token.type in ("text", "html_inline", "html_block"):
        _text(top, token.content)
    elif token.type == "softbreak":
        _text(top, " ")
    elif token.type in ("code_inline",):
        top.append({"tag": "code", "children": [token.content]})
    elif token.type in ("fence", "code_block"):
        top.append({"tag": "pre", "children": [token.content.rstrip("\n")]})
    elif token.type == "image":
        _text(top, token.content)
    elif token.type in ("hr", "hardbreak"):
        top.append({"tag": "hr" if token.type == "hr" else "br", "children": []})
    elif token.nesting == 1:
        node: dict[str, Any] = {"tag": token.tag, "children": []}
        if token.tag == "a":
            href = str(token.attrGet("href") or "")
            if href.startswith(("https://", "http://")):
                node["href"] = href
        if token.tag == "ol":
            start = token.attrGet("start")
            if start is not None and int(start) != 1:
                node["start"] = int(start)
        if token.tag in BLOCK_TAGS | INLINE_TAGS:
            top.append(node)
        else:
            # An element the page does not draw: its content joins the parent.
            node["children"] = top
        stack.append(node)
    elif token.nesting == -1 and len(stack) > 1:
        stack.pop()


def _text(children: list[RulesNode], text: str) -> None:
    """Append text, joined to a text just before it."""
    if children and isinstance(children[-1], str):
        children[-1] += text
    elif text:
        children.append(text)


@lru_cache(maxsize=16)
def rules_json(game: str, language: str = DEFAULT_LANGUAGE) -> bytes | None:
    """The rules of ``game`` in ``language`` as the JSON the page reads (``{"game", "rules"}``), or None for a
    game without rules or a language cardnet does not speak."""
    if game not in rules_games() or language not in LANGUAGES:
        return None
    document = {"game": game, "rules": rules_tree(rules_text(game, language))}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
