"""The example bots (SDK, raw sockets, Node.js) play whole games against a host (stand-in game)."""

from __future__ import annotations

import json
import shutil

import pytest
import trio

from nethelpers import bot_command, child_env, running_host
from netfake import fake_engine

pytestmark = pytest.mark.trio


@pytest.mark.parametrize("kinds", [("raw", "node", "sdk")])
async def test_example_bots_play_two_games(kinds: tuple[str, ...]) -> None:
    if "node" in kinds and shutil.which("node") is None:
        pytest.fail("node is required for the Node.js example bot test")
    async with running_host(fake_engine(), players=len(kinds), options={"rounds": 3}) as host:
        outputs: dict[str, str] = {}

        async def run(kind: str) -> None:
            proc = await trio.run_process(
                bot_command(kind, host.port or 0, games=2),
                capture_stdout=True,
                capture_stderr=True,
                env=child_env(),
                check=False,
            )
            assert proc.returncode == 0, (kind, proc.stderr.decode())
            outputs[kind] = proc.stdout.decode()

        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                for kind in kinds:
                    nursery.start_soon(run, kind)
        outcomes = {kind: [json.loads(line)["outcome"] for line in out.splitlines()] for kind, out in outputs.items()}
        assert all(len(v) == 2 for v in outcomes.values())
        assert len({json.dumps(v, sort_keys=True) for v in outcomes.values()}) == 1
        assert host.table.game_no == 1 and host.table.game.is_over()
