"""rules/COVERAGE.md names a test for every rule it calls implemented: each of them exists.

The test ids are collected by pytest itself (parametrized ids included), in a subprocess that
only collects, so a renamed test or a dropped parameter makes the row false and this fail.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
COVERAGE = ROOT / "rules" / "COVERAGE.md"
NAMED = re.compile(r"`(tests/[\w/]+\.py(?:::[^`\s]+)?)`")


def named_tests() -> set[str]:
    return set(NAMED.findall(COVERAGE.read_text("utf-8")))


def collected(files: set[str]) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:django",
         "-p", "no:xdist", "-p", "no:cacheprovider", *sorted(files)],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=300)
    return {line.strip() for line in done.stdout.splitlines() if "::" in line}


def test_every_test_coverage_names_exists() -> None:
    named = named_tests()
    assert len(named) > 150
    files = {name.split("::")[0] for name in named}
    found = collected(files)
    functions = {node.split("[")[0] for node in found}
    missing = sorted(n for n in named if "::" in n and n not in found and n not in functions)
    assert missing == []
    assert all((ROOT / f).is_file() for f in files)


CODE = re.compile(r"`((?:rules\.)?[A-Za-z_]+(?:\.[A-Za-z_]+)+)`")
GAME = ROOT / "rules" / "game"


def _defining_file(name: str) -> Path | None:
    """The engine module ``name``, or the engine module that defines the class ``name``."""
    module = GAME / f"{name}.py"
    if module.is_file():
        return module
    for source in sorted(GAME.glob("*.py")):
        if re.search(rf"^class {name}\b", source.read_text("utf-8"), re.MULTILINE):
            return source
    return None


def test_every_piece_of_code_coverage_names_is_still_there() -> None:
    # A row that says where a rule lives (`engine._favour`, `GameConfig.city_pool`,
    # `rules.deck_rules.holdings_problems`) goes stale when the code is renamed or folded
    # into another function: each name must still stand in the module it names.
    stale = []
    for reference in sorted(set(CODE.findall(COVERAGE.read_text("utf-8")))):
        parts = reference.split(".")
        if parts[0] == "rules":
            source: Path | None = ROOT.joinpath(*parts[:2]).with_suffix(".py")
            names = parts[2:]
        else:
            source, names = _defining_file(parts[0]), parts[1:]
        if source is None or not source.is_file():
            stale.append(reference)
            continue
        text = source.read_text("utf-8")
        if not all(re.search(rf"(?<![\w.]){re.escape(n)}\b|\.{re.escape(n)}\b", text)
                   for n in names):
            stale.append(reference)
    assert stale == []
