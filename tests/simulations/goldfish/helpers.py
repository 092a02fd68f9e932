"""What the goldfish service tests share: a sample deck, a run started and played by a worker
in the test's own transaction, and the command's report to compare with."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from decks.deck_input import deck_from_text
from rules.decklist import Decklist
from simulations.games import goldfish_report
from simulations.models import SimulationRun
from simulations.runs import RunOptions, goldfish_run_start
from simulations.tasks import simulation_run_work
from tests.conftest import FIXTURES

SAMPLE = FIXTURES / "decklists" / "kalim-faithful.txt"
TEXT = SAMPLE.read_text(encoding="utf-8")
OTHER_TEXT = (FIXTURES / "decklists" / "guild-veterans.txt").read_text(encoding="utf-8")


def sample_deck(text: str = TEXT) -> Decklist:
    return deck_from_text(text)


class Clock:
    """A clock the test moves by hand: time passes only when the test says so."""

    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def start(options: RunOptions, *, text: str = TEXT, user: Any = None,
          requester: str = "anon:test", **kwargs: Any) -> tuple[SimulationRun, bool]:
    return goldfish_run_start(deck=sample_deck(text), options=options, user=user,
                              requester=requester, **kwargs)


def work(run: SimulationRun, worker: str = "worker-1", **kwargs: Any) -> SimulationRun:
    simulation_run_work(run_id=run.pk, worker=worker, **kwargs)
    run.refresh_from_db()
    return run


def command_report_json(options: RunOptions, text: str = TEXT) -> str:
    """The report of the goldfish command for the same deck and options, as JSON text."""
    report = goldfish_report(sample_deck(text), options.spec(), options.config())
    return json.dumps(report, ensure_ascii=False)
