"""goldfish FILE --games N --seed S [--workers W] [--policy NAME] [--target T] [--players P]
[--log GAME] : play the deck solo N times by the rules and report how fast it wins."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from decks.management.decklist_file import read_deck
from goldfish.games import DeckNotPlayable, goldfish_game, goldfish_report
from rules.game.config import TARGETS, GameConfig
from rules.game.runner import POLICY_NAMES, RunSpec, check_policy
from sitewide.seeds import seed_argument

MAX_GAMES = 10_000_000


def _policy(name: str) -> str:
    try:
        return check_policy(name)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class Command(BaseCommand):
    help = (
        "Goldfish a deck: play it solo N times by the rulebook with a seeded RNG and print the "
        "victory-round distribution, loss causes and per-card figures. The same deck, seed, "
        "policy and rules version always print the same report. Exit 1 on bad input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--games", type=int, default=1000, metavar="N")
        parser.add_argument("--seed", type=seed_argument, required=True, metavar="S")
        parser.add_argument("--workers", type=int, default=1, metavar="W",
                            help="processes to play on (the report is the same for any W)")
        parser.add_argument("--policy", type=_policy, default="greedy", metavar="NAME",
                            help=f"who decides: {', '.join(POLICY_NAMES)} (greedy by default); "
                            "lookahead:N plays N rollouts per decision (docs/goldfish.md)")
        parser.add_argument("--target", type=int, choices=TARGETS, default=25)
        parser.add_argument("--players", type=int, default=1, choices=range(1, 7), metavar="P",
                            help="more than 3 x P wanderers in play loses (default 1)")
        parser.add_argument("--round-cap", type=int, default=40, metavar="R")
        parser.add_argument("--log", type=int, metavar="GAME",
                            help="print game number GAME (1..N) of this run, round by round")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["games"]
        if not 1 <= games <= MAX_GAMES:
            self._fail(f"--games must be between 1 and {MAX_GAMES:,}, not {games}.")
        if options["workers"] < 1:
            self._fail("--workers must be at least 1.")
        if options["round_cap"] < 1:
            self._fail("--round-cap must be at least 1.")
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
                                     progress=self._progress_bar(games))
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

    def _log(self, deck: Any, spec: RunSpec, config: GameConfig, number: int,
             form: str) -> None:
        if not 1 <= number <= spec.games:
            self._fail(f"--log must name a game from 1 to {spec.games}, not {number}.")
        lines, log = goldfish_game(deck, spec, config, number)
        if form == "json":
            self.stdout.write(json.dumps(log, ensure_ascii=False))
        else:
            self.stdout.write(f"Game {number} of seed {spec.seed} ({spec.policy} policy)")
            for line in lines:
                self.stdout.write(line)

    def _progress_bar(self, games: int) -> Any:
        stream = sys.stderr
        if not stream.isatty():
            return None

        def show(done: int, total: int) -> None:
            width = 30
            filled = width * done // total
            stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} games")
            if done == total:
                stream.write("\n")
            stream.flush()

        show(0, games)
        return show

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
