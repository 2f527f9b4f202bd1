"""argparse's own words (``usage:``, ``options``, its error messages) in cardnet's language.

argparse writes its words through the standard library's process-wide ``gettext`` domain, which holds no
catalog of ours; installing one there would change every other program's argparse in the process too.
Instead :class:`Parser` (an :class:`argparse.ArgumentParser`, passed on to every sub-command's parser) and
its :class:`HelpFormatter` put argparse's English through cardnet's catalogs where it comes out: the usage
prefix, the group titles, ``-h``'s help, and each error message, which is matched against argparse's own
message templates and written again from the translated template with the same values.

The messages below are argparse's msgids, marked here so ``scripts/i18n.py`` extracts them into cardnet's
catalogs; ``tests/test_cli_i18n.py`` checks that every message the running Python's argparse has is listed
here (for the user or for the programmer), so a Python version with new wording fails a test instead of
speaking English.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from typing import Any, NoReturn

from .i18n import gettext

__all__ = ["ARGPARSE_MESSAGES", "DEVELOPER_MESSAGES", "HelpFormatter", "Parser", "translate_error"]


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs; it is translated when shown (gettext's no-op marker)."""
    return message


USAGE = N_("usage: ")
ERROR = N_("%(prog)s: error: %(message)s\n")
#: argparse's words that are not error messages: group titles and ``-h``'s help.
_TITLES = (N_("positional arguments"), N_("options"), N_("show this help message and exit"))
#: argparse's error messages a user of a command line can meet, as argparse writes them (msgid for msgid).
_ERRORS = (
    N_("argument %(argument_name)s: %(message)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
)
#: Every message of argparse that cardnet translates.
ARGPARSE_MESSAGES = (USAGE, ERROR, *_TITLES, *_ERRORS)

#: argparse's messages for the programmer who builds a parser wrongly: they stay English, like cardnet's logs
#: (``expected %s argument`` needs ``nargs=N`` above 1, which no cardnet option has).
DEVELOPER_MESSAGES = (
    ".__call__() not defined",
    "conflicting subparser: %s",
    "conflicting subparser alias: %s",
    'argument "-" with mode %r',
    "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r",
    "invalid conflict_resolution value: %r",
    "conflicting option string: %s",
    "mutually exclusive arguments must be optional",
    "cannot have multiple subparser arguments",
    "%r is not callable",
    "expected %s argument",
)

#: A %-field of an argparse message: ``%s``, ``%r``, ``%(name)s`` or ``%(name)r``.
_FIELD = re.compile(r"%(?:\((\w+)\))?[sr]")


def _fields(template: str) -> list[str]:
    """The fields of a template in order, named ones by name and bare ones by position (``0``, ``1``...)."""
    return [m.group(1) or str(i) for i, m in enumerate(_FIELD.finditer(template))]


def _pattern(template: str) -> re.Pattern[str]:
    """A regular expression that reads a message written from ``template`` back into its values."""
    parts, start = [], 0
    for match in _FIELD.finditer(template):
        parts.append(re.escape(template[start : match.start()]))
        parts.append("(.*?)")
        start = match.end()
    parts.append(re.escape(template[start:]))
    return re.compile("".join(parts), re.DOTALL)


_PATTERNS = [(template, _pattern(template)) for template in _ERRORS]


def _fill(template: str, values: dict[str, str]) -> str:
    """``template`` with its fields replaced by the values read from the English message (already written out)."""
    count = iter(range(len(values)))
    return _FIELD.sub(lambda m: values[m.group(1) or str(next(count))], template)


def translate_error(message: str) -> str:
    """An argparse error message in the current language: read against argparse's templates and written again
    from the translated one (``argument --x: ...`` translates its inner message too); any other message (one
    of cardnet's own, already translated) unchanged."""
    for template, pattern in _PATTERNS:
        match = pattern.fullmatch(message)
        if match is None:
            continue
        values = dict(zip(_fields(template), match.groups(), strict=True))
        if "message" in values:
            values["message"] = translate_error(values["message"])
        return _fill(gettext(template), values)
    return message


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter with the usage prefix in the current language."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[Any],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, gettext(USAGE) if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` that speaks the current language (sub-command parsers are made of
    this class too, as argparse makes them of their parent's)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        # argparse's own groups arrive titled in English; a title of cardnet's is translated already.
        if args and args[0] in _TITLES:
            args = (gettext(args[0]), *args[1:])
        return super().add_argument_group(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if kwargs.get("help") in _TITLES:
            kwargs["help"] = gettext(kwargs["help"])
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Prints the usage and the error in the current language, and exits with code 2 (as argparse does)."""
        self.print_usage(sys.stderr)
        self.exit(2, gettext(ERROR) % {"prog": self.prog, "message": translate_error(message)})
