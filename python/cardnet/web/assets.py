"""The web seat's static files: which request path names which file under the page directory, and its type.

Only files directly named are served (``/`` is ``index.html``; ``/rules/<game>.json`` is made from the game's
rules, ``/rules/<lang>/<game>.json`` from them in another language, see :mod:`cardnet.web.rules`; ``/words/<lang>.json`` from the gettext catalogs, see
:mod:`cardnet.web.words`): no directory listing, no index of a subfolder,
no hidden files, only the types in :data:`CONTENT_TYPES`, and nothing outside the page directory, whatever
the path holds (``..`` plain or percent-encoded, backslashes, NUL, a symbolic link that leads out).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote_to_bytes

from .rules import rules_json
from .words import words_json

__all__ = ["CONTENT_TYPES", "RULES_FOLDER", "WORDS_FOLDER", "Asset", "BadPath", "PageFiles", "default_page_dir"]

#: The file types the page may consist of, by extension.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}

#: The largest file served (the page's files are a few kilobytes each; the page as a whole aims at 150 KB).
MAX_ASSET_BYTES = 4 * 1024 * 1024


#: ``/rules/<game>.json``: a game's whole rules for the start page (:mod:`cardnet.web.rules`), made by the host;
#: ``/rules/<lang>/<game>.json`` the same in another language.
RULES_FOLDER = "rules"
#: ``/words/<lang>.json``: the page's words in one language (:mod:`cardnet.web.words`), made by the host.
WORDS_FOLDER = "words"


class BadPath(ValueError):
    """A request path that can name no file (traversal, a backslash, a control character, bad encoding)."""


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, content type and entity tag (for ``If-None-Match``)."""

    body: bytes
    content_type: str
    etag: str


def default_page_dir() -> Path:
    """The page shipped in the package (``cardnet/web/page``)."""
    return Path(__file__).resolve().parent / "page"


class PageFiles:
    """The files of one page directory, looked up by request path."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root if root is not None else default_page_dir()).resolve()

    @staticmethod
    def segments(target: bytes) -> list[str]:
        """The path's segments, decoded; raises :class:`BadPath` for a path that can name no file.

        ``target`` is the request target as sent (``/a/b.js?v=2``): the query is ignored, percent-escapes are
        decoded once, and the result must be UTF-8 without ``..``/``.`` segments, backslashes or control
        characters. ``/`` gives no segments (the index).
        """
        path = target.split(b"?", 1)[0]
        if not path.startswith(b"/"):
            raise BadPath("the request target must be a path")
        try:
            text = unquote_to_bytes(path).decode("utf-8")
        except UnicodeDecodeError:
            raise BadPath("the path is not UTF-8") from None
        if "\\" in text or any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text):
            raise BadPath("the path holds a backslash or a control character")
        parts = text.split("/")[1:]
        if parts == [""]:
            return []
        if any(part in (".", "..") for part in parts):
            raise BadPath("the path leaves its folder")
        return parts

    def find(self, target: bytes) -> Asset | None:
        """The file ``target`` names, or None when there is none to serve (missing, a folder, a hidden file, a
        type not served, a link leading out of the page directory). Raises :class:`BadPath` as
        :meth:`segments` does."""
        parts = self.segments(target) or ["index.html"]
        if len(parts) == 2 and parts[0] == RULES_FOLDER:
            return _rules_asset(parts[1])
        if len(parts) == 3 and parts[0] == RULES_FOLDER:
            return _rules_asset(parts[2], parts[1])
        if len(parts) == 2 and parts[0] == WORDS_FOLDER:
            return _words_asset(parts[1])
        if any(not part or part.startswith(".") for part in parts):
            return None
        content_type = CONTENT_TYPES.get(Path(parts[-1]).suffix.lower())
        if content_type is None:
            return None
        path = self.root.joinpath(*parts)
        try:
            resolved = path.resolve(strict=True)
            if not resolved.is_relative_to(self.root) or not resolved.is_file():
                return None
            if resolved.stat().st_size > MAX_ASSET_BYTES:
                return None
            body = resolved.read_bytes()
        except (OSError, RuntimeError):
            return None
        return _asset(body, content_type)


def _asset(body: bytes, content_type: str) -> Asset:
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    return Asset(body, content_type, etag)


def _rules_asset(name: str, language: str = "en") -> Asset | None:
    """``<game>.json`` under ``/rules/`` (or ``/rules/<language>/``): the game's rules as a tree of elements, or
    None for no such game or language."""
    game, dot, suffix = name.rpartition(".")
    body = rules_json(game, language) if dot and suffix == "json" else None
    return None if body is None else _asset(body, CONTENT_TYPES[".json"])


def _words_asset(name: str) -> Asset | None:
    """``<lang>.json`` under ``/words/``: the page's words in that language, or None for a language not spoken."""
    language, dot, suffix = name.rpartition(".")
    body = words_json(language) if dot and suffix == "json" else None
    return None if body is None else _asset(body, CONTENT_TYPES[".json"])
