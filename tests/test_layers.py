"""The package's layers: no import cycle at run time and no lower layer importing a higher one.

Layers, lowest first: ``core`` (and the package's own helpers ``_native``, ``_extras``,
``_version``) < ``games`` and ``agents`` < ``sim`` < ``server``, ``cli`` and ``rl``. Registries
are filled by declaration (``declare_game_package``, ``Game.agents``, ``Game.bench``, entry
points), so no lower layer needs to name a higher one. Every ``import`` counts, also one inside
a function (it runs when called); only imports under ``if TYPE_CHECKING:`` (annotations) are
left out. The package root ``nightsky/__init__.py`` is the composition root and may import
anything.
"""

from __future__ import annotations

import ast
from pathlib import Path

import nightsky

SRC = Path(nightsky.__file__).resolve().parent
LAYERS = {
    "core": 0, "_native": 0, "_extras": 0, "_version": 0,
    "games": 1, "agents": 1,
    "sim": 2,
    "server": 3, "cli": 3, "rl": 3, "__main__": 3,
}


def _module_name(path: Path) -> str:
    parts = ["nightsky", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, module: str, modules: set[str]) -> set[str]:
    """The nightsky modules ``module`` imports at run time (each resolved to a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for a in node.names:
                sub = f"{base}.{a.name}"
                found.add(sub if sub in modules else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {m for m in found if m in modules}


def _graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in SRC.rglob("*.py")}
    names = set(paths)
    return {m: _imports(p, m, names) - {m} for m, p in paths.items()}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def test_no_lower_layer_imports_a_higher_one() -> None:
    bad = []
    for module, deps in sorted(_graph().items()):
        mine = _layer(module)
        if mine is None:
            continue
        for dep in sorted(deps):
            theirs = _layer(dep)
            if dep == "nightsky" or (theirs is not None and theirs > mine):
                bad.append(f"{module} -> {dep}")
    assert not bad, "imports from a lower layer to a higher one:\n" + "\n".join(bad)


def test_no_import_cycle_at_run_time() -> None:
    graph = _graph()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(m: str) -> None:
        state[m] = 1
        path.append(m)
        for dep in sorted(graph[m]):
            # A package imports its own submodules (re-exports): not a cycle of layers.
            if state.get(dep) == 1 and not m.startswith(dep + "."):
                cycles.append([*path[path.index(dep):], dep])
            elif dep not in state:
                walk(dep)
        path.pop()
        state[m] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module)
    assert not cycles, "run-time import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_every_package_is_in_a_layer() -> None:
    subpackages = {p.name for p in SRC.iterdir() if (p / "__init__.py").exists()}
    modules = {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    assert subpackages | modules <= set(LAYERS) | {"web"}, "name the new part's layer in LAYERS"


def test_registries_are_filled_by_declaration() -> None:
    """``core`` never names the games package, and no module reaches into another's registry
    through ``sys.modules`` (games, agents and bench figures are declared where they live)."""
    for path in (SRC / "core").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = [
            n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and n.value.startswith("nightsky.games.")
        ]
        assert not named, f"core/{path.name} names game modules: {named}"
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert 'sys.modules.get("nightsky.' not in text, f"{path} writes into another module"
