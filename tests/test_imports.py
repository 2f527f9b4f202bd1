"""The import graph runs one way: core -> API -> protocol -> net -> ui -> cli, with no cycles and no private
imports across packages; ``protocol/`` works with trio blocked; ``import cardnet`` stays free of the network."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import cardnet

from nethelpers import child_env

PACKAGE = Path(cardnet.__file__).resolve().parent

#: Layers, lowest first; each module may import only from its own layer and the layers below.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("cardnet._core",)),
    ("api", ("cardnet", "cardnet.errors", "cardnet.games", "cardnet.ai", "cardnet.segments", "cardnet.arena")),
    ("protocol", ("cardnet.protocol", "cardnet.table", "cardnet.journal", "cardnet.identity")),
    ("net", ("cardnet.net", "cardnet.bot")),
    ("ui", ("cardnet.ui",)),
    ("cli", ("cardnet.cli", "cardnet.commands", "cardnet.__main__")),
]


def module_name(path: Path) -> str:
    parts = ["cardnet", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int:
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    assert rank >= 0, f"{module} belongs to no layer: add it to LAYERS"
    return rank


def modules() -> dict[str, Path]:
    found = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    assert "cardnet.protocol.host" in found and "cardnet.net.host" in found
    return found


def imports_of(name: str, path: Path, known: set[str]) -> list[tuple[str, str]]:
    """(imported cardnet module, imported name or "") for every import statement, lazy ones included."""
    is_package = path.name == "__init__.py"
    found: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names if alias.name.split(".")[0] == "cardnet"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "cardnet":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((sub, "") if sub in known else (target, alias.name))
    return found


def graph() -> dict[str, list[tuple[str, str]]]:
    found = modules()
    known = set(found) | {"cardnet._core"}
    return {name: imports_of(name, path, known) for name, path in found.items()}


def test_every_import_points_down_the_layers() -> None:
    wrong = [
        f"{name} ({LAYERS[layer_of(name)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for name, edges in graph().items()
        for target, _ in edges
        if layer_of(target) > layer_of(name)
    ]
    assert wrong == []


def test_no_private_imports_across_packages() -> None:
    """Above the API, nothing reaches into the extension or another package's private names."""
    api = layer_of("cardnet.games")
    wrong = []
    for name, edges in graph().items():
        if layer_of(name) <= api:
            continue
        for target, imported in edges:
            same_package = target.rsplit(".", 1)[0] == name.rsplit(".", 1)[0]
            if target == "cardnet._core" or (imported.startswith("_") and not same_package):
                wrong.append(f"{name} imports {target} {imported}".strip())
    assert wrong == []


def test_the_import_graph_has_no_cycles() -> None:
    edges = {name: sorted({t for t, _ in targets if t != name}) for name, targets in graph().items()}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in edges.get(node, []):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt) :] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def test_the_binding_crate_imports_only_public_modules_of_the_api() -> None:
    """The extension reaches back into the package only for its own module, errors and games."""
    sources = Path(__file__).resolve().parent.parent / "rust" / "py" / "src"
    named = {
        m
        for path in sources.rglob("*.rs")
        for m in re.findall(r'"(cardnet(?:\.\w+)*)"', path.read_text(encoding="utf-8"))
    }
    assert {"cardnet._core", "cardnet.errors", "cardnet.games"} <= named, named
    api = layer_of("cardnet.games")
    for module in named:
        assert layer_of(module) <= api, f"the binding imports {module}, above the API"
        private = [part for part in module.split(".")[1:] if part.startswith("_")]
        assert module == "cardnet._core" or not private, f"the binding imports the private module {module}"
        assert module in modules() or module == "cardnet._core", f"the binding names a missing module {module}"
    attributes = {
        name for path in sources.rglob("*.rs") for name in re.findall(r'getattr\("(\w+)"\)', path.read_text("utf-8"))
    }
    assert attributes and not [name for name in attributes if name.startswith("_")], attributes


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=child_env(), timeout=60)


def test_protocol_works_with_trio_blocked() -> None:
    done = run(
        "import sys\n"
        "sys.modules['trio'] = None  # any import of trio now fails\n"
        "import cardnet.protocol, cardnet.protocol.host, cardnet.protocol.peer, cardnet.table, cardnet.journal\n"
        "from cardnet.protocol.peer import PeerSession\n"
        "s = PeerSession(name='x'); s.connection_made()\n"
        "print('ok')\n"
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_protocol_journal_table_and_commands_do_not_import_trio() -> None:
    done = run(
        "import sys\n"
        "import cardnet.protocol, cardnet.journal, cardnet.table, cardnet.commands.net\n"
        "assert 'trio' not in sys.modules, 'trio was imported'\n"
    )
    assert done.returncode == 0, done.stderr
