"""python -m bench.load.tables: the tables' part of `make load` (alone: `make load-tables`),
run through .ci/with-redis and .ci/with-postgres (REDIS_URL and DATABASE_URL).

Sets up a fresh site (migrate, both catalogues, the sample decks), makes LOAD_TABLES tables of
LOAD_TABLE_SEATS people each (every seat a person with an account, a session and an API
token; the sample decks; a low victory target), started, then serves the site as `make
serve-prod` does (LOAD_TABLE_SERVERS gunicorn servers of one ASGI worker each behind nginx,
which sends every request and socket of a table to one of them; the channel layer on Redis,
PostgreSQL with a pool) and plays for LOAD_TABLES_SECONDS: every person keeps a
WebSocket open on his table, fetches his view (GET /api/tables/{id}/view/) whenever his socket
says `changed`, and when the table waits on him thinks LOAD_THINK seconds ("2-6": 2 to 6 s by
default) and posts the move the greedy policy marks; one move in ten is sent twice at once (a
double click), and the row lock must apply one and refuse the other as stale.

Then prints the time from each applied move's POST until every other seat's socket said
`changed` (p50/p95/p99/max; the goal is p95 <= 150 ms), the moves lost or applied twice (the
database against the answers), and the hidden cards seen by another seat: every view a person
received, checked against the hands the server's game held at that view's decision (the
tables replayed move by move afterwards). Exit 1 on a move lost or applied twice, a hidden card
seen, a 5xx or a move never told; 0 otherwise (a p95 over the goal is printed as MISSED).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
from collections import Counter, defaultdict
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from bench.load.__main__ import manage, site_environment
from bench.load.table_figures import (
    Latencies,
    MoveSent,
    Told,
    check_moves,
    hidden_seen,
    latencies,
    summary_lines,
)
from deploy.stack import ROOT, Stack, in_work_folder, machine_cpu

DECKS = ("Guild Veterans", "Mosfin Blades", "Kalim Crusaders", "Guild Merchants",
         "Mosfin Senate", "Kalim Faithful")
TARGET = 15  # a low victory target: the shortest games the rules allow
DOUBLE_SHARE = 0.1  # moves sent twice at once


@dataclass(frozen=True)
class Options:
    tables: int
    seats: int
    seconds: float
    servers: int
    think: tuple[float, float]
    seed: int

    @classmethod
    def from_environ(cls) -> Options:
        low, _, high = (os.environ.get("LOAD_THINK") or "2-6").partition("-")
        return cls(tables=int(os.environ.get("LOAD_TABLES") or 50),
                   seats=int(os.environ.get("LOAD_TABLE_SEATS") or 4),
                   seconds=float(os.environ.get("LOAD_TABLES_SECONDS") or 60),
                   servers=int(os.environ.get("LOAD_TABLE_SERVERS") or 3),
                   think=(float(low), float(high or low)),
                   seed=int(os.environ.get("LOAD_SEED") or 1))


@dataclass(frozen=True)
class Person:
    table: int
    seat: int
    token: str
    session: str


@dataclass
class Records:
    moves: list[MoveSent] = field(default_factory=list)
    told: list[Told] = field(default_factory=list)
    # (table, seat, decision, the card ids the view held), one per view received
    views: list[tuple[int, int, int, list[str]]] = field(default_factory=list)
    answered_ms: list[float] = field(default_factory=list)
    view_ms: list[float] = field(default_factory=list)
    server_errors: int = 0
    view_failures: int = 0  # views asked for that got no answer


@dataclass(frozen=True)
class CpuUse:
    """CPU seconds so far: the app servers', nginx's, this process's (the people), and the
    machine's busy and whole time over every core (other users' processes too)."""

    servers: float
    nginx: float
    people: float
    busy: float
    whole: float

    @classmethod
    def now(cls, stack: Stack) -> CpuUse:
        busy, whole = machine_cpu()
        return cls(stack.cpu_seconds("gunicorn-"), stack.cpu_seconds("nginx"),
                   time.process_time(), busy, whole)

    def __sub__(self, other: CpuUse) -> CpuUse:
        return CpuUse(*(a - b for a, b in zip(astuple(self), astuple(other), strict=True)))

    def line(self, servers: int) -> str:
        cores = os.cpu_count() or 1
        return (f"CPU over the load (s): the {servers} servers {self.servers:.1f}, nginx "
                f"{self.nginx:.1f}, the people (this process) {self.people:.1f}; the machine's "
                f"{cores} cores {100 * self.busy / max(self.whole, 1e-9):.0f}% busy (every "
                f"process, other users' too); load average {os.getloadavg()[0]:.2f}")


def make_tables(options: Options) -> list[Person]:
    """The tables, each started, and their people (Django is set up)."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from decks.models import Deck
    from decks.services import deck_data
    from tables.services import SeatDeck, table_create, table_join, table_start

    saved = [Deck.objects.get(owner__username="samples", name=name) for name in DECKS]
    decks = [SeatDeck(deck_data(deck), deck) for deck in saved]
    people: list[Person] = []
    for number in range(options.tables):
        users = [User.objects.create_user(f"t{number}s{seat}") for seat in range(options.seats)]
        table = table_create(host=users[0], deck=decks[0], size=options.seats,
                             seed=options.seed * 100_000 + number, target=TARGET)
        for seat, user in enumerate(users[1:], start=1):
            table_join(table=table, user=user, invite=table.invite, deck=decks[seat % len(decks)])
        table_start(table=table, user=users[0])
        for seat, user in enumerate(users):
            client = Client()
            client.force_login(user)
            people.append(Person(table.pk, seat, Token.objects.create(user=user).key,
                                 client.cookies[settings.SESSION_COOKIE_NAME].value))
    return people


