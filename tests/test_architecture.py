"""The boundaries of DESIGN §2, checked on the source: pure packages stay pure."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = ("config", "cards", "decks", "rules", "bench")
PURE_MODULES = (
    "rules",
    "cards/search/fields.py",
    "cards/search/parser.py",
    "cards/search/explain.py",
    "decks/formats",
    "decks/allocation.py",
    "decks/goldfish_stats.py",
    "decks/goldfish_charts.py",
    "decks/goldfish_layout.py",
    "decks/playtest_play.py",
    "decks/playtest_table.py",
    "decks/playtest_hints.py",
    "cards/images",
    "cards/card_data.py",
    "cards/public_data.py",
)
OTHER_APPS = ("cards", "decks", "config")


def python_files(*parts: str) -> list[Path]:
    files: list[Path] = []
    for part in parts:
        path = ROOT / part
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files.extend(sorted(path.rglob("*.py")))
    return files


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def top(module: str) -> str:
    return module.split(".")[0]


@pytest.mark.parametrize("path", python_files("rules"), ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_imports_no_django_and_no_other_app(path: Path) -> None:
    bad = {m for m in imported_modules(path) if top(m) in ("django", "rest_framework", *OTHER_APPS)}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize(
    "path", python_files(*PURE_MODULES), ids=lambda p: str(p.relative_to(ROOT))
)
def test_pure_modules_import_no_django(path: Path) -> None:
    bad = {m for m in imported_modules(path) if top(m) in ("django", "rest_framework")}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_only_rules_rng_imports_random() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in python_files(*PROJECT_PACKAGES)
        if "random" in {top(m) for m in imported_modules(path)}
        and path != ROOT / "rules" / "rng.py"
    ]
    assert offenders == []


def test_the_architecture_checks_see_the_packages() -> None:
    # Guards the guards: an empty file list would make the tests above pass vacuously.
    assert len(python_files("rules")) >= 3
    assert len(python_files(*PROJECT_PACKAGES)) >= 20


def rules_imports() -> dict[str, set[str]]:
    """Each module of rules/ and the modules of rules/ it imports: at the top, inside functions
    and for type checking alike (a cycle hidden in a function is a cycle all the same)."""
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
               for p in python_files("rules")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # "from rules.game import combat" imports the module rules.game.combat.
                submodules = {f"{node.module}.{alias.name}" for alias in node.names}
                found.update(submodules & modules.keys() or {node.module})
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def import_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` (its first module repeated at the end), or [] when it has none."""
    finished: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return [*path[path.index(module):], module]
        if module in finished:
            return []
        for imported in sorted(graph[module]):
            cycle = visit(imported, [*path, module])
            if cycle:
                return cycle
        finished.add(module)
        return []

    for module in sorted(graph):
        cycle = visit(module, [])
        if cycle:
            return cycle
    return []


def test_the_rules_modules_import_one_way() -> None:
    graph = rules_imports()
    assert {"rules.game.combat", "rules.game.rulings"} <= graph["rules.game.engine"]
    assert import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    cycle = import_cycle(graph)
    assert not cycle, "import cycle: " + " -> ".join(cycle)
