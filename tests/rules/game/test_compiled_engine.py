"""The engine compiled with mypyc (make install) plays exactly the games of its Python source."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules import compiled

ROOT = Path(__file__).resolve().parents[3]
# Games of one sample deck with each policy, and one whole recorded game, as JSON.
PLAY = """
import json, sys
from rules import compiled
from rules.game import engine
from rules.game.runner import RunSpec, play_game, run_chunk
from tests.rules.game.engine_helpers import catalogue, sample

prepared = engine.prepare(sample(sys.argv[1]), catalogue())
out = {"engine": compiled.running()}
for policy in ("greedy", "random"):
    spec = RunSpec(40, 11, policy)
    out[policy] = run_chunk(prepared, spec, 1, 40).to_dict()
    out[policy + "_log"] = engine.game_log(play_game(prepared, spec, 17, record=True))
print(json.dumps(out, sort_keys=True))
"""


def play(deck: str, engine: str) -> dict[str, Any]:
    env = {**os.environ, "ALLEGIANCE_ENGINE": engine}
    done = subprocess.run([sys.executable, "-c", PLAY, deck], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=300)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_ci_runs_the_compiled_engine_built_from_the_current_sources() -> None:
    if not os.environ.get("CI") and not compiled.built():
        pytest.skip("no compiled build here (make install makes one)")
    assert compiled.built(), "make install did not compile the engine"
    assert compiled.STAMP.read_text("ascii").strip() == compiled.sources_digest(), (
        "the compiled engine is older than its sources: make install compiles them again")
    assert compiled.running() == "compiled"


@pytest.mark.parametrize("deck", ["kalim-faithful.txt", "mosfin-blades.txt"])
def test_the_compiled_engine_plays_the_same_games_as_the_python_source(deck: str) -> None:
    if not compiled.built():
        pytest.skip("no compiled build here (make install makes one)")
    python = play(deck, "python")
    fast = play(deck, "")
    assert (python.pop("engine"), fast.pop("engine")) == ("python", "compiled")
    assert fast == python


def test_a_source_finder_reads_only_the_engine_modules_from_their_sources() -> None:
    finder = compiled._SourceFinder()
    spec = finder.find_spec("rules.game.engine", None)
    assert spec is not None and spec.origin == str(ROOT / "rules" / "game" / "engine.py")
    assert finder.find_spec("rules.game.narrate", None) is None
    assert finder.find_spec("decks.services", None) is None


class _FakeBuild:
    """Stands for rules.build_engine._Build: records each compilation's flags, and fails the
    ones that carry a flag of ``fails``."""

    def __init__(self, fails: tuple[str, ...] = ()) -> None:
        self.fails = fails
        self.flags: list[list[str]] = []

    def compile(self, flags: list[str], link: list[str]) -> bool:
        self.flags.append(flags)
        return not any(flag in self.fails for flag in flags)


@pytest.fixture
def build_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from rules import build_engine

    # The stamp and the counts go to a scratch folder: the real build stays as it is.
    monkeypatch.setattr(compiled, "STAMP", tmp_path / "stamp")
    monkeypatch.setattr(build_engine, "TARGET", str(tmp_path))
    return build_engine


def test_the_profile_build_failing_leaves_the_build_without_a_profile(build_engine: Any) -> None:
    build = _FakeBuild(fails=("-fprofile-generate",))
    assert build_engine._profile(build, "digest") is False
    assert len(build.flags) == 1 and not compiled.STAMP.exists()


def test_the_training_games_failing_leaves_the_build_without_a_profile(
        build_engine: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build_engine, "TRAINING", ["-c", "raise SystemExit(3)"])
    build = _FakeBuild()
    assert build_engine._profile(build, "digest") is False
    assert "-fprofile-generate" in build.flags[0]
    assert not compiled.STAMP.exists(), "the training's stamp is taken away again"


def test_the_training_runs_the_instrumented_build_and_its_counts_are_used(
        build_engine: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The training sees the stamp (so the compiled build loads) and the compiled engine asked
    # for, whatever the build itself runs with; it leaves counts behind.
    monkeypatch.setenv("ALLEGIANCE_ENGINE", "python")
    check = ("import os, pathlib, sys; s = pathlib.Path(sys.argv[1]);"
             "assert s.read_text().strip() == 'digest';"
             "assert 'ALLEGIANCE_ENGINE' not in os.environ;"
             "t = pathlib.Path(sys.argv[2], 'temp'); t.mkdir(); (t / 'a.gcda').touch()")
    monkeypatch.setattr(build_engine, "TRAINING",
                        ["-c", check, str(compiled.STAMP), str(tmp_path)])
    assert build_engine._profile(_FakeBuild(), "digest") is True
    assert not compiled.STAMP.exists()
