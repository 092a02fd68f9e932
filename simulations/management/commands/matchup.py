"""matchup DECK DECK [DECK ...] --games N --seed S [--workers W] [--policy NAME] [--target T]
[--log GAME] [--format json] [--gauntlet | --matrix]: play 2 to 6 decks against one another at
one table, by the rules, and report each deck's wins with a 95% interval (docs/design.md §14); or,
with --gauntlet, the first deck against each of the others, with --matrix every deck against every
other, two at a table (docs/matchups.md)."""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import CommandParser

from decks.management.decklist_file import read_deck
from rules.game.config import TARGETS, GameConfig
from rules.game.gauntlet import MAX_FIELD, pairings
from rules.game.matchup import MatchupSpec
from rules.game.table_policy import MULTIPLAYER_POLICIES
from simulations.games import DeckNotPlayable, field_report, matchup_game, matchup_report
from simulations.stats import never_played_note
from sitewide.management.run_command import RunCommand


class Command(RunCommand):
    help = (
        "Play 2 to 6 decks against one another N times (one seat per deck, the seats rotating) "
        "by the rulebook with a seeded RNG, and print each deck's wins and win rate with a 95% "
        "interval, the games every player lost, the timeouts and the knock-outs. The same decks, "
        "seed, policy and rules version always print the same report. Exit 1 on bad input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("decks", nargs="+", metavar="DECK")
        self.add_run_arguments(
            parser, log_help="print game number GAME (1..N), round by round, every seat")
        parser.add_argument("--policy", default="greedy", metavar="P",
                            help=f"who decides: {', '.join(MULTIPLAYER_POLICIES)} at every "
                            "seat (greedy by default), or one per deck, comma-separated "
                            "(greedy,random: the policy goes with its deck)")
        parser.add_argument("--target", type=int, choices=TARGETS, default=25)
        field = parser.add_mutually_exclusive_group()
        field.add_argument("--gauntlet", dest="mode", action="store_const", const="gauntlet",
                           help="play the first deck against each of the others, one 2-player "
                           "matchup per pairing")
        field.add_argument("--matrix", dest="mode", action="store_const", const="matrix",
                           help="play every deck against every other, one 2-player matchup "
                           "per pair")

    def handle(self, *args: Any, **options: Any) -> None:
        paths = options["decks"]
        mode = options["mode"] or "matchup"
        if mode == "matchup" and not 2 <= len(paths) <= 6:
            self.fail(f"A matchup seats 2 to 6 decks, not {len(paths)}.")
        if mode != "matchup" and not 2 <= len(paths) <= MAX_FIELD:
            self.fail(f"A {mode} takes 2 to {MAX_FIELD} decks, not {len(paths)}.")
        if mode != "matchup" and options["log"] is not None:
            self.fail(f"--log tells a game of one matchup; run the pairing of a {mode} as a "
                       "matchup of its two decks to see one of its games.")
        self.check_run_options(options)
        games = options["games"]
        decks = [read_deck(self, path) for path in paths]
        try:
            spec = MatchupSpec(games, options["seed"], options["policy"])
        except ValueError as error:
            self.fail(f"--policy: {error}.")
        if len(spec.policies) not in (1, len(decks)):
            self.fail(f"--policy names {len(spec.policies)} policies for {len(decks)} decks: "
                       "give one, or one per deck.")
        config = GameConfig(target=options["target"],
                            players=len(decks) if mode == "matchup" else 2,
                            round_cap=options["round_cap"])
        try:
            if options["log"] is not None:
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
            if mode == "matchup":
                report = matchup_report(decks, spec, config, workers=options["workers"],
                                        progress=self.progress_bar(games))
                played = games
            else:
                total = games * len(pairings(len(decks), mode))
                report = field_report(decks, spec, config, mode, workers=options["workers"],
                                      progress=self.progress_bar(total))
                played = games * len(report["pairings"])
        except DeckNotPlayable as error:
            self.fail(str(error))
        self.report_elapsed(played, started)
        if options["format"] == "json":
            self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
        elif mode == "matchup":
            self._print(report)
        else:
            self._print_field(report)

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
            for card in sorted(deck["cards"].values(), key=lambda c: -c["drawn"]):
                note = never_played_note(card.get("never_played"), card.get("offered"),
                                         table=True)
                if note:
                    write(f"  {card['name']}: {note}")

    def _print_field(self, report: dict[str, Any]) -> None:
        write = self.stdout.write
        names = [deck["name"] for deck in report["decks"]]
        write(f"{report['mode'].title()} of {len(names)} decks: {len(report['pairings'])} "
              f"pairings of {report['games']:,} games, seed {report['seed']}, "
              f"{report['policy']} policy, target {report['target']}, "
              f"rules {report['rules_version']}")
        write("Win rate of the row's deck against the column's (95% interval):")
        columns = [n for n, row in enumerate(zip(*report["matrix"], strict=True))
                   if any(row)]
        write(" " * 24 + "".join(f"{names[c][:19]:>20}" for c in columns))
        for number, row in enumerate(report["matrix"]):
            if not any(row):
                continue
            cells = "".join(
                f"{'-':>20}" if row[c] is None else
                f"{row[c]['win_rate']:>7.1%} ({row[c]['ci95'][0]:.0%}-{row[c]['ci95'][1]:.0%})"
                .rjust(20) for c in columns)
            write(f"{names[number][:23]:<24}{cells}")
        write("Over all its pairings:")
        for deck in report["decks"]:
            low, high = deck["ci95"]
            write(f"  {deck['name'][:32]:<32} {deck['wins']:>7,} wins of {deck['games']:,} "
                  f"{deck['win_rate']:>6.1%} (95% interval {low:.1%}-{high:.1%})")
