"""The simulations' adapter: decks and the catalogue in, the engine's reports or game logs
out, for goldfish (one deck solo) and for matchups (decks against decks: rules/game/matchup.py,
gauntlet.py).

The engine (rules/game) is pure; this module gives it the catalogue's card facts and turns its
results into the documents the commands, the API and the pages share. A stored run keeps the
facts its decks were read with (:func:`stored_facts`), so its chunks and its replays play the
same cards whatever happens to the catalogue later (:func:`prepare_stored`).
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from decks.formats.json_format import deck_from_dict, deck_to_dict
from decks.validation import catalogue_facts
from rules.cards import CardFacts
from rules.decklist import Decklist
from rules.draw_strategy import HAND_SIZE
from rules.game import engine
from rules.game.config import GameConfig
from rules.game.engine import DeckNotPlayable
from rules.game.gauntlet import build_field_report, run_field
from rules.game.matchup import (
    MatchupSpec,
    build_matchup_report,
    play_matchup_game,
    seating,
    story_lines,
)
from rules.game.matchup import run as run_matchup
from rules.game.narrate import narrate
from rules.game.report import build_report, play_kinds
from rules.game.runner import RunSpec, game_seed, play_game, run
from rules.game.state import GameState

__all__ = [
    "DeckNotPlayable", "ReplayedGame", "card_names", "contents_hash", "deck_names",
    "field_report", "goldfish_game", "goldfish_report", "matchup_game", "matchup_report",
    "prepare_deck", "prepare_decks", "prepare_stored", "replay_rounds", "report_names",
]


def prepare_deck(deck: Decklist, config: GameConfig) -> engine.Prepared:
    """The deck read for the engine; raises DeckNotPlayable with every problem."""
    return engine.prepare(deck, catalogue_facts(), config)


def prepare_stored(decklist: Mapping[str, Any], facts: Mapping[str, Mapping[str, Any]],
                   config: GameConfig) -> engine.Prepared:
    """A stored run's deck read again with the card facts stored beside it."""
    cards = {card_id: CardFacts.from_data(data) for card_id, data in facts.items()}
    return engine.prepare(deck_from_dict(dict(decklist)), cards, config)


def stored_facts(prepared: engine.Prepared) -> dict[str, dict[str, Any]]:
    """The facts of the deck's cards as JSON-ready data (what :func:`prepare_stored` reads)."""
    return {card_id: dict(facts) for card_id, facts in prepared.facts.items()}


def prepare_decks(decks: Sequence[Decklist], config: GameConfig) -> list[engine.Prepared]:
    """Each deck of a table read for the engine; raises DeckNotPlayable naming the deck at
    fault."""
    facts = catalogue_facts()
    prepared = []
    for number, deck in enumerate(decks, 1):
        try:
            prepared.append(engine.prepare(deck, facts, config))
        except DeckNotPlayable as error:
            raise DeckNotPlayable(f"Deck {number} ({deck.name or 'unnamed'}): {error}",
                                  error.problems) from None
    if config.players >= 2:  # a table of config.players (a gauntlet's and matrix's: 2)
        engine.check_seating(prepared, config.players)
    return prepared


def contents_hash(decks: Sequence[Decklist], prepared: Sequence[engine.Prepared]) -> str:
    """What a run's result depends on besides its options: each deck's name (it is in the
    report), its cards in order (the order numbers the card instances the shuffles move) and
    the facts of those cards, in seat order (the order decides who sits where). Same hash,
    same games. One deck is hashed alone, not as a list of one, so that the goldfish runs
    stored before the simulations app are found again."""
    documents = [
        {"name": deck.name,
         "parts": {k: v for k, v in deck_to_dict(deck).items()
                   if k not in ("name", "players", "description")},
         "facts": stored_facts(p)}
        for deck, p in zip(decks, prepared, strict=True)
    ]
    document: Any = documents[0] if len(documents) == 1 else documents
    encoded = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(encoded.encode()).hexdigest()


def report_names(prepared: engine.Prepared) -> dict[str, str]:
    return {card_id: card.name for card_id, card in prepared.by_id.items()}