async def play(people: list[Person], port: int, options: Options) -> Records:
    records = Records()
    site = f"http://127.0.0.1:{port}"
    rng = random.Random(options.seed)
    # A kept connection is dropped before gunicorn closes it (its keep-alive is 2 s): a request
    # sent on one the server is closing would get no answer.
    limits = httpx.Limits(max_connections=len(people) * 2, max_keepalive_connections=len(people),
                          keepalive_expiry=1.0)
    async with httpx.AsyncClient(base_url=site, timeout=60, limits=limits) as http:
        sockets: list[ClientConnection] = []
        for person in people:  # one at a time: a person's first socket is a change of its own
            sockets.append(await connect(
                f"ws://127.0.0.1:{port}/ws/tables/{person.table}/", origin=Origin(site),
                additional_headers={"Cookie": f"sessionid={person.session}"},
                open_timeout=60))
        queues: list[asyncio.Queue[int]] = [asyncio.Queue() for _ in people]
        readers = [asyncio.create_task(read(socket, person, queue, records))
                   for socket, person, queue in zip(sockets, people, queues, strict=True)]
        stop_at = time.perf_counter() + options.seconds
        seeds = [rng.randrange(2**32) for _ in people]
        await asyncio.gather(*(act(person, queue, http, records, stop_at, options,
                                   random.Random(seed))
                               for person, queue, seed in zip(people, queues, seeds,
                                                              strict=True)))
        await asyncio.sleep(1)  # the last moves' messages on their way
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*(socket.close() for socket in sockets), return_exceptions=True)
    return records


async def read(socket: ClientConnection, person: Person, queue: asyncio.Queue[int],
               records: Records) -> None:
    """Every `changed` of the socket, timed the moment it arrives."""
    try:
        async for message in socket:
            at = time.perf_counter()
            version = int(json.loads(message)["version"])
            records.told.append(Told(person.table, person.seat, version, at))
            queue.put_nowait(version)
    except ConnectionClosed:
        return


