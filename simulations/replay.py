"""A sample game of a matchup run replayed round by round, every seat's table laid out.

Nothing of a game is stored: game ``n`` of a pairing is reproducible from the run's decks (as
stored), seed and ``n`` (rules.game.matchup), so the page plays it again with the story on and
lays the seats out at the step asked for with the playtest's table (playtest.table, pure; the
import is allowed for this module alone in pyproject.toml's import-linter contract).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cards.card_urls import card_image_urls, card_url
from cards.models import CardImage
from playtest.table import Links, table_layout
from rules.game import seats
from rules.game.matchup import play_matchup_game, seating
from rules.game.seats import Table
from simulations.models import SimulationRun
from simulations.plays import run_config, stored_decks, table_spec

#: The games of each pairing the report offers to replay (any game of the run can be).
SAMPLE_GAMES = 3
END = "end"


def sample_numbers(run: SimulationRun) -> list[int]:
    return list(range(1, min(SAMPLE_GAMES, run.games) + 1))


@dataclass
class ReplayedStep:
    """The seats of game ``number`` at the start of ``round`` (or at the end), and the story of
    that round."""

    number: int
    step: int | str  # a round, or END
    seat_names: list[str]
    outcome: str = ""
    winner: str | None = None
    final_round: int = 0
    steps: list[int | str] = field(default_factory=list)  # every step there is, in order
    lead: int = -1  # the lead player's seat (0-based) at that moment
    seats: list[dict[str, Any]] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    told: int = 0  # the round whose story ``lines`` tells


def card_links(card_ids: Iterable[str]) -> Links:
    hashes = dict(CardImage.objects.filter(card_id__in=list(card_ids))
                  .values_list("card_id", "source_hash"))
    return Links(image=lambda cid: card_image_urls(cid, hashes.get(cid))["small"],
                 page=lambda cid: card_url(cid, "page"))


def replay_step(run: SimulationRun, pairing: int, number: int, step: int | str) -> ReplayedStep:
    """Game ``number`` of pairing ``pairing`` (0-based; a matchup has one) at ``step``: a
    round's start (the first decision of that round) or END. A round the game never reached
    shows the end."""
    pair = run.pairs[pairing]
    prepared = stored_decks(run)
    decks = [prepared[d] for d in pair]
    spec = table_spec(run, pairing)
    order = seating(len(decks), number)
    names = [run.deck_names[pair[d]] for d in order]
    links = card_links({cid for facts in run.card_facts for cid in facts})
    replay = ReplayedStep(number, step, names)
    rounds: list[int] = []

    def look(table: Table) -> None:
        if not rounds or rounds[-1] != table.round:
            rounds.append(table.round)
            if table.round == step:
                _lay_out(replay, table, links)

    table = play_matchup_game(decks, spec, number, run_config(run), record=True, observe=look)
    if step not in rounds:
        replay.step = END
        _lay_out(replay, table, links)
    replay.steps = [*rounds, END]
    replay.outcome, replay.final_round = table.outcome, table.final_round
    replay.winner = names[table.winner] if table.winner >= 0 else None
    story = by_round(table.story or [])
    told = replay.step if isinstance(replay.step, int) else max(story, default=0)
    replay.told = told
    replay.lines = [{"seat": seat + 1 if seat >= 0 else None,
                     "name": names[seat] if seat >= 0 else "", "text": text}
                    for seat, text in story.get(told, [])]
    return replay


def by_round(story: list[tuple[int, int, str]]) -> dict[int, list[tuple[int, str]]]:
    """The story of a table, round by round. A seat's events are told when the table next
    speaks, so the last discards of a round come after the table has moved to the next: a
    line belongs to the round whose "Round N: the lead player..." came last before it."""
    rounds: dict[int, list[tuple[int, str]]] = {}
    current = 1
    for number, seat, text in story:
        if seat < 0 and text.startswith(f"Round {number}: the lead player"):
            current = number
        rounds.setdefault(current, []).append((seat, text))
    return rounds


def _lay_out(replay: ReplayedStep, table: Table, links: Links) -> None:
    replay.lead = table.lead
    replay.seats = [{
        "number": seat + 1, "prefix": f"seat-{seat + 1}-", "name": replay.seat_names[seat],
        "lead": seat == table.lead,
        "out": table.out.get(seat),
        "table": table_layout(table.state, links, seat, seats.standing(table, seat)),
    } for seat in range(table.players)]
