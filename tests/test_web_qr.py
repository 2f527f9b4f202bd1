"""The web seat's address as a QR code in the terminal: it encodes the address (segno), two module rows a line,
and fits where the host shows it (the banner, the table screen's side panel)."""

from __future__ import annotations

import pytest
import segno

from cardnet.web.qr import QR_BORDER, qr_code, qr_lines, web_url

#: Decoding a line of half blocks back into its two module rows (True: a block is drawn there).
_ROWS = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}


def modules(lines: list[str]) -> list[list[bool]]:
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [_ROWS[ch] for ch in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return rows


@pytest.mark.parametrize(
    "url",
    ["http://192.168.1.20:8081/", "http://255.255.255.255:65535/", "http://10.0.0.2:80/", "http://[fe80::1]:8081/"],
)
def test_the_drawing_is_the_qr_code_of_the_address(url: str) -> None:
    code = qr_code(url)
    # The code holds the address (scheme and host in capitals, which the URL allows), nothing else.
    expected = segno.make_qr(url.upper(), error="l", boost_error=False)
    assert code == expected and code.designator == expected.designator
    matrix = [[bool(cell) for cell in row] for row in code.matrix_iter(border=QR_BORDER)]
    dark_on_light = modules(qr_lines(url, dark_on_light=True))
    assert dark_on_light[: len(matrix)] == matrix
    # By default a block is a light module (light text on a dark terminal): the same code, inverted.
    light_on_dark = modules(qr_lines(url))
    assert light_on_dark[: len(matrix)] == [[not cell for cell in row] for row in matrix]


def test_the_longest_ipv4_address_fits_the_table_screens_side_panel() -> None:
    lines = qr_lines(web_url("255.255.255.255", 65535))
    assert len(lines) <= 15 and all(len(line) <= 29 for line in lines)
    assert len({len(line) for line in lines}) == 1


def test_web_url_brackets_an_ipv6_address() -> None:
    assert web_url("192.168.1.20", 8081) == "http://192.168.1.20:8081/"
    assert web_url("fe80::1", 8081) == "http://[fe80::1]:8081/"