async def act(person: Person, queue: asyncio.Queue[int], http: httpx.AsyncClient,
              records: Records, stop_at: float, options: Options, rng: random.Random) -> None:
    """A person at his table: his view at each change; his move whenever the view he holds
    (fetched, or the answer to his last move) says the table waits on him."""
    auth = {"Authorization": f"Token {person.token}"}
    seen, view = 0, None
    while (left := stop_at - time.perf_counter()) > 0:
        if view is not None and view.get("legal_actions") and view["status"] == "playing":
            await asyncio.sleep(rng.uniform(*options.think))  # thinking
            if time.perf_counter() >= stop_at:
                return
            index = next(a["index"] for a in view["legal_actions"] if a["policy"])
            times = 2 if rng.random() < DOUBLE_SHARE else 1
            sent = await asyncio.gather(*(move(http, auth, person, view["decision"], index,
                                               records) for _ in range(times)))
            view = next((answer for answer in sent if answer is not None), None)
            if view is not None:
                seen = max(seen, view["version"])
                keep(records, person, view)
            continue
        try:
            version = await asyncio.wait_for(queue.get(), timeout=left)
        except TimeoutError:
            return
        while not queue.empty():
            version = max(version, queue.get_nowait())
        if version <= seen:
            continue
        started = time.perf_counter()
        try:
            answer = await http.get(f"/api/tables/{person.table}/view/", headers=auth)
        except httpx.HTTPError:
            records.view_failures += 1
            seen = 0  # fetched again at the next change
            continue
        records.view_ms.append((time.perf_counter() - started) * 1000)
        if answer.status_code >= 500:
            records.server_errors += 1
            continue
        view = answer.json()
        keep(records, person, view)
        seen = view["version"]


async def move(http: httpx.AsyncClient, auth: dict[str, str], person: Person, decision: int,
               index: int, records: Records) -> dict[str, Any] | None:
    """POST one move; the new view when it applied."""
    sent = time.perf_counter()
    try:
        answer = await http.post(f"/api/tables/{person.table}/actions/", headers=auth,
                                 json={"index": index, "decision": decision})
    except httpx.HTTPError:
        records.moves.append(MoveSent(person.table, person.seat, decision, sent, 0))
        return None
    answered = time.perf_counter()
    records.answered_ms.append((answered - sent) * 1000)
    if answer.status_code >= 500:
        records.server_errors += 1
    view = answer.json() if answer.status_code == 200 else None
    records.moves.append(MoveSent(person.table, person.seat, decision, sent,
                                  answer.status_code, view["version"] if view else None,
                                  answered))
    return view


def keep(records: Records, person: Person, view: dict[str, Any]) -> None:
    from bench.load.table_figures import view_card_ids

    records.views.append((person.table, person.seat, int(view["decision"]),
                          view_card_ids(view)))


def stored_moves(tables: set[int]) -> dict[int, list[int]]:
    from tables.models import Table

    return {table.pk: [int(seat) for seat, _ in table.moves]
            for table in Table.objects.filter(pk__in=tables)}


def hands_and_public(game: Any) -> tuple[list[list[str]], Counter[str]]:
    """Each seat's hand, and the cards any seat may see (in play, discard piles), as the
    server's game (a playtest.table_play.TableGame) holds them."""
    from tables.seat_view import DRAW_PILES, PUBLIC_ZONES

    state = game.table.state
    hands, public = [], Counter[str]()
    for seat in range(game.table.players):
        zones = state.seats[seat].zones
        hands.append([state.card(i).id for i in zones["hand"]])
        public.update(state.card(i).id for zone in PUBLIC_ZONES for i in zones[zone])
        public.update(state.card(i).id for _, _, discard in DRAW_PILES for i in zones[discard])
    return hands, public


def hidden_cards(views: list[tuple[int, int, int, list[str]]]) -> tuple[int, list[str]]:
    """Each table replayed move by move, every view checked against the hands and public
    cards of the game at its decision: (hidden cards seen, the first few as lines)."""
    from playtest.play import Move
    from rules.game.actions import Action
    from tables.models import Table, TableSeat, table_source

    by_table: dict[int, dict[int, list[tuple[int, list[str]]]]] = defaultdict(
        lambda: defaultdict(list))
    for number, seat, decision, cards in views:
        by_table[number][decision].append((seat, cards))
    seen, lines = 0, list[str]()
    for table in Table.objects.filter(pk__in=by_table).order_by("pk"):
        rows = list(table.seat_rows.order_by("seat"))
        persons = frozenset(row.seat for row in rows if row.kind == TableSeat.PERSON)
        game = table_source(table, rows).replay_moves([], persons)
        for decision in range(len(table.moves) + 1):
            if by_table[table.pk].get(decision):
                hands, public = hands_and_public(game)
                for seat, cards in by_table[table.pk][decision]:
                    extra = hidden_seen([{"id": card} for card in cards], hands[seat], public)
                    seen += len(extra)
                    if extra and len(lines) < 20:
                        lines.append(f"table {table.pk}, seat {seat}, decision {decision}: "
                                     f"{', '.join(extra)}")
            if decision < len(table.moves):
                mover, data = table.moves[decision]
                game.apply_player(Action.from_dict(dict(data)), Move(), seat=int(mover))
    return seen, lines


