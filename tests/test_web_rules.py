"""The rules on the web seat's start page: the host serves each game's Markdown (the text of `cardnet rules`) as a
tree of elements the page builds with text nodes; raw HTML stays text, only plain web links survive, and only
``/rules/<game>.json`` of a game with rules is served."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardnet.rulebook import rules_games, rules_text
from cardnet.web.assets import PageFiles
from cardnet.web.rules import BLOCK_TAGS, INLINE_TAGS, RulesNode, rules_tree


def _tags(nodes: list[RulesNode]) -> set[str]:
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, dict):
            found.add(node["tag"])
            found |= _tags(node["children"])
    return found


def _text(nodes: list[RulesNode]) -> str:
    return "".join(node if isinstance(node, str) else _text(node["children"]) for node in nodes)


def test_markdown_becomes_headings_lists_emphasis_and_code() -> None:
    tree = rules_tree("# Title\n\nSome **bold** and *em* and `code`.\n\n1. one\n2. two\n\n- a\n- b\n")
    assert tree == [
        {"tag": "h1", "children": ["Title"]},
        {
            "tag": "p",
            "children": [
                "Some ",
                {"tag": "strong", "children": ["bold"]},
                " and ",
                {"tag": "em", "children": ["em"]},
                " and ",
                {"tag": "code", "children": ["code"]},
                ".",
            ],
        },
        {"tag": "ol", "children": [{"tag": "li", "children": ["one"]}, {"tag": "li", "children": ["two"]}]},
        {"tag": "ul", "children": [{"tag": "li", "children": ["a"]}, {"tag": "li", "children": ["b"]}]},
    ]


def test_raw_html_stays_text_and_only_web_links_keep_their_target() -> None:
    markdown = (
        "<script>alert(1)</script>\n\nA <img src=x onerror=alert(2)> here, [bad](javascript:alert(3)), "
        "[good](https://example.org/r) and ![pic](x.png)\n\n3. third\n"
    )
    tree = rules_tree(markdown)
    assert _tags(tree) == {"p", "a", "ol", "li"}
    links = [node for node in tree[1]["children"] if isinstance(node, dict)]  # type: ignore[index]
    assert links == [{"tag": "a", "children": ["good"], "href": "https://example.org/r"}]
    text = _text(tree)
    assert "<script>alert(1)</script>" in text and "<img src=x onerror=alert(2)>" in text and "bad" in text
    assert tree[2] == {"tag": "ol", "children": [{"tag": "li", "children": ["third"]}], "start": 3}


@pytest.mark.parametrize("game", rules_games())
def test_every_game_s_rules_are_served_whole(game: str) -> None:
    asset = PageFiles().find(f"/rules/{game}.json".encode())
    assert asset is not None and asset.content_type == "application/json"
    document: dict[str, Any] = json.loads(asset.body)
    assert document["game"] == game
    assert _tags(document["rules"]) <= BLOCK_TAGS | INLINE_TAGS
    # Every word of the Markdown's prose is in the tree (markup characters aside).
    words = {word.strip("*`_|:,.()") for word in rules_text(game).split()} - {""}
    text = _text(document["rules"])
    assert [word for word in words if word.isalpha() and word not in text] == []


@pytest.mark.parametrize(
    "target", [b"/rules/nope.json", b"/rules/cherki.md", b"/rules/cherki", b"/rules/", b"/rules/x/cherki.json"]
)
def test_nothing_else_under_rules_is_served(target: bytes) -> None:
    assert PageFiles().find(target) is None
