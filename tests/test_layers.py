"""The house stays layered: no import circle among shengji/'s modules, no import from a
lower layer to a higher one (the layers as docs/architecture.md "Layers" lists them), and
no module over 700 lines. Imports are read from the source (ast), those made inside
functions and under ``if TYPE_CHECKING:`` included. The same layers are import-linter
contracts in pyproject.toml ([tool.importlinter]), which CI runs too: this file holds them
equal to the doc and runs them."""

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "shengji"
MAX_LINES = 700
#: the compiled core: an extension module, not a .py file
COMPILED = {"shengji._core"}


def _modules() -> dict:
    mods = {}
    for path in sorted(PKG.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


MODULES = _modules()
KNOWN = set(MODULES) | COMPILED


def _targets(name: str, path: Path, node) -> list:
    """The shengji modules one import statement names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "shengji"]
    if node.level:
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        full = ".".join(base + ([node.module] if node.module else []))
    elif (node.module or "").split(".")[0] == "shengji":
        full = node.module
    else:
        return []
    # ``from pkg import sub`` imports the submodule ``pkg.sub`` when there is one
    return [f"{full}.{a.name}" if f"{full}.{a.name}" in KNOWN else full for a in node.names]


def _imports(tree) -> list:
    """Every import statement of a module: at the top, inside functions, and under
    ``if TYPE_CHECKING:`` (a circle of annotations is a circle too)."""
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def _graph() -> dict:
    graph = {}
    for name, path in MODULES.items():
        found = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            for t in _targets(name, path, node):
                while t not in KNOWN and "." in t:  # an attribute of a module
                    t = t.rpartition(".")[0]
                if t in KNOWN and t != name:
                    found.add(t)
        graph[name] = found
    return graph


GRAPH = _graph()


def _layers() -> dict:
    """{top-level name: layer index, 0 the lowest} from docs/architecture.md."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1]
    block = section.split("```", 2)[1]
    rows = [line.split(":", 1) for line in block.strip().splitlines()]
    layers = {}
    for index, (_, names) in enumerate(reversed(rows)):
        for n in names.split(","):
            layers[n.strip()] = index
    return layers


LAYERS = _layers()


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_the_layers_are_read_from_the_architecture_doc():
    assert LAYERS["cards"] < LAYERS["core"] < LAYERS["variants"] < LAYERS["engine"] \
        < LAYERS["bots"] < LAYERS["harness"] < LAYERS["frontends"] < LAYERS["commands"]


def test_every_module_has_a_layer():
    missing = sorted({_top(m) for m in KNOWN} - set(LAYERS))
    assert missing == [], f"add these to docs/architecture.md's Layers: {missing}"


def test_no_import_reaches_up_a_layer():
    upward = sorted(f"{m} -> {t}" for m, ts in GRAPH.items() for t in ts
                    if LAYERS[_top(t)] > LAYERS[_top(m)])
    assert upward == []


def _circles(graph: dict) -> list:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                w_edges = graph.get(w, set())
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(w_edges))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    out.append(sorted(group))
    return out


def test_no_import_circle():
    assert _circles(GRAPH) == []


def test_the_circle_finder_finds_a_circle():
    # the check itself can fail: a made-up circle a -> b -> c -> a is found
    fake = {"shengji.a": {"shengji.b"}, "shengji.b": {"shengji.c"},
            "shengji.c": {"shengji.a"}, "shengji.d": {"shengji.a"}}
    assert _circles(fake) == [["shengji.a", "shengji.b", "shengji.c"]]


def test_imports_for_type_checking_and_inside_functions_count():
    tree = ast.parse("from typing import TYPE_CHECKING\n"
                     "if TYPE_CHECKING:\n    from .game import Game\n"
                     "def f():\n    from .view import view_of\n")
    found = {t for node in _imports(tree)
             for t in _targets("shengji.engine.legal", PKG / "engine" / "legal.py", node)}
    assert {"shengji.engine.game", "shengji.engine.view"} <= found


def test_relative_imports_resolve_to_modules():
    assert "shengji.engine.game" in GRAPH["shengji.engine.serial"]
    assert "shengji.engine.serial" not in GRAPH["shengji.engine.game"]
    assert "shengji._core" in GRAPH["shengji.core.clib"]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_size_budget(name):
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{MODULES[name].relative_to(ROOT)}: {lines} lines"


def test_the_doc_names_only_real_modules():
    real = {_top(m) for m in KNOWN}
    assert sorted(set(LAYERS) - real) == []
    assert all(re.fullmatch(r"[a-z_]+", n) for n in LAYERS)


def test_no_circle_among_the_c_files():
    """core_c/: a file that calls another's internal sj__ function depends on it (search.c
    on playout.c, playout.c on greedy.c): no circle either."""
    core_c = ROOT / "core_c"
    files = {p.name: p.read_text(encoding="utf-8") for p in core_c.glob("*.c")}
    defined = {}
    for name, text in files.items():
        for fn in re.findall(r"^\w[\w\s\*]*?\b(sj__\w+)\(", text, re.M):
            defined.setdefault(fn, name)
    graph = {name: {defined[fn] for fn in set(re.findall(r"\b(sj__\w+)\(", text))
                    if fn in defined and defined[fn] != name}
             for name, text in files.items()}
    assert graph["search.c"] >= {"playout.c"} and "greedy.c" in graph["playout.c"]
    assert _circles(graph) == []


def test_moved_harnesses_keep_their_old_names():
    """engine.arena and engine.simulation moved above the bots (shengji.harness); the old
    names still give the same objects, with no import from the engine upward."""
    from shengji.engine.arena import arena
    from shengji.engine.simulation import simulate
    from shengji.harness import arena as new_arena
    from shengji.harness import simulation as new_simulation

    assert arena is new_arena.arena and simulate is new_simulation.simulate
    assert GRAPH["shengji.engine.arena"] == set() == GRAPH["shengji.engine.simulation"]


def _contracts() -> list:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)["tool"]["importlinter"]["contracts"]


def test_the_import_linter_layers_are_the_doc_layers():
    """pyproject.toml's layers contract lists docs/architecture.md's layers, top first
    (the root package ``__init__`` is no layer there; an optional one is in brackets)."""
    (contract,) = [c for c in _contracts() if c["type"] == "layers"]
    assert contract["containers"] == ["shengji"] and contract["exhaustive"] is True
    stated = [{n.strip().strip("()") for n in layer.split(":")} for layer in contract["layers"]]
    doc = {}
    for name, index in LAYERS.items():
        doc.setdefault(index, set()).add(name)
    assert stated == [doc[i] - {"__init__"} for i in sorted(doc, reverse=True)]


def test_the_import_linter_contracts_hold():
    """lint-imports (import-linter: the layers and no circles, type-checking imports
    counted) on this tree; no cache, so nothing is written here."""
    assert {c["type"] for c in _contracts()} >= {"layers", "acyclic_siblings"}
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
         " sys.exit(lint_imports_command())", "--no-cache", "--no-logo"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout
