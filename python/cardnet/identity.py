"""Who is playing: the name a person plays under at every table, the language they read, and where both are
remembered (``config.toml``).

The name comes from, in order: ``--player-name`` (the caller passes it), ``CARDNET_NAME`` in the environment,
the ``name`` kept in ``$XDG_CONFIG_HOME/cardnet/config.toml`` (the full-screen client asks once and writes it
there), and the login name. Names follow the protocol's rule (PROTOCOL.md § 2): 1 to 32 characters, no control
characters. The ``language`` kept in the same file is the one the full-screen client's settings chose (see
:func:`cardnet.i18n.choose_language` for where it stands among ``--lang``, ``CARDNET_LANG`` and the locale).
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from pathlib import Path

from .i18n import gettext
from .protocol import MAX_NAME_CHARS, is_unicode

__all__ = [
    "BadName",
    "check_name",
    "config_path",
    "default_name",
    "save_language",
    "save_name",
    "saved_language",
    "saved_name",
]


class BadName(ValueError):
    """A name the host would refuse (empty, too long, or with control characters)."""


def check_name(name: str) -> str:
    """``name`` with its outer spaces removed, when a host accepts it; raises :class:`BadName`."""
    cleaned = name.strip()
    if not cleaned:
        raise BadName(gettext("a name needs at least one character"))
    if len(cleaned) > MAX_NAME_CHARS:
        raise BadName(
            gettext("a name has at most {limit} characters (this one has {count})").format(
                limit=MAX_NAME_CHARS, count=len(cleaned)
            )
        )
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in cleaned) or not is_unicode(cleaned):
        raise BadName(gettext("a name may not contain control characters"))
    return cleaned


def config_path() -> Path:
    """``$XDG_CONFIG_HOME/cardnet/config.toml``, or ``~/.config/cardnet/config.toml`` when it is unset."""
    base = os.environ.get("XDG_CONFIG_HOME")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".config"
    return root / "cardnet" / "config.toml"


def _read_config() -> dict[str, object]:
    try:
        with config_path().open("rb") as handle:
            return tomllib.load(handle)
    # RecursionError: arrays nested deeper than the parser's stack (a hostile or garbled file).
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        return {}


def _parses(text: str) -> bool:
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    return True


def saved_name() -> str | None:
    """The name remembered in the config file, when it holds a usable one."""
    name = _read_config().get("name")
    if not isinstance(name, str):
        return None
    try:
        return check_name(name)
    except BadName:
        return None


def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def save_name(name: str) -> None:
    """Remember ``name`` in the config file (other settings there are kept); raises :class:`BadName` for a bad
    name and OSError when the file cannot be written."""
    _save_setting("name", check_name(name))


def saved_language() -> str | None:
    """The language code remembered in the config file (``en``, ``id``, ``es``, ``fi``), when it holds one cardnet
    speaks; anything else there is ignored, as if unset."""
    from .i18n import LANGUAGES

    language = _read_config().get("language")
    return language if isinstance(language, str) and language in LANGUAGES else None


def save_language(language: str) -> None:
    """Remember ``language`` (a code of :data:`cardnet.i18n.LANGUAGES`) in the config file, keeping the other
    settings; raises ValueError for a language cardnet does not speak and OSError when the file cannot be
    written."""
    from .i18n import LANGUAGES

    if language not in LANGUAGES:
        raise ValueError(f"no language {language!r}")
    _save_setting("language", language)


def _save_setting(key: str, value: str) -> None:
    """Writes ``key = "value"`` as a top-level key of the config file, replacing its old value and keeping every
    other line."""
    path = config_path()
    try:
        old = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        old = ""
    except UnicodeDecodeError:
        old = None
    if old is None or not _parses(old):
        # Lines kept from a file TOML cannot read would hide the new setting too: the file is kept aside whole
        # (config.toml.damaged, for a person to read) and a fresh one holds the setting.
        path.replace(path.with_name(path.name + ".damaged"))
        old = ""
    lines = old.splitlines()
    kept = [line for line in lines if not line.replace(" ", "").startswith(f"{key}=")]
    # Top-level keys must come before any [table]: the setting goes first.
    text = "\n".join([f"{key} = {_toml_string(value)}", *kept]) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def default_name() -> str:
    """The name to play under when none was given: ``CARDNET_NAME``, the remembered name, the login name (cut to
    the length a host accepts), or ``player``; a candidate a host would refuse is passed over."""
    login = os.environ.get("USER", "")[:MAX_NAME_CHARS]
    for candidate in (os.environ.get("CARDNET_NAME"), saved_name(), login):
        if candidate:
            try:
                return check_name(candidate)
            except BadName:
                continue
    return "player"
