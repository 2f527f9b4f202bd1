"""The web seat's address as a QR code drawn in the terminal (segno), so a guest points a phone's camera at it.

Two rows of modules share one line of text (the half blocks ``▀ ▄ █``): a typical LAN address
(``http://192.168.1.20:8081/``) is 25–29 characters wide and 13–15 lines tall, quiet zone included.
"""

from __future__ import annotations

import segno

__all__ = ["QR_BORDER", "qr_lines", "web_url"]

#: Light modules around the code: two, not the standard's four, to fit a terminal (phones read it).
QR_BORDER = 2

_HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def web_url(address: str, port: int) -> str:
    """The page's address for a guest: ``http://ADDRESS:PORT/`` (an IPv6 address in brackets)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/"


def qr_code(url: str) -> segno.QRCode:
    """The QR code of ``url``. Its scheme and address are written in capitals, which they may be (RFC 3986),
    so that the code uses the alphanumeric mode and stays a size smaller than in byte mode."""
    scheme, sep, rest = url.partition("://")
    text = scheme.upper() + sep + rest.upper() if rest.rstrip("/").count("/") == 0 else url
    return segno.make_qr(text, error="l", boost_error=False)


def qr_lines(url: str, *, dark_on_light: bool = False) -> list[str]:
    """The QR code of ``url`` as lines of half-block characters, quiet zone included.

    By default a drawn block is a *light* module: on a terminal with light text on a dark background (the
    usual one) the code then shows dark on light, as a camera expects. With ``dark_on_light`` a block is a
    dark module, for text drawn dark on a light background (a full-screen client sets those colours itself).
    """
    rows = [[bool(cell) != (not dark_on_light) for cell in row] for row in qr_code(url).matrix_iter(border=QR_BORDER)]
    if len(rows) % 2:
        rows.append([not dark_on_light] * len(rows[0]))
    return [
        "".join(_HALF_BLOCKS[top, bottom] for top, bottom in zip(upper, lower))
        for upper, lower in zip(rows[::2], rows[1::2])
    ]
