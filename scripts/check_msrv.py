"""Checks the workspace's declared minimum Rust version against what the build locks in.

Only the stable toolchain is installed here, so the declared `rust-version` cannot be proved by compiling with
that toolchain. This script checks what can be checked without it, from `cargo metadata --locked`:

- every workspace crate declares the workspace's `rust-version` (inherits it);
- every locked crate that a workspace library or binary builds with (normal and build dependencies, followed
  transitively; dev-dependencies only build the tests) declares a `rust-version` no newer than ours.

Clippy's `incompatible_msrv` lint (denied in the workspace's `[workspace.lints]`) covers the other half: the
standard-library items our own code calls. Exit status 1 names every miss.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def version_key(text: str) -> tuple[int, ...]:
    """`1.85` or `1.85.0` as a comparable tuple (missing parts count as 0)."""
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def metadata() -> dict[str, Any]:
    """The workspace's `cargo metadata`, resolved from the lock file, offline."""
    out = subprocess.run(
        ["cargo", "metadata", "--locked", "--offline", "--format-version", "1"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def built_with(meta: dict[str, Any]) -> set[str]:
    """Package ids the workspace members build with, through non-dev dependency edges."""
    nodes = {node["id"]: node for node in meta["resolve"]["nodes"]}
    seen: set[str] = set()
    todo = list(meta["workspace_members"])
    while todo:
        pkg = todo.pop()
        if pkg in seen:
            continue
        seen.add(pkg)
        for dep in nodes[pkg]["deps"]:
            if any(kind["kind"] != "dev" for kind in dep["dep_kinds"]):
                todo.append(dep["pkg"])
    return seen


def problems(meta: dict[str, Any]) -> list[str]:
    """Every crate that breaks the declared minimum, as a sentence."""
    packages = {p["id"]: p for p in meta["packages"]}
    members = [packages[m] for m in meta["workspace_members"]]
    declared = {m["rust_version"] for m in members}
    if len(declared) != 1 or None in declared:
        return [f"the workspace crates do not all declare one rust-version: {sorted(map(str, declared))}"]
    ours = declared.pop()
    found = []
    for pkg_id in sorted(built_with(meta)):
        pkg = packages[pkg_id]
        needed = pkg["rust_version"]
        if needed is not None and version_key(needed) > version_key(ours):
            found.append(f"{pkg['name']} {pkg['version']} needs Rust {needed}, the workspace declares {ours}")
    return found


def main() -> int:
    """Prints the verdict; 0 when the declared rust-version holds for the locked dependencies."""
    meta = metadata()
    found = problems(meta)
    for line in found:
        print(f"check_msrv: {line}", file=sys.stderr)
    if not found:
        count = len(built_with(meta)) - len(meta["workspace_members"])
        print(f"check_msrv: {count} locked dependencies all declare a rust-version within the workspace's, or none")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
