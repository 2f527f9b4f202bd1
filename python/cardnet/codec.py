"""The cardnet wire codec: limits, error codes, canonical encoding, line framing and strict decoding.

No I/O happens here (the trio layer in :mod:`cardnet.net` feeds bytes in and writes bytes out);
``docs/PROTOCOL.md`` is the normative description. The messages themselves are :mod:`cardnet.protocol.messages`,
and :mod:`cardnet.protocol` re-exports this module's public names. It lies below both the protocol's sessions
and the table they drive (:mod:`cardnet.table`), which need its encoding and its errors.

Framing: one JSON object per line (NDJSON), UTF-8. Everything cardnet sends is *canonical* JSON (sorted keys,
``,``/``:`` separators, integers only, ASCII), byte-for-byte what the Rust core emits, so that pre-encoded
fragments from the core (views, events, legal moves) can be spliced into a message with :class:`Raw` instead of
being parsed and re-serialised once per seat.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from itertools import chain, compress, repeat
from operator import is_
from typing import Final, Union, cast

PROTOCOL_VERSION: Final = 1
SUPPORTED_VERSIONS: Final = (1,)

#: Largest line (bytes, excluding the newline) a peer may send to the host.
MAX_PEER_LINE: Final = 64 * 1024
#: Largest line (bytes, excluding the newline) the host may send to a peer.
MAX_HOST_LINE: Final = 4 * 1024 * 1024
#: Deepest nesting of arrays/objects accepted in a peer's message.
MAX_DEPTH: Final = 32
#: Longest chat message, in characters.
MAX_CHAT_CHARS: Final = 500
#: The chat lines a host replays to a peer that joins or reconnects: at most this many of the latest ...
CHAT_HISTORY_LINES: Final = 20
#: ... and no more than this many bytes of their UTF-8 text together (the oldest are dropped first).
CHAT_HISTORY_BYTES: Final = 4096
#: Longest player name, in characters.
MAX_NAME_CHARS: Final = 32
#: A decision whose legal-move list is longer than this (bytes of JSON) is sent without it; the peer pages it.
LEGAL_INLINE_LIMIT: Final = 1024 * 1024
#: Most moves in one ``legal`` page.
LEGAL_PAGE: Final = 4096
#: Largest integer the protocol carries (so every JSON implementation represents it exactly).
MAX_INT: Final = 2**53 - 1

#: Capabilities the host of this version offers; a peer's hello lists the ones it wants.
HOST_CAPABILITIES: Final = ("chat", "index_moves", "rematch", "spectate", "turn_timer")

#: Error codes, each with whether the host closes the connection after sending it.
ERROR_CODES: Final[Mapping[str, bool]] = {
    "line_too_long": True,
    "bad_utf8": False,
    "bad_json": False,
    "bad_message": False,
    "unknown_type": False,
    "handshake_required": True,
    "handshake_timeout": True,
    "unsupported_version": True,
    "auth_failed": True,
    "bad_token": True,
    "no_seat": True,
    "table_full": True,
    "not_started": False,
    "spectator": False,
    "wrong_seat": False,
    "stale_decision": False,
    "illegal_move": False,
    "invalid_move": False,
    "game_over": False,
    "not_over": False,
    "chat_disabled": False,
    "chat_too_long": False,
    "chat_rate": False,
    "rate_limited": True,
    "too_many_errors": True,
    "idle_timeout": True,
    "replaced": True,
    "shutting_down": True,
    "internal": False,
}

# Always applied with fullmatch: with match and "$", a trailing newline would slip through.
NAME_RE: Final = re.compile(r"[^\x00-\x1f\x7f]{1,%d}" % MAX_NAME_CHARS)
TOKEN_RE: Final = re.compile(r"[A-Za-z0-9_-]{22,128}")
HEX64_RE: Final = re.compile(r"[0-9a-f]{64}")
CAP_RE: Final = re.compile(r"[a-z0-9_]{1,32}")


class ProtocolError(Exception):
    """A message that cannot be accepted; ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, reason: str, detail: str | None = None) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        #: The core's own refusal code behind an ``illegal_move`` (e.g. ``plus_one``).
        self.detail = detail

    @property
    def fatal(self) -> bool:
        """Whether the host closes the connection after reporting this error."""
        return ERROR_CODES.get(self.code, True)


