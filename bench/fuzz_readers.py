"""Many damaged inputs into everything else that reads outside data: the long run of tests/test_fuzz_readers.py.

    python bench/fuzz_readers.py [--cases 5000] [--seed 1]

Saved games, RL saves, views given to ``game_from_view``, journals (damaged, records reordered or rewritten,
another table's records spliced in), the seat-token store, TXT records and a hostile host's ``table`` lines
(tests/readerfuzz.py). Every reader must answer with its documented error or a valid result, and leave a refused
journal as it was. The seat-token store is pointed at a temporary directory (nothing of the user's is touched).

Prints one JSON document: per reader, the cases run, cases/s and every problem found (there should be none).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=5000, help="cases per reader")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_STATE_HOME"] = str(Path(tmp) / "state")
        from readerfuzz import readers, run_reader

        out: dict[str, object] = {}
        for name, case in readers(Path(tmp)).items():
            started = time.perf_counter()
            problems = run_reader(case, args.cases, args.seed)
            elapsed = time.perf_counter() - started
            out[name] = {"cases": args.cases, "cases_per_s": round(args.cases / elapsed), "problems": problems}
            print(f"{name}: {args.cases} cases in {elapsed:.1f} s, {len(problems)} problems", file=sys.stderr)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
