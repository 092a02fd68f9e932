"""matchup DECK DECK [DECK ...] --games N --seed S [--workers W] [--policy NAME] [--target T]
[--log GAME] [--format json] : play 2 to 6 decks against one another at one table, by the
rules, and report each deck's wins with a 95% interval (DESIGN §14)."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from decks.management.decklist_file import read_deck
from matchups.games import DeckNotPlayable, matchup_game, matchup_report
from rules.game.config import TARGETS, GameConfig
from rules.game.matchup import MatchupSpec
from rules.game.multiplayer_policy import MULTIPLAYER_POLICIES

MAX_GAMES = 1_000_000


class Command(BaseCommand):
    help = (
        "Play 2 to 6 decks against one another N times (one seat per deck, the seats rotating) "
        "by the rulebook with a seeded RNG, and print each deck's wins and win rate with a 95% "
        "interval, the games every player lost, the timeouts and the knock-outs. The same decks, "
        "seed, policy and rules version always print the same report. Exit 1 on bad input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("decks", nargs="+", metavar="DECK")
        parser.add_argument("--games", type=int, default=1000, metavar="N")
        parser.add_argument("--seed", type=int, required=True, metavar="S")
        parser.add_argument("--workers", type=int, default=1, metavar="W",
                            help="processes to play on (the report is the same for any W)")
        parser.add_argument("--policy", default="greedy", metavar="P",
                            help=f"who decides: {', '.join(MULTIPLAYER_POLICIES)} at every "
                            "seat (greedy by default), or one per deck, comma-separated "
                            "(greedy,random: the policy goes with its deck)")
        parser.add_argument("--target", type=int, choices=TARGETS, default=25)
        parser.add_argument("--round-cap", type=int, default=40, metavar="R")
        parser.add_argument("--log", type=int, metavar="GAME",
                            help="print game number GAME (1..N), round by round, every seat")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        paths = options["decks"]
        if not 2 <= len(paths) <= 6:
            self._fail(f"A matchup seats 2 to 6 decks, not {len(paths)}.")
        games = options["games"]
        if not 1 <= games <= MAX_GAMES:
            self._fail(f"--games must be between 1 and {MAX_GAMES:,}, not {games}.")
        if options["workers"] < 1:
            self._fail("--workers must be at least 1.")
        if options["round_cap"] < 1:
            self._fail("--round-cap must be at least 1.")
        decks = [read_deck(self, path) for path in paths]
        try:
            spec = MatchupSpec(games, options["seed"], options["policy"])
        except ValueError as error:
            self._fail(f"--policy: {error}.")
        if len(spec.policies) not in (1, len(decks)):
            self._fail(f"--policy names {len(spec.policies)} policies for {len(decks)} decks: "
                       "give one, or one per deck.")
        config = GameConfig(target=options["target"], players=len(decks),
                            round_cap=options["round_cap"])
        try:
            if options["log"] is not None:
                if not 1 <= options["log"] <= games:
                    self._fail(f"--log must name a game from 1 to {games}, not {options['log']}.")
                lines, log = matchup_game(decks, spec, config, options["log"])
                if options["format"] == "json":
                    self.stdout.write(json.dumps(log, ensure_ascii=False))
                else:
                    self.stdout.write(f"Game {options['log']} of seed {spec.seed} "
                                      f"({spec.policy} policy)")
                    for line in lines:
                        self.stdout.write(line)
                return
            started = time.monotonic()
            report = matchup_report(decks, spec, config, workers=options["workers"])
        except DeckNotPlayable as error:
            self._fail(str(error))
        elapsed = time.monotonic() - started
        self.stderr.write(f"{games:,} games in {elapsed:.1f} s "
                          f"({games / max(elapsed, 1e-9):,.0f} games/s)")
        if options["format"] == "json":
            self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
        else:
            self._print(report)

    def _fail(self, message: str) -> None:
        self.stderr.write(message)
        sys.exit(1)

    def _print(self, report: dict[str, Any]) -> None:
        write = self.stdout.write
        write(f"Matchup of {report['players']} decks: {report['games']:,} games, seed "
              f"{report['seed']}, {report['policy']} policy, target {report['target']}, "
              f"rules {report['rules_version']}")
        for deck in report["decks"]:
            low, high = deck["ci95"]
            rounds = deck["victory_round"]
            when = (f"; victory round mean {rounds['mean']:.2f}, median {rounds['median']}"
                    if deck["wins"] else "")
            out = deck["eliminated"]
            write(f"  {deck['name'][:32]:<32} {deck['wins']:>7,} wins {deck['win_rate']:>6.1%} "
                  f"(95% interval {low:.1%}-{high:.1%}){when}; knocked out {out['attack']:,} "
                  f"by attacks, {out['wanderers']:,} by wanderers; {deck['attacks']:,} attacks")
        write(f"All players lost (wanderers overran the city): {report['all_lost']:,}")
        write(f"Timeouts (round cap {report['round_cap']}): {report['timeouts']:,}")
        write(f"Attacks on another player per game: {report['attacks_per_game']:.2f}")
        for deck in report["decks"]:
            write(f"Cards of {deck['name']} (share of games): drawn, played, win rate when played")
            for card in sorted(deck["cards"].values(), key=lambda c: -c["played"])[:12]:
                write(f"  {card['name'][:32]:<32} {card['drawn']:>6.1%} {card['played']:>6.1%} "
                      f"{card['win_rate_when_played']:>6.1%}")