class Raw:
    """A fragment of JSON that is already canonical, spliced into a message verbatim.

    The caller vouches for the bytes (they come from the core's ``*_json`` helpers); :func:`canonical` does not
    re-check them, which is the point: the host encodes a view once, not once per message.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"Raw({self.text[:40]!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Raw) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


JSONValue = Union[None, bool, int, str, "list[JSONValue]", "dict[str, JSONValue]"]
Encodable = Union[None, bool, int, str, Raw, Sequence["Encodable"], Mapping[str, "Encodable"]]


def canonical(value: Encodable) -> str:
    """Encode ``value`` as canonical JSON text: sorted keys, no spaces, integers only, ASCII.

    Matches the Rust core's bytes for the same value. Floats are refused (the protocol has none).
    """
    parts: list[str] = []
    _encode_into(value, parts)
    return "".join(parts)


_dumps_ascii = json.JSONEncoder(ensure_ascii=True).encode


def _dumps_str(text: str) -> str:
    """A JSON string literal in ASCII; ValueError for text that is not Unicode (a lone surrogate).

    Python would write a lone surrogate as a ``\\udXXX`` escape that strict decoders (serde_json, for one) refuse,
    so whatever its source, such text never reaches a line or a journal record.
    """
    if not text.isascii() and not is_unicode(text):
        raise ValueError(f"text {text[:20]!r} is not valid Unicode (it holds a lone surrogate)")
    return _dumps_ascii(text)


def is_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode, i.e. holds no lone surrogate (so it can be written in UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _encode_into(value: Encodable, out: list[str]) -> None:
    if isinstance(value, Raw):
        out.append(value.text)
    elif isinstance(value, str):
        out.append(_dumps_str(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(str(int(value)))
    elif isinstance(value, Mapping):
        out.append("{")
        first = True
        for key in sorted(value):
            if not isinstance(key, str):
                raise TypeError(f"object keys must be strings, not {type(key).__name__}")
            if not first:
                out.append(",")
            first = False
            out.append(_dumps_str(key))
            out.append(":")
            _encode_into(value[key], out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _encode_into(item, out)
        out.append("]")
    else:
        raise TypeError(f"cannot encode {type(value).__name__} in the cardnet protocol")


def encode(message: Mapping[str, Encodable], limit: int = MAX_HOST_LINE) -> bytes:
    """One protocol line: canonical JSON of ``message`` plus ``\\n``; ValueError if longer than ``limit``."""
    data = canonical(message).encode("ascii")
    if len(data) > limit:
        raise ValueError(f"message of {len(data)} bytes exceeds the {limit}-byte line limit")
    return data + b"\n"


class LineBuffer:
    """Splits a byte stream into protocol lines with a hard length limit (no I/O: feed it what arrives)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._buf = bytearray()
        self._scanned = 0

    def feed(self, data: bytes | bytearray) -> None:
        """Append bytes received from the connection."""
        self._buf += data

    @property
    def empty(self) -> bool:
        """Whether no byte is waiting in the buffer (no line, not even part of one)."""
        return not self._buf

    def take(self, data: bytes | bytearray) -> bytes | None:
        """:meth:`feed`, then :meth:`next_line`, in one call. A chunk that is exactly one whole line arriving on
        an empty buffer (a peer's usual line) is returned without passing through the buffer."""
        if not self._buf and data.find(b"\n") == len(data) - 1 >= 0:
            if len(data) - 1 > self.limit:
                raise ProtocolError("line_too_long", f"line longer than {self.limit} bytes")
            return bytes(data[:-1])
        self._buf += data
        return self.next_line()

    def next_line(self) -> bytes | None:
        """The next complete line without its newline, or None until more bytes arrive.

        Raises ``line_too_long`` as soon as a line exceeds the limit, without waiting for its end.
        """
        nl = self._buf.find(b"\n", self._scanned)
        if nl < 0:
            self._scanned = len(self._buf)
            if len(self._buf) > self.limit:
                raise ProtocolError("line_too_long", f"line longer than {self.limit} bytes")
            return None
        line = bytes(self._buf[:nl])
        del self._buf[: nl + 1]
        self._scanned = 0
        if len(line) > self.limit:
            raise ProtocolError("line_too_long", f"line longer than {self.limit} bytes")
        return line


def state_hash_of(public_view: Encodable) -> str:
    """The public hash a peer recomputes: hex sha256 of the canonical JSON of the public view."""
    return hashlib.sha256(canonical(public_view).encode("ascii")).hexdigest()


