"""Cost of the host's strict decoder on the worst lines a hostile peer can send: prints µs per line.

    python bench/protocol_decode.py [--repeat N]

Every line is at most the 64 KiB peer limit. A peer may send 50 lines a second (burst 200), so µs per line
times 50 is the share of one core a single hostile connection can take. The `json only` column is the plain C
decoder on the same text, the floor any strict decoding pays.
"""

from __future__ import annotations

import argparse
import json
import timeit

from cardnet import protocol as P

LIMIT = P.MAX_PEER_LINE


def _wrap(body: bytes) -> bytes:
    return b'{"type":"chat","x":' + body + b"}"


def worst_lines() -> dict[str, bytes]:
    """Hostile lines, each as long as the peer limit allows."""
    n = LIMIT - 40
    return {
        "brackets in a string": b'{"a":"' + b"[" * (LIMIT - 8) + b'"}',
        "unclosed [[[[": b"[" * LIMIT,
        "nested [[..]]": b"[" * (LIMIT // 2) + b"]" * (LIMIT // 2),
        "saw of depth 31": _wrap(b"[" + (b"[" * 30 + b"]" * 30) * (n // 60) + b"]"),
        "flat [[],[],..]": _wrap(b"[" + b"[]," * (n // 3) + b"[]]"),
        "flat [{},{},..]": _wrap(b"[" + b"{}," * (n // 3) + b"{}]"),
        "flat [0,0,..]": _wrap(b"[" + b"0," * (n // 2) + b"0]"),
        "16-digit ints + brackets": b'{"s":"' + b"[" * 40 + b'","a":[' + b"9007199254740991," * (n // 17 - 4) + b"0]}",
        "flat strings": _wrap(b"[" + b'"",' * (n // 3) + b'""]'),
        "surrogate pairs": b'{"a":"' + b"\\ud83d\\ude00" * (n // 12) + b'"}',
        "pairs, one lone": _wrap(b"[" + b'"\\ud83d\\ude00",' * (n // 15) + b'"\\udc00"]'),
        "a real move": b'{"decision_id":12,"move":{"cards":[1,2],"type":"discard"},"ref":8,"type":"move"}',
    }


def _best_us(fn: object, repeat: int) -> float:
    timer = timeit.Timer(fn)  # type: ignore[arg-type]
    return min(timer.repeat(repeat=5, number=repeat)) / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="decodes per timing (best of 5 timings)")
    args = parser.parse_args()
    print(f"{'line':26} {'bytes':>6} {'result':>9} {'decode_line':>12} {'json only':>10}")
    for name, line in worst_lines().items():
        assert len(line) <= LIMIT, name
        text = line.decode()

        def strict(line: bytes = line) -> str:
            try:
                P.decode_line(line)
            except P.ProtocolError as exc:
                return exc.code
            return "ok"

        def plain(text: str = text) -> None:
            try:
                json.loads(text)
            except (ValueError, RecursionError):
                pass

        result = strict()
        print(
            f"{name:26} {len(line):6} {result:>9} {_best_us(strict, args.repeat):10.0f}µs "
            f"{_best_us(plain, args.repeat):8.0f}µs"
        )


if __name__ == "__main__":
    main()
