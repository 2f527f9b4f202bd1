"""Numbers as each language writes them (issue 32): cardnet's own two-symbol formatter agrees with Babel's CLDR
data for every language it speaks."""

from __future__ import annotations

import pytest
from babel.numbers import format_decimal

from cardnet import i18n
from cardnet.i18n import LANGUAGES, format_number

VALUES = [0, 7, 999, 1000, 1234, 12345, 123456, 1234567, -1234, 0.5, 1.25, 12.0, 1234.5, 98765.43, -1234.5]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_numbers_are_written_as_babel_writes_them(lang: str) -> None:
    i18n.set_language(lang)
    try:
        for value in VALUES:
            decimals = 1 if isinstance(value, float) else 0
            pattern = "#,##0.0" if decimals else "#,##0"
            assert format_number(value, decimals) == format_decimal(value, format=pattern, locale=lang), value
    finally:
        i18n.set_language("en")


def test_the_languages_differ_where_they_should() -> None:
    written = {}
    for lang in LANGUAGES:
        i18n.set_language(lang)
        written[lang] = format_number(1234.5, 1)
    i18n.set_language("en")
    assert written == {"en": "1,234.5", "id": "1.234,5", "es": "1.234,5", "fi": "1\u00a0234,5"}
    assert format_number(-0.04, 1) == "0.0", "a value that rounds to zero has no sign"
