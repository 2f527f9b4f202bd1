"""Coverage-guided fuzzing of the peer line decoder and the host's session with atheris (libFuzzer for Python).

    pip install '.[fuzz]'
    python bench/fuzz_lines_atheris.py -atheris_runs=200000 [-max_len=4096] [CORPUS_DIR]

Where bench/fuzz_session.py generates lines from the protocol's structure, this lets libFuzzer's coverage
feedback find its own way through ``cardnet.protocol`` and ``cardnet.table``: each input is one line, decoded as
the host decodes a peer's line (``parse_move_line``, ``decode_line``, ``parse_client_message``), then sent from
a seated player's link to a live session (its fast lane first, then the general path) and from a link still in
its handshake. The seed corpus is every message type of the protocol. An exception other than the documented
``ProtocolError`` from the decoder, anything escaping the session, or an ``internal`` error answer stops the run
with the input that caused it (libFuzzer writes it to ``crash-*``). Prints libFuzzer's own figures (inputs
run, coverage, execs/s) on stderr.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["cardnet.protocol", "cardnet.table"]):
    from cardnet import protocol as P
    from cardnet.protocol.host import Commit, Durable, HostOptions, HostSession, Resync, Send
    from cardnet.table import Table, TableConfig, core_engine

SEEDS = [
    b'{"type":"hello","protocol":1,"name":"ann","role":"player","capabilities":["chat"],"seat":0}',
    b'{"decision_id":16,"index":0,"type":"move"}',
    b'{"type":"move","decision_id":17,"move":{"type":"play","value":"8","cards":[1,2]},"ref":"x"}',
    b'{"type":"legal","decision_id":16,"offset":0,"limit":50}',
    b'{"type":"snapshot","ref":1}',
    b'{"type":"ping","id":1}',
    b'{"type":"pong","id":1}',
    b'{"type":"chat","text":"gg"}',
    b'{"type":"rematch"}',
    b'{"type":"bye"}',
]


class Harness:
    """A session with every seat taken; rebuilt now and then so the state space keeps being explored."""

    def __init__(self) -> None:
        self.inputs = 0
        self.build()

    def build(self) -> None:
        config = TableConfig("matchstick", 3, self.inputs, seeded=True, table_id="atheris")
        self.table = Table(config, core_engine(), clock=lambda: 0.0)
        self.session = HostSession(self.table, HostOptions(msg_rate=1e9, msg_burst=1e9, max_strikes=10**9))
        self.links = []
        for seat in range(3):
            link, _ = self.session.connect(0.0)
            hello = P.Hello(1, f"p{seat}", "player", ("chat",), seat=seat)
            self.run(self.session.receive_line(link, P.encode(hello.to_wire())[:-1], 0.0))
            self.links.append(link)

    def run(self, effects: list[object]) -> None:
        for effect in effects:
            data = effect.data if isinstance(effect, Send) else None
            if isinstance(effect, Commit):
                for delivery in effect.deliveries:
                    if delivery.data is not None and b'"code":"internal"' in delivery.data:
                        raise AssertionError("a state message carried an internal error")
            if isinstance(effect, Resync):
                data, _ = self.session.snapshot(effect.link, effect.ack)
            if isinstance(effect, Durable):
                self.run(list(self.session.welcome(effect.link)))
            if data is not None and b'"code":"internal"' in data:
                raise AssertionError(f"the host answered with an internal error: {data[:200]!r}")

    def one(self, line: bytes) -> None:
        self.inputs += 1
        if self.inputs % 500 == 0 or self.table.game.is_over():
            self.build()
        try:
            P.parse_move_line(line)
            P.parse_client_message(P.decode_line(line))
        except P.ProtocolError:
            pass
        link = self.links[self.inputs % 3]
        if link.closing is not None:
            self.build()
            link = self.links[0]
        if self.session.quick_move(link, line, float(self.inputs)) is None:
            self.run(list(self.session.receive_line(link, line, float(self.inputs))))
        stranger, _ = self.session.connect(0.0)
        self.run(list(self.session.receive_line(stranger, line, 0.0)))
        self.run(list(self.session.disconnected(stranger, 0.0)))


def main() -> None:
    harness = Harness()

    def test_one_input(data: bytes) -> None:
        harness.one(data.replace(b"\n", b""))

    argv = list(sys.argv)
    corpus = [a for a in argv[1:] if not a.startswith("-")]
    if corpus:
        from pathlib import Path

        seeds = Path(corpus[0])
        seeds.mkdir(parents=True, exist_ok=True)
        for n, seed in enumerate(SEEDS):
            (seeds / f"seed{n}").write_bytes(seed)
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