def goldfish_report(deck: Decklist, spec: RunSpec, config: GameConfig, *, workers: int = 1,
                    progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    prepared = prepare_deck(deck, config)
    tally = run(prepared, spec, workers=workers, progress=progress)
    return build_report(tally, seed=spec.seed, policy=spec.policy, config=config,
                        names=report_names(prepared), deck_name=deck.name,
                        kinds=play_kinds(prepared.by_id))


def goldfish_game(deck: Decklist, spec: RunSpec, config: GameConfig, number: int
                  ) -> tuple[list[str], dict[str, Any]]:
    """Game ``number`` of the run, replayed with recording: its story and its log."""
    prepared = prepare_deck(deck, config)
    state = play_game(prepared, spec, number, record=True)
    return narrate(state), engine.game_log(state)


@dataclass(frozen=True)
class ReplayedGame:
    """One game of a run told round by round: the table at the start of each round (the state
    as ``GameState.to_dict`` gives it, at the round's first decision; for round 1, once the
    opening hand is drawn) and the story's lines of each round (the setup's lines go with
    round 1). ``seed``: the game's own seed, derived from the run's and the game's number."""

    number: int
    outcome: str
    final_round: int
    states: dict[int, dict[str, Any]]
    lines: dict[int, list[str]]
    seed: int = 0


def replay_rounds(prepared: engine.Prepared, spec: RunSpec, number: int) -> ReplayedGame:
    """Game ``number`` played by :func:`rules.game.runner.play_game` (same seeds, same
    policy), the state kept at the first decision of each new round."""
    states: dict[int, dict[str, Any]] = {}
    opening = False

    def look(state: GameState) -> None:
        nonlocal opening
        # to_dict() shares the state's lists (zones, flags...): copy them, or every round's
        # table would show the end of the game.
        if not opening and state.round == 1 and len(state.mover().hand) >= HAND_SIZE:
            states[1] = copy.deepcopy(state.to_dict())  # round 1 shows the opening hand
            opening = True
        if state.round not in states:
            states[state.round] = copy.deepcopy(state.to_dict())

    state = play_game(prepared, spec, number, record=True, observe=look)
    look(state)  # the round the game ended in, if no decision was made in it
    return ReplayedGame(number, state.outcome, state.final_round, states,
                        _lines_by_round(narrate(state)), game_seed(spec.seed, number))


def _lines_by_round(lines: list[str]) -> dict[int, list[str]]:
    by_round: dict[int, list[str]] = {1: []}
    current = 1
    for line in lines:
        if line.startswith("== Round ") and line.endswith(" =="):
            current = int(line.removeprefix("== Round ").removesuffix(" =="))
            by_round.setdefault(current, [])
            continue
        if line:
            by_round.setdefault(current, []).append(line)
    return by_round


# --- decks against decks ----------------------------------------------------------------------


def deck_names(decks: Sequence[Decklist]) -> list[str]:
    """The decks' names, numbered where two are the same (the same file may be given twice)."""
    names = [deck.name or f"Deck {n}" for n, deck in enumerate(decks, 1)]
    return [f"{name} #{n}" if names.count(name) > 1 else name
            for n, name in enumerate(names, 1)]


def card_names(prepared: Sequence[engine.Prepared]) -> list[dict[str, str]]:
    return [report_names(p) for p in prepared]


def card_kinds(prepared: Sequence[engine.Prepared]) -> list[dict[str, str]]:
    """Each deck's cards' kinds, for the never-played reasons of a table's report."""
    return [play_kinds(p.by_id) for p in prepared]


def matchup_report(decks: Sequence[Decklist], spec: MatchupSpec, config: GameConfig, *,
                   workers: int = 1,
                   progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    prepared = prepare_decks(decks, config)
    tally = run_matchup(prepared, spec, config, workers=workers, progress=progress)
    return build_matchup_report(tally, names=deck_names(decks), card_names=card_names(prepared),
                                seed=spec.seed, policy=spec.policy, config=config,
                                kinds=card_kinds(prepared))


def field_report(decks: Sequence[Decklist], spec: MatchupSpec, config: GameConfig, mode: str, *,
                 workers: int = 1,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """A gauntlet's or a matrix's document (rules.game.gauntlet)."""
    prepared = prepare_decks(decks, config)
    tallies = run_field(prepared, spec, config, mode, workers=workers, progress=progress)
    return build_field_report(tallies, mode=mode, names=deck_names(decks),
                              card_names=card_names(prepared), seed=spec.seed,
                              policy=spec.policy, config=config, kinds=card_kinds(prepared))


def matchup_game(decks: Sequence[Decklist], spec: MatchupSpec, config: GameConfig,
                 number: int) -> tuple[list[str], dict[str, Any]]:
    """Game ``number`` of the matchup told round by round, every player's side, and its
    summary as JSON."""
    prepared = prepare_decks(decks, config)
    table = play_matchup_game(prepared, spec, number, config, record=True)
    names = deck_names(decks)
    order = seating(len(decks), number)
    lines = story_lines(table, [names[d] for d in order])
    winner = names[order[table.winner]] if table.winner >= 0 else None
    log = {"game": number, "seed": spec.seed, "policy": spec.policy,
           "seats": [names[d] for d in order], "outcome": table.outcome, "winner": winner,
           "final_round": table.final_round,
           "eliminated": {names[order[s]]: {"round": r, "how": how}
                          for s, (r, how) in sorted(table.out.items())},
           "lines": lines}
    return lines, log
