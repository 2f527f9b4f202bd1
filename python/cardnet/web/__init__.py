"""The web seat: a table served to browsers, so a guest with only a phone sits down by scanning a QR code.

- :mod:`.assets`: the page's static files (package data under ``page/``), looked up safely by request path;
- :mod:`.http`: one HTTP connection (h11): bounded ``GET``/``HEAD`` requests, security headers;
- :mod:`.ws`: the WebSocket (wsproto): one protocol line a text message, a line stream for the host;
- :mod:`.server`: :class:`~.server.WebSeat`, the port beside the table's that serves both;
- :mod:`.qr`: the page's address and its QR code drawn in the terminal (segno).

It sits above :mod:`cardnet.net` (a WebSocket is one more stream for the same host) and below the clients and
the ``cardnet`` command, which start it beside their tables.
"""

from __future__ import annotations

from .qr import qr_lines, web_url
from .server import WebSeat

__all__ = ["WebSeat", "qr_lines", "web_url"]
