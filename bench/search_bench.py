"""Search on a synthetic catalogue of 10,000 cards: per-query server-side p50/p95 (each
request computing its answer), and the cost of /api/cards/?q= against the trivial
/api/health/ view in the same process, for a cold request (nothing kept), a first one (no
kept answer: a new query, the cards' rows kept by earlier ones), a seen one (no kept answer,
the query compiled before: another page or asker) and a repeated one (answered from the
card list cache). On SQLite, then on a throw-away PostgreSQL when one is installed."""

from __future__ import annotations

import json
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import urlencode

from django.core.cache import caches
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client

from cards.api import list_cache, row_cache, search_cache
from cards.card_data import CARD_KEYS
from cards.models import Card, CardKeyword, CardSet
from cards.revision_cache import shared_version
from cards.signals import catalogue_changed
from rules.abilities import parse_abilities
from rules.rng import Rng

SIZE = 10_000
QUERIES = (
    "bowman",
    "t:troop",
    "f:kalim",
    "off>=3",
    "t:troop f:kalim off>=2",
    "cost<=4 -t:structure",
    "o:worship",
    "kw:fleetfoot",
    "is:unique t:personality",
    "fi>=3 order:fi dir:desc",
    "agg>=4 bounty>=3",
    "-f:kalim -f:mosfin t:personality",
    "(t:troop or t:wanderer) off>=4",
    "o:/exhaust(s)? target/",
    "o:/^E (collect|pay)/ t:structure",
    "(f:kalim or f:guild) (kw:worship or kw:campaign) cost<=5",
    "t:event (econ>=2 or t:battle) -o:discard",
    "is:unknown",
    "res>=2 -t:stronghold order:cost",
    "((t:troop off>=3) or (t:citizen fi>=2)) -(f:mosfin is:unique)",
)


def synthesize(root: Path, size: int = SIZE, seed: int = 2004) -> None:
    """Fill the database with ``size`` variations of the Demo cards (seeded, reproducible)."""
    demo = json.loads((root / "fixtures" / "cards" / "demo.json").read_text(encoding="utf-8"))
    rng = Rng(seed)
    card_set = CardSet.objects.create(code="SYN", name="Synthetic", official=False)
    numbers = [k for k in CARD_KEYS if k in (
        "offense", "defense", "cost_economic", "cost_religious", "cost_political",
        "faction_influence", "vitality", "strength_economic", "strength_religious",
        "strength_political", "aggression", "residencies", "cost_generic", "bounty")]
    cards: list[Card] = []
    keywords: list[CardKeyword] = []
    for n in range(size):
        template = dict(demo["cards"][n % len(demo["cards"])])
        for key in numbers:
            if template[key] is not None:
                template[key] = max(0, template[key] + rng.randint(-1, 2))
        fields = {k: v for k, v in template.items() if k not in ("id", "set")}
        fields["name"] = f"{template['name']} {n}"
        card = Card(id=f"syn-{n:05d}", set=card_set, **fields)
        card.refresh_derived()
        cards.append(card)
        keywords.extend(
            CardKeyword(card_id=card.id, ability=c.ability.slug, position=i,
                        exhausts=c.exhausts, faction_threshold=c.faction_threshold)
            for i, c in enumerate(parse_abilities(card.abilities)) if c.ability
        )
    with transaction.atomic():
        Card.objects.bulk_create(cards, batch_size=1000)
        CardKeyword.objects.bulk_create(keywords, batch_size=2000)
        catalogue_changed()


def _forget_answers(rows: bool = False, searches: bool = True) -> None:
    """Drop the kept card list answers and compiled searches, so the next request computes
    its answer from the query's text (the catalogue's revision is kept: it is read once per
    change, not per search); with ``rows`` the cards' kept rows too (as right after a
    catalogue change); without ``searches``, the compiled searches are kept (a query asked
    before, for another page or by another asker)."""
    caches[list_cache.CACHE].clear()
    if rows:
        row_cache.forget_rows()
    if searches:
        search_cache.forget_searches()
    shared_version()


def _timings(client: Client, url: str, runs: int, rows: bool = False,
             searches: bool = True) -> list[float]:
    """Seconds per request, each computing its answer (no kept answer nor compiled search;
    with ``rows``, no kept row either; without ``searches``, the search compiled)."""
    times = []
    for _ in range(runs):
        _forget_answers(rows, searches)
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code, response.content[:300])
    return times


def first_request(client: Client, url: str, repeat: int = 3, number: int = 20,
                  rows: bool = False) -> float:
    """Seconds per first request (no answer kept for it, but the rows of cards that other
    requests have listed since the catalogue's last change): like best_of, the cache emptied
    before each request outside the timing. ``rows``: no row kept either (a cold one)."""
    best = float("inf")
    for _ in range(repeat):
        best = min(best, sum(_timings(client, url, number, rows)) / number)
    return best


