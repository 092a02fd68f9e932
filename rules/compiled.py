"""The rules engine, compiled or not: the same source either way.

`make install` compiles the engine's modules with mypyc (``python -m rules.build_engine``) into
C extensions beside their sources, about three times faster, with the same games to the byte.
Python imports an extension before a source of the same name, so an edit made after the build
would be silently shadowed by the old build. To prevent that, the build writes a digest of the
sources it compiled (the stamp); when the sources no longer match it, or when
``ALLEGIANCE_ENGINE=python`` asks for it, :func:`prefer_sources` makes the imports of these
modules read the sources. Pure Python: no Django, nothing outside the standard library.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
# Every module a game runs through (narrate.py only words logs, so it stays interpreted).
MODULES = (
    "rules.rng",
    "rules.game.actions",
    "rules.game.battle_effects",
    "rules.game.combat",
    "rules.game.config",
    "rules.game.effects",
    "rules.game.engine",
    "rules.game.lookahead",
    "rules.game.matchup",
    "rules.game.phase_effects",
    "rules.game.table_policy",
    "rules.game.policies",
    "rules.game.profile",
    "rules.game.reactions",
    "rules.game.report",
    "rules.game.rivalry",
    "rules.game.rulings",
    "rules.game.runner",
    "rules.game.seats",
    "rules.game.state",
    "rules.game.static_effects",
)
# The shared library mypyc puts the compiled code of every module in (the modules themselves
# become small shims that load it).
GROUP = "rules.game._compiled"
STAMP = PACKAGE_DIR / "game" / "_compiled.sha256"


def source_path(module: str) -> Path:
    return PACKAGE_DIR.parent.joinpath(*module.split(".")).with_suffix(".py")


def sources_digest() -> str:
    digest = hashlib.sha256()
    for module in MODULES:
        digest.update(module.encode() + b"\0" + source_path(module).read_bytes() + b"\0")
    return digest.hexdigest()


def built() -> bool:
    """Whether a compiled build sits beside the sources (current or not)."""
    return any(
        source_path(MODULES[0]).with_suffix(suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def running() -> str:
    """"compiled" when the engine that runs is the compiled one, else "python"."""
    import rules.game.engine

    return "python" if (rules.game.engine.__file__ or "").endswith(".py") else "compiled"


class _SourceFinder:
    """Finds the engine's modules as their .py sources, ignoring any compiled build."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def prefer_sources() -> None:
    """Read the sources instead of a build that is stale (with a warning) or not wanted."""
    if not built() or any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        return
    wanted = os.environ.get("ALLEGIANCE_ENGINE", "") != "python"
    stamp = STAMP.read_text("ascii").strip() if STAMP.exists() else ""
    if wanted and stamp == sources_digest():
        return
    if wanted:
        warnings.warn("The compiled rules engine is older than its sources, so the sources "
                      "run (about 3x slower). `make install` compiles them again.",
                      RuntimeWarning, stacklevel=2)
    sys.meta_path.insert(0, _SourceFinder())
