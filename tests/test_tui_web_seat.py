"""A LAN table opened from the full-screen lobby serves the web seat too: its screen shows the address and the QR
code while seats are open (and on ``w``), within 80 by 24, and a browser's WebSocket sits down there."""

from __future__ import annotations

import asyncio
from typing import Any

import trio

from cardnet.journal import read_journal
from cardnet.ui.app import StartRequest
from cardnet.web.qr import qr_lines
from test_tui_headless import run
from tuihelpers import running
from webhelpers import WsClient


async def _guest(port: int) -> dict[str, Any]:
    """A browser's seat: join over the WebSocket (as the page does, from its own origin) and see the table."""
    client = await WsClient.connect(port, origin=f"http://127.0.0.1:{port}")
    welcome = await client.join("phone")
    assert welcome["type"] == "welcome", welcome
    assert (await client.recv_type("snapshot"))["view"]["private"] is not None
    await client.aclose()
    return welcome


def test_a_lan_table_from_the_lobby_shows_its_web_seat_and_a_browser_sits_down() -> None:
    async def scenario() -> None:
        start = StartRequest(game="fistful", players=2, interfaces=["127.0.0.1"], open_seats=1, probe=False)
        async with running(start) as d:
            st = d.state
            await d.until(lambda: st.table is not None and st.table.web_url is not None, "the web seat")
            assert st.table is not None and st.table.web_url is not None
            url = st.table.web_url
            assert url.startswith("http://127.0.0.1:") and url.endswith("/")
            # While a seat is open the QR code stands where the table will be, whole, on an 80 by 24 screen.
            screen = d.screen(80, 21)
            assert url in screen
            drawn = qr_lines(url, dark_on_light=True)
            assert all(line in screen for line in drawn) and len(drawn) + 3 <= 21
            port = int(url.rstrip("/").rpartition(":")[2])
            # Both ports are journalled: `cardnet host --resume` of this table serves them again (the
            # browser's page can only reconnect to the address it was loaded from).
            assert st.table.journal is not None and st.table.listening
            listened = [r for r in read_journal(st.table.journal).records if r["kind"] == "listen"]
            table_port = int(st.table.listening[0].rpartition(":")[2])
            assert listened == [{"kind": "listen", "port": table_port, "interfaces": ["127.0.0.1"], "web": port}]
            guest = asyncio.get_running_loop().run_in_executor(None, lambda: trio.run(_guest, port))
            await d.until(lambda: st.table is not None and st.table.open_seats == 0, "the guest seated")
            # The game starts: the table comes back; w shows the code again, and hides it.
            await d.until(lambda: url not in d.screen(80, 21), "the table drawn")
            await d.press("w")
            assert url in d.screen(80, 21)
            await d.press("w")
            assert url not in d.screen(80, 21)
            assert (await asyncio.wait_for(guest, 30))["seat"] == 1

    run(scenario())