def run(best_of: Callable[..., float], report: Callable[..., None], root: Path) -> None:
    call_command("migrate", verbosity=0)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # PostgreSQL's default, which .ci/with-postgres turns off: a vacuum marks rows
            # visible to all only once their commit is on disk.
            cursor.execute("SET synchronous_commit TO on")
    synthesize(root)
    database = _database_name()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # What autovacuum does within a minute of a bulk import (since PostgreSQL 13,
            # inserts alone start a vacuum): the statistics, and the visibility map that lets
            # a count read the covering index without the table (cards/migrations/0007).
            cursor.execute("VACUUM ANALYZE")
    client = Client()
    print(f"\nsearch on {Card.objects.count():,} cards, {database}, per query (server-side, "
          "30 runs, each computing its answer):")
    print(f"  {'query':<62} {'hits':>6} {'p50 ms':>8} {'p95 ms':>8}")
    worst = 0.0
    for query in QUERIES:
        url = "/api/cards/?" + _encode(query)
        hits = client.get(url).json()["count"]
        times = sorted(_timings(client, url, 30, rows=True))
        p50, p95 = statistics.median(times), times[int(0.95 * (len(times) - 1))]
        worst = max(worst, p95)
        print(f"  {query:<62} {hits:>6} {p50 * 1000:8.2f} {p95 * 1000:8.2f}")
    print(f"  worst p95: {worst * 1000:.2f} ms (goal <= 25 ms)")

    for query in ("", "t:troop f:kalim off>=2", "(t:troop or t:wanderer) off>=4"):
        url = "/api/cards/?" + _encode(query)
        name = f"GET /api/cards/?q={query or '(all)'}"
        paired(f"cold {name}", side_by_side(client, partial(_first, client, url, rows=True)),
               "GET /api/health/ (no kept row either)")
        client.get(url)  # its rows, as another query's would have kept them
        paired(f"first {name}", side_by_side(client, partial(_first, client, url)),
               "GET /api/health/ (goal <= 6x)")
        paired(f"seen {name}", side_by_side(client, partial(_first, client, url, searches=False)),
               "GET /api/health/ (compiled before: another page or asker)")
        client.get(url)
        paired(f"repeated {name}", side_by_side(client, partial(
            best_of, partial(client.get, url), repeat=1, number=ROUND)),
               "GET /api/health/ (goal <= 2.5x)")


ROUND = 4  # requests of the subject per round, then HEALTH_ROUND of the health view
HEALTH_ROUND = 16
ROUNDS = 31


def _first(client: Client, url: str, number: int = ROUND, rows: bool = False,
           searches: bool = True) -> float:
    return sum(_timings(client, url, number, rows, searches)) / number


@dataclass(frozen=True)
class Paired:
    """Seconds per call of a subject and of GET /api/health/ in rounds taken in turn, and
    the ratio of each round's two."""

    subject: list[float]
    health: list[float]

    @property
    def ratios(self) -> list[float]:
        return [s / h for s, h in zip(self.subject, self.health, strict=True)]

    @property
    def ratio(self) -> float:
        """The median of the paired ratios: each round's subject against the health view
        timed right after it, so a swing of the machine's load moves both sides of a ratio,
        and a few disturbed rounds move the median little."""
        return statistics.median(self.ratios)

    @property
    def spread(self) -> tuple[float, float]:
        """The middle half of the rounds' ratios (the quartiles)."""
        q1, _, q3 = statistics.quantiles(self.ratios, n=4)
        return q1, q3


def side_by_side(client: Client, subject: Callable[[], float], rounds: int = ROUNDS,
                 baseline: str = "/api/health/") -> Paired:
    """Seconds per call of ``subject`` (one round) and of GET ``baseline``, in ``rounds``
    rounds taken in turn, each pairing one round of the subject with the baseline's right
    after it. On a machine shared with other work the load changes within seconds:
    a baseline timed once, apart, skewed the ratios both ways, and the best of each side
    over a few rounds (which paired a quiet moment of one with another of the other) moved
    the same code's ratios by a third between runs."""
    seconds, health = [], []
    for _ in range(rounds):
        seconds.append(subject())
        start = time.perf_counter()
        for _ in range(HEALTH_ROUND):
            client.get(baseline)
        health.append((time.perf_counter() - start) / HEALTH_ROUND)
    return Paired(seconds, health)


def paired(name: str, measured: Paired, baseline_name: str) -> None:
    """A report line (as bench.report's) with the median of the paired ratios, the median
    times, and the quartiles of the ratios, which say how steady the machine was."""
    low, high = measured.spread
    subject, health = statistics.median(measured.subject), statistics.median(measured.health)
    print(f"{name[:44]:<44} {measured.ratio:8.2f}x {baseline_name}   ({subject * 1000:.2f} ms "
          f"vs {health * 1000:.2f} ms; middle half of {len(measured.ratios)} paired ratios "
          f"{low:.2f}-{high:.2f})")


def _encode(query: str) -> str:
    return urlencode({"q": query}) if query else ""


def _database_name() -> str:
    if connection.vendor == "postgresql":
        return f"PostgreSQL {connection.pg_version // 10000}"  # type: ignore[attr-defined]
    return f"SQLite {sqlite3.sqlite_version}"


def run_on_postgres(root: Path, section: str = "search") -> None:
    """The same section again on a throw-away PostgreSQL (.ci/with-postgres), when one is
    installed: in a process of its own, since Django's database is set at start."""
    wrapper = root / ".ci" / "with-postgres"
    if not any(Path("/usr/lib/postgresql").glob("*/bin/initdb")) and not shutil.which("initdb"):
        print(f"\n({section} on PostgreSQL skipped: apt-get install postgresql-15 for it)")
        return
    sys.stdout.flush()
    subprocess.run([str(wrapper), sys.executable, "-m", "bench", "--only", section,
                    "--database-from-env"], cwd=root, check=True)