def main() -> int:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") \
            or not os.environ.get("REDIS_URL"):
        print("python -m bench.load.tables needs PostgreSQL and Redis: run `make load-tables`",
              file=sys.stderr)
        return 2
    options = Options.from_environ()
    # An ASGI worker runs each request's sync view in a thread of its own, several at once:
    # its pool needs a connection for each (2, made for sync workers, answered 500 after 10 s
    # waiting for one).
    return in_work_folder(
        "allegiance-load-tables-",
        lambda work: {**site_environment(work), "DATABASE_POOL_MAX_SIZE":
                      os.environ.get("DATABASE_POOL_MAX_SIZE", "10")},
        lambda work, env: run(options, work, env))


def run(options: Options, work: Path, env: dict[str, str]) -> int:
    print(f"Setting up: migrate, both catalogues, sample decks ({work})", flush=True)
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "import_cards", "fixtures/cards/wof.json", "fixtures/cards/demo.json")
    manage(env, "load_sample_decks", *sorted(map(str, ROOT.glob("fixtures/decklists/*.txt"))))
    import django

    django.setup()
    made = time.perf_counter()
    people = make_tables(options)
    print(f"{options.tables} tables of {options.seats} people started "
          f"({time.perf_counter() - made:.0f} s)", flush=True)
    with Stack(work, env) as stack:
        port = stack.start_table_servers(options.servers)
        print(f"{options.servers} gunicorn servers of one ASGI worker behind nginx on "
              f"127.0.0.1:{port} (a table's requests and sockets on one server), the channel "
              "layer on Redis, PostgreSQL with a pool", flush=True)
        print(f"Load: {len(people)} people with a socket each, thinking {options.think[0]:g} to "
              f"{options.think[1]:g} s a move, for {options.seconds:g} s", flush=True)
        before = CpuUse.now(stack)
        records = asyncio.run(play(people, port, options))
        used = CpuUse.now(stack) - before
        log = "\n".join(stack.log_tail(f"gunicorn-{n}", 200)
                        for n in range(1, options.servers + 1))
    if os.environ.get("LOAD_KEEP"):  # what the people saw, for a closer look
        (work / "records.json").write_text(json.dumps({
            "moves": [vars(m) for m in records.moves], "told": [vars(t) for t in records.told]}))
    code = judge(people, records, log)
    print(used.line(options.servers))
    return code


def judge(people: list[Person], records: Records, log: str) -> int:
    seats: dict[int, list[int]] = defaultdict(list)
    for person in people:
        seats[person.table].append(person.seat)
    found: Latencies = latencies(records.moves, records.told, seats)
    verdict = check_moves(records.moves, stored_moves(set(seats)))
    hidden, lines = hidden_cards(records.views)
    from tables.models import Table

    over = Table.objects.filter(pk__in=seats, status=Table.OVER).count()
    print(f"\nTables over by the end: {over} of {len(seats)}")
    print("\n".join(summary_lines(found, verdict, hidden, len(records.views),
                                  records.answered_ms, records.view_ms)))
    for line in lines:
        print(f"  {line}")
    if records.server_errors and "Traceback" in log:
        print(f"\n--- gunicorn (end of its log)\n{log[-4000:]}")
    if records.view_failures:
        print(f"Views that got no answer: {records.view_failures}")
    bad = verdict.lost_or_twice + hidden + records.server_errors + found.untold
    print(f"\n{'FAILED' if bad else 'OK'}: {verdict.lost_or_twice} moves lost or applied "
          f"twice, {hidden} hidden cards seen, {records.server_errors} 5xx, {found.untold} "
          "moves some seat was never told of")
    return 1 if bad else 0


if __name__ == "__main__":
    started = time.monotonic()
    code = main()
    print(f"(tables load run took {time.monotonic() - started:.0f} s in all)")
    sys.exit(code)
