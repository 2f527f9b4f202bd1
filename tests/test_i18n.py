"""Choosing the language (issue 32): --lang, then CARDNET_LANG, then LC_ALL / LC_MESSAGES / LANG, then English;
explicit choices that name no language cardnet speaks are refused; gettext speaks the chosen one."""

from __future__ import annotations

import pytest

from cardnet import i18n
from cardnet.i18n import UnknownLanguage, choose_language, language_from_locale, parse_language


def test_the_option_comes_first_then_cardnet_lang_then_the_locale_then_english() -> None:
    env = {"CARDNET_LANG": "es", "LC_ALL": "fi_FI.UTF-8", "LANG": "id_ID.UTF-8"}
    assert choose_language("id", env) == "id"
    assert choose_language(None, env) == "es"
    assert choose_language(None, {"LC_ALL": "fi_FI.UTF-8", "LANG": "id_ID.UTF-8"}) == "fi"
    assert choose_language(None, {"LC_MESSAGES": "es_MX.UTF-8", "LANG": "fi_FI"}) == "es"
    assert choose_language(None, {"LANG": "id_ID.UTF-8"}) == "id"
    assert choose_language(None, {}) == "en"
    # Empty variables count as unset, as for every program.
    assert choose_language("", {"CARDNET_LANG": "", "LC_ALL": "", "LANG": "fi"}) == "fi"


def test_the_first_locale_variable_set_decides_even_for_a_language_cardnet_lacks() -> None:
    # LC_ALL=de_DE means German for every program; cardnet has no German, so English, not LANG's Finnish.
    assert language_from_locale({"LC_ALL": "de_DE.UTF-8", "LANG": "fi_FI.UTF-8"}) is None
    assert choose_language(None, {"LC_ALL": "de_DE.UTF-8", "LANG": "fi_FI.UTF-8"}) == "en"
    assert choose_language(None, {"LANG": "C.UTF-8"}) == "en"
    assert choose_language(None, {"LC_ALL": "POSIX"}) == "en"


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("fi", "fi"),
        ("FI", "fi"),
        ("es_ES", "es"),
        ("es-419", "es"),
        ("id_ID.UTF-8", "id"),
        ("in_ID", "id"),
        ("fi_FI.UTF-8@euro", "fi"),
        ("en_GB", "en"),
    ],
)
def test_language_tags_and_locale_names_are_understood(typed: str, code: str) -> None:
    assert parse_language(typed) == code


@pytest.mark.parametrize("typed", ["de", "klingon", "", "C", "e"])
def test_an_explicit_unknown_language_is_refused_naming_the_known_ones(typed: str) -> None:
    with pytest.raises(UnknownLanguage) as caught:
        parse_language(typed)
    assert caught.value.code == "unknown_language"
    assert repr(typed) in caught.value.reason and "es (Español)" in caught.value.reason
    with pytest.raises(UnknownLanguage):
        choose_language(None, {"CARDNET_LANG": typed or "xx", "LANG": "fi_FI"})


def test_gettext_speaks_the_current_language_and_set_language_checks_it() -> None:
    message = "no language {value!r}; cardnet speaks {known}"
    assert i18n.gettext(message) == message
    i18n.set_language("fi")
    try:
        assert i18n.current_language() == "fi"
        assert i18n.gettext(message) != message and "{value!r}" in i18n.gettext(message)
        with pytest.raises(UnknownLanguage):
            i18n.set_language("sv")
        assert i18n.current_language() == "fi", "a refused language changes nothing"
    finally:
        i18n.set_language("en")


def test_each_language_has_its_catalog_in_the_package() -> None:
    for lang in i18n.LANGUAGES:
        assert i18n.translations(lang).info()["language"] == lang


def test_every_command_lists_lang_in_its_help() -> None:
    import argparse

    from cardnet.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert {"play", "rules", "arena"} <= set(commands)
    for name, command in [("cardnet", parser), *commands.items()]:
        assert any("--lang" in action.option_strings for action in command._actions), name


@pytest.mark.parametrize(
    ("argv", "lang", "rest"),
    [
        (["rules", "ten", "--lang", "fi"], "fi", ["rules", "ten"]),
        (["--lang=es", "play", "--plain"], "es", ["play", "--plain"]),
        (["--lang", "id"], "id", []),
        (["rules", "ten", "--lang"], None, ["rules", "ten", "--lang"]),
        (["bot", "--", "--lang", "fi"], None, ["bot", "--", "--lang", "fi"]),
    ],
)
def test_lang_is_taken_from_anywhere_before_the_other_options(
    argv: list[str], lang: str | None, rest: list[str]
) -> None:
    from cardnet.cli import _take_lang_option

    assert _take_lang_option(argv) == (lang, rest)