def auth_mac(password: str, table_id: str, challenge: str) -> str:
    """The HMAC a peer proves it knows the table password with (the password itself never travels)."""
    message = f"cardnet-auth/1|{table_id}|{challenge}".encode()
    return hmac.new(password.encode("utf-8"), message, hashlib.sha256).hexdigest()


def check_auth(password: str, table_id: str, challenge: str, mac: str) -> bool:
    """Constant-time check of a peer's :func:`auth_mac`."""
    return hmac.compare_digest(auth_mac(password, table_id, challenge), mac)


def is_token(text: object) -> bool:
    """Whether ``text`` has the shape of a seat token (what a hello's ``token`` may hold)."""
    return isinstance(text, str) and TOKEN_RE.fullmatch(text) is not None


def token_hash(token: str) -> str:
    """How the host stores a seat token: hex sha256 (the token itself is never kept)."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


# ---------------------------------------------------------------------------------------------------------------
# Decoding


def _reject_constant(name: str) -> object:
    raise ProtocolError("bad_json", f"{name} is not JSON")


def _reject_float(text: str) -> object:
    raise ProtocolError("bad_json", f"non-integer number {text[:20]}")


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    # dict() does the work at C speed; only a collision needs the slow search for the key to name.
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ProtocolError("bad_json", f"duplicate key {key[:40]!r}")
            seen.add(key)
    return result


_decoder = json.JSONDecoder(
    object_pairs_hook=_no_duplicates, parse_float=_reject_float, parse_constant=_reject_constant
)

# Every byte becomes "." except digits, which become "0": sixteen "0"s in a row then mark the only lines that can
# hold an integer of magnitude 2**53 or more (a 16-digit number), found by a C-speed substring search.
_DIGIT_CLASS: Final = bytes(48 if 0x30 <= b <= 0x39 else 46 for b in range(256))
_LONG_NUMBER: Final = b"0" * len(str(MAX_INT + 1))
# Only a line with a "\u" escape in the surrogate range D800-DFFF can decode to a lone surrogate (UTF-8 cannot
# encode one, so the strict UTF-8 decode already refused raw ones). An escaped backslash ("\\ud800") matches too;
# the exact check on the decoded value then lets it through.
_SURROGATE_ESCAPE: Final = re.compile(rb"\\u[dD][89abcdefABCDEF]")


def decode_line(line: bytes, limit: int = MAX_PEER_LINE, max_depth: int = MAX_DEPTH) -> dict[str, JSONValue]:
    """Decode one line (without its newline) into a JSON object, strictly.

    Refuses lines over ``limit`` bytes, invalid UTF-8, non-JSON, NaN/Infinity, non-integer numbers, integers
    outside ±(2**53-1), duplicate keys, nesting deeper than ``max_depth``, ``\\u`` escapes that are not Unicode
    (a lone surrogate) and anything but an object.
    Whitespace between tokens is tolerated; a peer need not send canonical JSON.

    The cost stays close to the C decoder's own whatever a hostile peer sends: nothing is scanned character by
    character in Python, and the decoded tree is walked only when the raw bytes show it could break a limit.
    """
    if len(line) > limit:
        raise ProtocolError("line_too_long", f"line of {len(line)} bytes exceeds {limit}")
    if line.endswith(b"\r"):
        line = line[:-1]
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError("bad_utf8", f"invalid UTF-8 at byte {exc.start}") from None
    try:
        value = _decoder.decode(text)
    except ProtocolError:
        raise
    except RecursionError:
        # The C decoder guards its own recursion ("[[[[..." stops at the interpreter's recursion limit, long
        # before the stack is at risk), so only documents far deeper than max_depth end here.
        raise ProtocolError("bad_json", f"nesting deeper than {max_depth}") from None
    except ValueError as exc:
        raise ProtocolError("bad_json", str(exc)[:200]) from None
    if not isinstance(value, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    # Brackets inside strings count too, so these are upper bounds: a line below both needs no walk at all.
    may_be_deep = line.count(b"[") + line.count(b"{") > max_depth
    may_be_big = _LONG_NUMBER in line.translate(_DIGIT_CLASS)
    if may_be_deep or may_be_big:
        _check_tree(cast("dict[str, object]", value), max_depth, check_ints=may_be_big)
    if _SURROGATE_ESCAPE.search(line) is not None:
        _check_unicode(value)
    return value


def _check_unicode(value: dict[str, JSONValue]) -> None:
    """Refuse a message holding a lone surrogate anywhere (keys too): valid pairs were already joined by the
    decoder into one character, so whatever remains would make the peer's text unwritable in UTF-8."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("bad_json", "a \\u escape that is not valid Unicode (a lone surrogate)") from None


