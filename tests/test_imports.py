"""The layers, enforced: every module has an explicit layer and imports only from its own and the layers below;
no module imports another back, nor one package another (ARCHITECTURE.md); each third-party package is imported
only where its layer allows; no module reaches for another package's private names, cardnet's or a library's;
``protocol/`` works with trio blocked; ``import cardnet`` stays free of the network; the benchmarks' scripts
import no one another back."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import cardnet

from nethelpers import child_env

PACKAGE = Path(cardnet.__file__).resolve().parent
#: The repository (bench/, rust/): beside this file, not beside the package, which CI imports from a venv.
ROOT = Path(__file__).resolve().parent.parent

#: Layers, lowest first; each module may import only from its own layer and the layers below. An entry is a
#: module's exact name, or ``package.*`` for a package and everything in it; every module must match one.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("cardnet._core.*",)),
    (
        "api",
        (
            "cardnet",
            "cardnet.errors",
            "cardnet.games",
            "cardnet.ai",
            "cardnet.segments",
            "cardnet.arena",
            "cardnet.rating",
            "cardnet.rulebook",
            "cardnet.i18n",
            "cardnet.refusals",
            "cardnet.game_words",
            "cardnet.native",
        ),
    ),
    ("rl", ("cardnet.rl.*",)),
    ("protocol", ("cardnet.codec", "cardnet.table", "cardnet.journal", "cardnet.identity", "cardnet.protocol.*")),
    ("net", ("cardnet.net.*", "cardnet.bot")),
    ("ui", ("cardnet.ui.*",)),
    ("cli", ("cardnet.cli", "cardnet.argparse_words", "cardnet.commands.*", "cardnet.__main__")),
]

#: Every third-party package the package imports, and the modules (entries as in LAYERS) that may import it.
THIRD_PARTY: dict[str, tuple[str, ...]] = {
    # The network: the trio layer and what runs it (the clients, local play, the command line).
    "trio": ("cardnet.net.*", "cardnet.bot", "cardnet.ui.*", "cardnet.commands.*"),
    "outcome": ("cardnet.ui.app.*",),
    "zeroconf": ("cardnet.net.*",),
    "ifaddr": ("cardnet.net.*",),
    "prompt_toolkit": ("cardnet.ui.app.*",),
    "numpy": ("cardnet.rl.*",),
    "gymnasium": ("cardnet.rl.*",),
    "pettingzoo": ("cardnet.rl.*",),
    "pyspiel": ("cardnet.rl.*",),
    "ray": ("cardnet.arena",),
    # The rules and the help as formatted text, for the full-screen client and `cardnet rules`.
    "markdown_it": ("cardnet.ui.markdown",),
    "wcwidth": ("cardnet.ui.markdown",),
}


def module_name(path: Path) -> str:
    parts = ["cardnet", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def matches(module: str, entry: str) -> bool:
    """Whether ``module`` is the module an entry of LAYERS or THIRD_PARTY names (``pkg.*``: pkg or below it)."""
    if entry.endswith(".*"):
        package = entry[:-2]
        return module == package or module.startswith(package + ".")
    return module == entry


def layer_of(module: str) -> int:
    found = [
        (len(entry), rank) for rank, (_, entries) in enumerate(LAYERS) for entry in entries if matches(module, entry)
    ]
    assert found, f"{module} belongs to no layer: add it to LAYERS"
    return max(found)[1]


def package_of(module: str, known: dict[str, Path]) -> str:
    """The package a module belongs to for the package graph: its own package, or itself for a module directly
    in ``cardnet`` (each of those is a unit of its own)."""
    path = known.get(module)
    if path is not None and path.name == "__init__.py":
        return module
    parent = module.rsplit(".", 1)[0]
    return module if parent == "cardnet" else parent


def modules() -> dict[str, Path]:
    found = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    assert "cardnet.protocol.host" in found and "cardnet.net.host" in found
    return found


def trees() -> dict[str, ast.Module]:
    return {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in modules().items()}


def imports_of(name: str, path: Path, tree: ast.Module, known: set[str]) -> list[tuple[str, str]]:
    """(imported cardnet module, imported name or "") for every import statement, lazy ones included."""
    is_package = path.name == "__init__.py"
    found: list[tuple[str, str]] = []
    for node in ast.walk(tree):
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
    parsed = trees()
    return {name: imports_of(name, path, parsed[name], known) for name, path in found.items()}


def cycles_of(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk of ``edges`` meets (empty when the graph has none)."""
    state: dict[str, int] = {}
    found: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                found.append(path[path.index(nxt) :] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    return found


def test_every_module_has_an_explicit_layer() -> None:
    for name in modules():
        layer_of(name)
    # No entry stands for the whole package: a new module must be placed on purpose.
    assert not [e for _, entries in LAYERS for e in entries if e in ("cardnet.*", "*")]


def test_a_module_in_no_layer_is_reported() -> None:
    try:
        layer_of("cardnet.somewhere_new")
    except AssertionError as exc:
        assert "belongs to no layer" in str(exc)
    else:
        raise AssertionError("an unlisted module got a layer")


def test_every_import_points_down_the_layers() -> None:
    wrong = [
        f"{name} ({LAYERS[layer_of(name)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for name, edges in graph().items()
        for target, _ in edges
        if layer_of(target) > layer_of(name)
    ]
    assert wrong == []


def test_the_rl_layer_is_not_needed_below_it_nor_by_the_network() -> None:
    """rl sits beside the protocol: only the API is below it, and nothing but rl itself imports it."""
    rl = layer_of("cardnet.rl")
    wrong = [
        f"{name} imports {target}"
        for name, edges in graph().items()
        for target, _ in edges
        if layer_of(target) == rl and layer_of(name) != rl
    ]
    assert wrong == []


def test_third_party_packages_are_imported_only_where_their_layer_allows() -> None:
    stdlib = sys.stdlib_module_names
    wrong = []
    for name, tree in trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                tops = [node.module.split(".")[0]]
            else:
                continue
            for top in tops:
                if top in stdlib or top in ("cardnet", "__future__"):
                    continue
                allowed = THIRD_PARTY.get(top)
                if allowed is None:
                    wrong.append(f"{name} imports {top}, which THIRD_PARTY does not list")
                elif not any(matches(name, entry) for entry in allowed):
                    wrong.append(f"{name} imports {top}, allowed only in {', '.join(allowed)}")
    assert wrong == []


def test_no_private_imports_across_packages() -> None:
    """Above the API and rl (the core's typed faces), nothing reaches into the extension or another package's
    private names."""
    faces = layer_of("cardnet.rl")
    wrong = []
    for name, edges in graph().items():
        if layer_of(name) <= faces:
            continue
        for target, imported in edges:
            same_package = target.rsplit(".", 1)[0] == name.rsplit(".", 1)[0]
            if target == "cardnet._core" or (imported.startswith("_") and not same_package):
                wrong.append(f"{name} imports {target} {imported}".strip())
    assert wrong == []


def private_attributes(tree: ast.Module) -> list[str]:
    """``module._name`` for every imported module (a library's or cardnet's) whose private attribute the code
    reads (dunders aside): another package's internals."""
    aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in aliases:
                found.append(ast.unparse(node))
    return found


def test_no_module_reads_another_packages_private_attributes() -> None:
    wrong = {name: found for name, tree in trees().items() if (found := private_attributes(tree))}
    assert wrong == {}


def test_the_private_attribute_check_sees_a_librarys_internals() -> None:
    tree = ast.parse("import trio\nfd = trio._core._run.GLOBAL_RUN_CONTEXT.runner\nok = trio.__name__\n")
    assert private_attributes(tree) == ["trio._core._run", "trio._core"]


def test_the_import_graph_has_no_cycles() -> None:
    edges = {name: {t for t, _ in targets if t != name} for name, targets in graph().items()}
    assert cycles_of(edges) == []


def test_no_two_packages_import_each_other() -> None:
    """Packages (and the modules directly in ``cardnet``) form no cycle either: a package that needs another
    which needs it back is one package, or one of them holds a part that belongs below both."""
    known = modules()
    edges: dict[str, set[str]] = {}
    for name, targets in graph().items():
        unit = package_of(name, known)
        for target, _ in targets:
            other = package_of(target, known)
            # A package's modules may import its own __init__ and the other way round.
            if other != unit and not unit.startswith(other + ".") and not other.startswith(unit + "."):
                edges.setdefault(unit, set()).add(other)
    assert cycles_of(edges) == []


def test_the_cycle_check_sees_a_cycle() -> None:
    assert cycles_of({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles_of({"a": {"b"}, "b": set()}) == []


def test_no_two_benchmarks_import_each_other() -> None:
    """bench/ scripts share code through modules of their own (bench/placement.py), never through each other."""
    scripts = {path.stem: path for path in (ROOT / "bench").glob("*.py")}
    assert "net_rtt" in scripts and "placement" in scripts, sorted(scripts)
    edges: dict[str, set[str]] = {}
    for name, path in scripts.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.setdefault(name, set()).update(a.name for a in node.names if a.name in scripts)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module in scripts:
                edges.setdefault(name, set()).add(node.module)
    assert cycles_of(edges) == []


def test_the_binding_crate_never_imports_the_python_package() -> None:
    """The extension names only itself (its classes' module, a pickle's loader): cardnet's exceptions and outcomes
    are handed to it (``_core.bind_python``), never imported, and it reads no private attribute."""
    sources = Path(__file__).resolve().parent.parent / "rust" / "py" / "src"
    texts = {path: re.sub(r"//[^\n]*", "", path.read_text(encoding="utf-8")) for path in sources.rglob("*.rs")}
    named = {m for text in texts.values() for m in re.findall(r'"(cardnet(?:\.\w+)*)"', text)}
    assert {"cardnet._core", "cardnet._core.host"} <= named, named
    assert [m for m in named if not matches(m, "cardnet._core.*")] == []
    imported = {m for text in texts.values() for m in re.findall(r'import\("([\w.]+)"\)', text)}
    # Besides itself, only the standard library: sys (registering the host submodule) and json (its C decoder
    # turns the core's written lists and views into Python objects).
    assert imported <= {"cardnet._core", "sys", "json"}, imported
    attributes = {name for text in texts.values() for name in re.findall(r'getattr\("(\w+)"\)', text)}
    assert attributes and not [name for name in attributes if name.startswith("_")], attributes


def test_cardnet_hands_the_binding_its_exceptions_and_outcomes() -> None:
    done = run(
        "import cardnet\n"
        "try:\n"
        "    cardnet.new_game('no such game')\n"
        "except cardnet.UnknownGame:\n"
        "    pass\n"
        "game = cardnet.new_game('fistful', seed=1)\n"
        "while not game.is_over():\n"
        "    seat = game.to_act()[0]\n"
        "    game.apply_index(seat, 0)\n"
        "assert isinstance(game.outcome(), cardnet.Outcome)\n"
        "print('ok')\n"
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


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


def rust_module_uses(sources: Path) -> dict[str, set[str]]:
    """For every module of a crate (``a::b`` for src/a/b.rs or src/a/b/mod.rs; ``crate`` for lib.rs), the other
    modules whose items it names (``crate::a::b``, ``super::x``; a parent's own children through ``mod`` and
    bare paths are not uses back)."""
    names: dict[Path, str] = {}
    for path in sources.rglob("*.rs"):
        parts = list(path.relative_to(sources).with_suffix("").parts)
        if parts[-1] in ("mod", "lib", "main"):
            parts = parts[:-1]
        names[path] = "::".join(parts) or "crate"
    known = set(names.values())

    def resolve(path: str) -> str | None:
        parts = path.split("::")
        for end in range(len(parts), 0, -1):
            candidate = "::".join(parts[:end])
            if candidate in known:
                return candidate
        return None

    uses: dict[str, set[str]] = {}
    for path, module in names.items():
        # Comments name modules without using them.
        text = re.sub(r"//[^\n]*", "", path.read_text(encoding="utf-8"))
        parent = module.rsplit("::", 1)[0] if "::" in module else ""
        found: set[str] = set()
        for kind, rest in re.findall(r"\b(crate|super)::((?:\w+::)*\w+)", text):
            base = rest if kind == "crate" else (f"{parent}::{rest}" if parent else rest)
            target = resolve(base)
            if target is None and kind == "crate":
                target = "crate"
            if target is not None and target != module:
                found.add(target)
        uses[module] = found
    return uses


def test_no_two_rust_modules_of_the_binding_use_each_other() -> None:
    """The binding's modules form no cycle (once `game.rs` and `lane.rs` used each other); `host` uses `game`
    and never the reverse."""
    uses = rust_module_uses(ROOT / "rust" / "py" / "src")
    assert "host::lane" in uses and "game" in uses["host::lane"]
    assert not [m for m in uses["game"] if m.startswith("host")], uses["game"]
    assert cycles_of(uses) == []
