"""goldfish FILE --games N --seed S [--workers W] [--policy NAME] [--target T] [--players P]
[--log GAME] : play the deck solo N times by the rules and report how fast it wins."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from django.core.management.base import CommandParser

from decks.management.decklist_file import read_deck
from rules.game.config import TARGETS, GameConfig
from rules.game.runner import POLICY_NAMES, RunSpec, check_policy
from simulations.games import DeckNotPlayable, goldfish_game, goldfish_report
from simulations.stats import never_played_note
from sitewide.management.run_command import RunCommand


def _policy(name: str) -> str:
    try:
        return check_policy(name)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class Command(RunCommand):
    max_games = 10_000_000
    help = (
        "Goldfish a deck: play it solo N times by the rulebook with a seeded RNG and print the "
        "victory-round distribution, loss causes and per-card figures. The same deck, seed, "
        "policy and rules version always print the same report. Exit 1 on bad input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        self.add_run_arguments(
            parser, log_help="print game number GAME (1..N) of this run, round by round")
        parser.add_argument("--policy", type=_policy, default="greedy", metavar="NAME",
                            help=f"who decides: {', '.join(POLICY_NAMES)} (greedy by default); "
                            "lookahead:N and reference:N play N rollouts per decision "
                            "(docs/goldfish.md)")
        parser.add_argument("--target", type=int, choices=TARGETS, default=25)
        parser.add_argument("--players", type=int, default=1, choices=range(1, 7), metavar="P",
                            help="the table's size: more than 3 wanderers per player in play "
                                 "loses (default 1)")

    def handle(self, *args: Any, **options: Any) -> None:
        self.check_run_options(options)
        games = options["games"]
        deck = read_deck(self, options["file"])
        spec = RunSpec(games, options["seed"], options["policy"])
        config = GameConfig(target=options["target"], players=options["players"],
                            round_cap=options["round_cap"])
        try:
            if options["log"] is not None:
                self._log(deck, spec, config, options["log"], options["format"])
                return
            started = time.monotonic()
            report = goldfish_report(deck, spec, config, workers=options["workers"],
                                     progress=self.progress_bar(games))
        except DeckNotPlayable as error:
            self.fail(str(error))
        self.report_elapsed(games, started)
        if options["format"] == "json":
            self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
        else:
            self._print(report)

    def _log(self, deck: Any, spec: RunSpec, config: GameConfig, number: int,
             form: str) -> None:
        lines, log = goldfish_game(deck, spec, config, number)
        if form == "json":
            self.stdout.write(json.dumps(log, ensure_ascii=False))
        else:
            self.stdout.write(f"Game {number} of seed {spec.seed} ({spec.policy} policy)")
            for line in lines:
                self.stdout.write(line)

    def _print(self, report: dict[str, Any]) -> None:
        write = self.stdout.write
        games, wins = report["games"], report["victories"]
        rounds = report["victory_round"]
        write(f"{report['deck'] or 'Deck'}: {games:,} games, seed {report['seed']}, "
              f"{report['policy']} policy, target {report['target']}, "
              f"{report['players']} player(s), rules {report['rules_version']}")
        write(f"Victories: {wins:,} ({report['victory_rate']:.1%})")
        losses = report["losses"]
        write(f"Losses: {losses['overrun']:,} overrun, {losses['stronghold']:,} stronghold "
              f"destroyed, {losses['timeout']:,} timeout (round cap {report['round_cap']})")
        if wins:
            low, high = rounds["ci95"]
            write(f"Victory round: mean {rounds['mean']:.2f} (95% interval {low:.2f}-"
                  f"{high:.2f}), median {rounds['median']}, p10 {rounds['p10']}, "
                  f"p90 {rounds['p90']}")
            peak = max(rounds["histogram"].values())
            for round_number, count in rounds["histogram"].items():
                bar = "#" * max(1, round(40 * count / peak))
                write(f"  round {int(round_number):>2} {count:>8,} {bar}")
        write("Cards (share of games): drawn, played, stuck in hand, in opening hand, "
              "victory-round difference when in the opening hand")
        for card in sorted(report["cards"].values(), key=lambda c: -c["played"]):
            diff = card["victory_round_difference"]
            shown = "    n/a" if diff is None else f"{diff:+7.2f}"
            write(f"  {card['name'][:32]:<32} {card['drawn']:>6.1%} {card['played']:>6.1%} "
                  f"{card['stuck_in_hand']:>6.1%} {card['opening_hand']:>6.1%} {shown}")
        for card in sorted(report["cards"].values(), key=lambda c: -c["drawn"]):
            note = never_played_note(card.get("never_played"), card.get("offered"))
            if note:
                write(f"  {card['name']}: {note}")