_IS_CONTAINER: Final = frozenset((dict, list)).__contains__


def _check_tree(value: dict[str, object], max_depth: int, *, check_ints: bool) -> None:
    """Refuse nesting deeper than ``max_depth`` and out-of-range integers, a whole level at a time.

    Each level is flattened and filtered with C-level iterators (no Python code runs per item), and the walk
    stops at the first level past the limit, so a deep document costs no more than its first levels.
    """
    level: list[object] = [value]
    depth = 1
    while True:
        kinds = list(map(type, level))
        dict_count = kinds.count(dict)
        children: list[object]
        if dict_count == 0:
            if not any(level):
                return
            children = list(chain.from_iterable(cast("list[list[object]]", level)))
        elif dict_count == len(level):
            children = list(chain.from_iterable(map(dict.values, cast("list[dict[str, object]]", level))))
        else:
            dicts = cast("Iterator[dict[str, object]]", compress(level, map(is_, kinds, repeat(dict))))
            lists = cast("Iterator[list[object]]", compress(level, map(is_, kinds, repeat(list))))
            children = list(chain(chain.from_iterable(map(dict.values, dicts)), chain.from_iterable(lists)))
        child_kinds = list(map(type, children))
        if check_ints:
            ints = cast("list[int]", list(compress(children, map(is_, child_kinds, repeat(int)))))
            if ints and (min(ints) < -MAX_INT or max(ints) > MAX_INT):
                raise ProtocolError("bad_json", "integer out of range")
        container_count = child_kinds.count(dict) + child_kinds.count(list)
        if container_count == 0:
            return
        depth += 1
        if depth > max_depth:
            raise ProtocolError("bad_json", f"nesting deeper than {max_depth}")
        if container_count < len(children):
            children = list(compress(children, map(_IS_CONTAINER, child_kinds)))
        level = children


class Fields:
    """Typed field access over a decoded object, raising ``bad_message`` with the field's name."""

    def __init__(self, obj: Mapping[str, JSONValue]) -> None:
        self.obj = obj

    def _get(self, name: str, required: bool) -> JSONValue:
        if name not in self.obj:
            if required:
                raise ProtocolError("bad_message", f"missing field {name!r}")
            return None
        return self.obj[name]

    def opt_int(self, name: str, required: bool = True, lo: int = 0, hi: int = MAX_INT) -> int | None:
        value = self._get(name, required)
        if value is None and not required:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise ProtocolError("bad_message", f"field {name!r} must be an integer")
        if not lo <= value <= hi:
            raise ProtocolError("bad_message", f"field {name!r} out of range {lo}..{hi}")
        return value

    def req_int(self, name: str, lo: int = 0, hi: int = MAX_INT) -> int:
        value = self.opt_int(name, True, lo, hi)
        assert value is not None
        return value

    def string(self, name: str, required: bool = True, pattern: re.Pattern[str] | None = None) -> str | None:
        value = self._get(name, required)
        if value is None and not required:
            return None
        if not isinstance(value, str):
            raise ProtocolError("bad_message", f"field {name!r} must be a string")
        if pattern is not None and not pattern.fullmatch(value):
            raise ProtocolError("bad_message", f"field {name!r} has an invalid value")
        return value

    def ref(self) -> int | str | None:
        value = self._get("ref", False)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ProtocolError("bad_message", "field 'ref' must be an integer or a string")
        if isinstance(value, str) and len(value) > 64:
            raise ProtocolError("bad_message", "field 'ref' longer than 64 characters")
        return value


def check_chat_text(text: str) -> str:
    """Validate chat text: 1..MAX_CHAT_CHARS characters and no control characters."""
    if not text or len(text) > MAX_CHAT_CHARS:
        raise ProtocolError("chat_too_long", f"chat text must be 1..{MAX_CHAT_CHARS} characters")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise ProtocolError("bad_message", "chat text may not contain control characters")
    return text
