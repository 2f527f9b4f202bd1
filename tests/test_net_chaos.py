"""Games through links that misbehave (tests/chaosproxy.py, tests/netchaos.py): latency, jitter, single-byte
writes, throttling, stalls, a half-open connection and a reset in the middle of a line. About 15 s in CI;
bench/net_chaos.py runs more tables and seeds."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
import trio

from chaosproxy import ChaosProxy, Faults
from netchaos import play_through_chaos

pytestmark = pytest.mark.trio


async def test_a_table_through_misbehaving_links_finishes_with_every_seat_on_the_hosts_state(tmp_path: Path) -> None:
    run = await play_through_chaos(tmp_path, game="matchstick", players=4, games=1, seed=3)
    assert run.problems == []
    # The faults really happened: a reset and a hold (each followed by exactly the reconnect it forced), stalls,
    # single-byte writes; the silent spectator's first link was held too.
    proxies = run.injected[:-1]
    assert sum(i.resets for i in proxies) >= 1 and sum(i.holds for i in proxies) >= 1
    assert sum(i.stalls for i in proxies) >= 1 and sum(i.split_chunks for i in proxies) >= 10
    assert run.connects[0] == 2 and run.connects[1] == 2 and run.connects[2] == 1 and run.connects[3] == 1
    assert run.injected[-1].holds == 1


async def test_the_proxy_resets_mid_line_and_holds_half_open() -> None:
    """The proxy's own faults, seen from its two ends."""

    async def echo_target(stream: trio.SocketStream) -> None:
        try:
            async for data in stream:
                await stream.send_all(data)
        except trio.BrokenResourceError:
            pass  # the reset reached this end too

    async with trio.open_nursery() as nursery:
        (listener,) = await nursery.start(partial(trio.serve_tcp, echo_target, 0, host="127.0.0.1"))
        target = listener.socket.getsockname()[1]
        reset = ChaosProxy(target, lambda n: Faults(reset_after=0.0))
        held = ChaosProxy(target, lambda n: Faults(hold_after=0.1))
        for proxy in (reset, held):
            await nursery.start(proxy.serve)
        stream = await trio.open_tcp_stream("127.0.0.1", reset.port)
        await stream.send_all(b'{"type":"ping","id":1}\n')
        with pytest.raises(trio.BrokenResourceError):
            with trio.fail_after(2):
                while True:
                    if not await stream.receive_some(100):
                        raise trio.BrokenResourceError("closed without a reset")
        assert reset.injected.resets == 1
        await stream.aclose()
        stream = await trio.open_tcp_stream("127.0.0.1", held.port)
        await trio.sleep(0.2)
        await stream.send_all(b"hello\n")
        with trio.move_on_after(0.5) as quiet:
            await stream.receive_some(100)
        assert quiet.cancelled_caught and held.injected.holds == 1
        await stream.aclose()
        nursery.cancel_scope.cancel()
