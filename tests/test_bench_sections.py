"""python -m bench --only: which benchmark sections run."""

from __future__ import annotations

import pytest

from bench.__main__ import SECTIONS, sections


def test_every_section_runs_by_default() -> None:
    assert sections([]) == list(SECTIONS)
    assert "match" in SECTIONS and "engine" in SECTIONS


def test_only_runs_the_sections_named_in_the_bench_s_order() -> None:
    assert sections(["--only", "match"]) == ["match"]
    assert sections(["--only", "match, engine"]) == ["engine", "match"]


@pytest.mark.parametrize("only", ["nope", "engine,nope", ","])
def test_an_unknown_section_is_refused(only: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        sections(["--only", only])
    assert "choose among" in capsys.readouterr().err
