"""The architecture of docs/architecture.md is import-linter's contracts in pyproject.toml, run
by `make lint`; these tests run the same contracts under pytest and check that they cover the
whole project, so that a new app cannot slip past them."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CONFIG = PYPROJECT["tool"]["importlinter"]
CONTRACTS = {contract["id"]: contract for contract in CONFIG["contracts"]}


def project_apps() -> set[str]:
    """The project's Django apps: top-level folders with an apps.py."""
    return {path.parent.name for path in ROOT.glob("*/apps.py")}


def test_the_import_contracts_hold() -> None:
    # In a process of its own, as `make lint` runs it: in the test process Django's setup has
    # imported Daphne, whose Twisted gives every class a __provides__ that dir() lists but
    # getattr refuses, and import-linter reads its contracts' fields by dir().
    checked = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()",
         "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_app_is_in_the_layers() -> None:
    layered = {name.strip() for layer in CONTRACTS["layers"]["layers"] for name in layer.split("|")}
    assert project_apps() <= layered
    assert project_apps() | {"config", "rules"} <= set(CONFIG["root_packages"])


def test_every_package_is_checked_for_import_circles() -> None:
    assert set(CONFIG["root_packages"]) == set(CONTRACTS["acyclic"]["ancestors"])
    assert set(CONFIG["root_packages"]) == set(CONTRACTS["one-rng"]["source_modules"])


def test_no_module_of_decks_stands_for_a_folder() -> None:
    prefixed = [path.name for path in (ROOT / "decks").rglob("*.py")
                if path.name.split("_")[0] in {"goldfish", "playtest", "collection", "matchup",
                                               "matchups", "edit", "edits"}]
    assert prefixed == []


def test_vulture_finds_no_dead_code() -> None:
    # make lint's dead-code check ([tool.vulture]; what only looks unused is in
    # deadcode_whitelist.py, each group with who calls it).
    found = subprocess.run([sys.executable, "-m", "vulture"], cwd=ROOT, capture_output=True,
                           text=True, check=False)
    assert found.stdout == "" and found.returncode == 0


def test_every_package_is_checked_for_dead_code() -> None:
    assert set(CONFIG["root_packages"]) <= set(PYPROJECT["tool"]["vulture"]["paths"])
