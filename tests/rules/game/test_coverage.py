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
