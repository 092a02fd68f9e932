"""Goldfish progress in games and time left; two runs of one requester played at once; the
compare page's overlaid distributions, per-card differences and verdicts that say better or
worse."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from simulations.charts import compare_histogram
from simulations.models import SimulationChunk, SimulationRun
from simulations.runs import RunOptions, run_progress
from simulations.stats import card_differences
from tests.simulations.goldfish.helpers import OTHER_TEXT, start, work

pytestmark = pytest.mark.django_db


def test_progress_counts_games_and_the_time_left(settings: Any) -> None:
    settings.GOLDFISH_CHUNK_GAMES = 10
    run, _ = start(RunOptions(games=35, seed=1))
    assert run_progress(run).games_done == 0 and run_progress(run).time_left == ""
    chunks = list(run.chunks.order_by("index"))
    SimulationChunk.objects.filter(pk__in=[c.pk for c in chunks[:2]]).update(
        status=SimulationChunk.DONE)
    run.started_at = run.created_at
    run.save(update_fields=["started_at"])
    progress = run_progress(run, now=run.created_at + timedelta(seconds=20))
    assert (progress.games_done, progress.games, progress.percent) == (20, 35, 57)
    assert progress.seconds_left == 15 and progress.time_left == "about 15 s"


@pytest.mark.parametrize(("seconds", "said"), [(None, ""), (0, "about 1 s"), (59, "about 59 s"),
                                               (61, "about 1 min"), (600, "about 10 min")])
def test_the_time_left_reads_plainly(seconds: int | None, said: str) -> None:
    from simulations.runs import Progress

    assert Progress(1, 2, seconds).time_left == said


def test_the_report_page_says_games_of_n_while_it_plays(client: Client, settings: Any) -> None:
    settings.GOLDFISH_CHUNK_GAMES = 10
    run, _ = start(RunOptions(games=30, seed=1))
    page = client.get(f"/goldfish/{run.pk}/").content.decode()
    assert "<strong>0 of 30 games</strong> played (0%)" in page


def test_two_runs_of_one_requester_are_played_in_turn(settings: Any) -> None:
    settings.GOLDFISH_CHUNK_GAMES = 10
    a, _ = start(RunOptions(games=30, seed=1), requester="user:compare")
    b, _ = start(RunOptions(games=30, seed=1), text=OTHER_TEXT, requester="user:compare")
    leased: list[str] = []
    work(a, on_leased=lambda chunk: leased.append("a" if chunk.run_id == a.pk else "b"))
    assert leased == ["a", "b", "a", "b", "a", "b"]  # one worker, both runs at once
    assert SimulationRun.objects.get(pk=b.pk).status == SimulationRun.DONE
    assert SimulationRun.objects.get(pk=a.pk).status == SimulationRun.DONE


def report(histogram: dict[str, int], games: int, cards: dict[str, Any]) -> dict[str, Any]:
    return {"games": games, "victory_round": {"histogram": histogram}, "cards": cards}


def test_the_distributions_are_overlaid_per_thousand_games() -> None:
    chart = compare_histogram(report({"4": 10, "6": 30}, 100, {}),
                              report({"5": 200}, 1000, {}))
    assert chart.categories == ("4", "5", "6")
    assert [s.values for s in chart.series] == [(100, 0, 300), (0, 200, 0)]


def test_the_cards_that_changed_their_part_come_first() -> None:
    card = {"name": "X", "played": 0.5, "victory_round_difference": -0.3}
    a = report({}, 10, {"x": card, "same": {**card, "name": "Same"},
                        "gone": {**card, "name": "Gone"}, "more": {**card, "name": "More"}})
    b = report({}, 10, {"x": {**card, "played": 0.2}, "same": {**card, "name": "Same"},
                        "new": {**card, "name": "New"}, "more": {**card, "name": "More",
                                                             "played": 0.9}})
    rows = card_differences(a, b)
    assert [r.name for r in rows] == ["Gone", "New", "More", "X"]  # "Same" did not change
    assert rows[0].played_b is None and rows[1].played_a is None
    assert round(rows[2].played_change, 2) == 0.4


def test_the_compare_page_says_which_is_better(client: Client) -> None:
    a = work(start(RunOptions(games=200, seed=1))[0])
    b = work(start(RunOptions(games=200, seed=1), text=OTHER_TEXT)[0])
    page = client.get(f"/goldfish/compare/?a={a.pk}&b={b.pk}").content.decode()
    assert "Victory rounds, A against B" in page and "Cards that changed their part" in page
    assert "verdict-real" not in page  # a colour that says better or worse, not only "real"
    verdicts = [v for v in ("B wins more often", "B wins less often", "B wins sooner",
                            "B wins later", "within noise") if v in page]
    assert verdicts, "a verdict"
    if "B wins less often" in page or "B wins later" in page:
        assert "verdict-worse" in page
