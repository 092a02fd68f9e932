"""The figures of the tables' load run (`make load`, bench/load/tables.py), from what its
scripted people saw: how long from a move's POST until every other seat's socket said
`changed`, which acknowledged moves the database lost or holds twice, and which hidden cards a
seat's view showed. Pure: plain records in, figures and lines out."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.load.report import percentile

GOAL_MS = 150.0  # issue 35: a move told to every other seat within 150 ms at p95


@dataclass(frozen=True)
class MoveSent:
    """One POST of a move: who sent it, at which decision, when (seconds on the harness's
    clock), the answer's status and, when applied, the table's new version."""

    table: int
    seat: int
    decision: int
    sent: float
    status: int  # 0: no answer (the connection failed or the run ended first)
    version: int | None = None
    answered: float | None = None


@dataclass(frozen=True)
class Told:
    """A `changed` message as a seat's socket received it."""

    table: int
    seat: int
    version: int
    at: float


@dataclass
class Latencies:
    """Per applied move, the time until the last other seat was told; the moves some other
    seat was never told of (before the run ended)."""

    ms: list[float] = field(default_factory=list)
    untold: int = 0
    # per applied move, from its POST's answer to the last other seat told (negative: all
    # were told before the answer came): the sockets' own delay
    after_answer_ms: list[float] = field(default_factory=list)


def latencies(moves: Iterable[MoveSent], told: Iterable[Told],
              seats: Mapping[int, Sequence[int]]) -> Latencies:
    """From each applied move's POST to the first message of each other seat of its table
    that names its version or a later one; the slowest of them counts for the move."""
    heard: dict[tuple[int, int], list[tuple[int, float]]] = defaultdict(list)
    for message in told:
        heard[message.table, message.seat].append((message.version, message.at))
    for messages in heard.values():
        messages.sort(key=lambda pair: pair[1])
    found = Latencies()
    for move in moves:
        if move.status != 200 or move.version is None:
            continue
        last = move.sent
        for seat in seats[move.table]:
            if seat == move.seat:
                continue
            at = next((t for version, t in heard[move.table, seat]
                       if version >= move.version and t >= move.sent), None)
            if at is None:
                found.untold += 1
                break
            last = max(last, at)
        else:
            found.ms.append((last - move.sent) * 1000)
            if move.answered is not None:
                found.after_answer_ms.append((last - move.answered) * 1000)
    return found


@dataclass
class MoveVerdict:
    applied: int = 0  # answered 200
    stale: int = 0  # answered 409 stale_decision: the second of two sent at once, as meant
    other: Counter[int] = field(default_factory=Counter)  # any other answer (0: none)
    problems: list[str] = field(default_factory=list)

    @property
    def lost_or_twice(self) -> int:
        return len(self.problems)


def check_moves(moves: Iterable[MoveSent], stored: Mapping[int, Sequence[int]]) -> MoveVerdict:
    """Every move answered 200 is in its table's stored moves at its decision, by its seat;
    no decision was acknowledged twice; the database holds no move nobody was told applied
    (``stored``: each table's moves as the seats that made them, in order)."""
    verdict = MoveVerdict()
    acknowledged: dict[tuple[int, int], list[MoveSent]] = defaultdict(list)
    unanswered: Counter[int] = Counter()
    for move in moves:
        if move.status == 200:
            verdict.applied += 1
            acknowledged[move.table, move.decision].append(move)
        elif move.status == 409:
            verdict.stale += 1
        else:
            verdict.other[move.status] += 1
            if move.status == 0:
                unanswered[move.table] += 1
    for (table, decision), answers in sorted(acknowledged.items()):
        seats = stored.get(table, ())
        if len(answers) > 1:
            verdict.problems.append(f"table {table}: decision {decision} was applied "
                                    f"{len(answers)} times (answered 200 to each)")
        if decision >= len(seats):
            verdict.problems.append(f"table {table}: the move of seat {answers[0].seat} at "
                                    f"decision {decision} was acknowledged but is not stored")
        elif seats[decision] != answers[0].seat:
            verdict.problems.append(f"table {table}: decision {decision} is stored as seat "
                                    f"{seats[decision]}'s move, but seat {answers[0].seat}'s "
                                    "was acknowledged")
    for table, seats in sorted(stored.items()):
        told = sum(len(answers) for (t, _), answers in acknowledged.items() if t == table)
        extra = len(seats) - told - unanswered[table]
        if extra > 0:  # a move whose answer never came may be stored: it is not counted
            verdict.problems.append(f"table {table}: {extra} stored moves nobody was told "
                                    "were applied")
    return verdict


def card_ids(document: Any) -> Iterator[str]:
    """Every catalogue id a view holds, wherever it is (cards are named by their id)."""
    if isinstance(document, dict):
        if isinstance(document.get("id"), str):
            yield document["id"]
        for value in document.values():
            yield from card_ids(value)
    elif isinstance(document, list):
        for value in document:
            yield from card_ids(value)


def view_card_ids(view: Any) -> list[str]:
    """The catalogue ids of a view as a check counts them. Its battle (``combat``) names again
    cards that the view shows in play or discarded, so of the battle only the ids the rest of
    the view does not hold are counted (none, unless it names a card it should not)."""
    if not isinstance(view, dict) or not view.get("combat"):
        return list(card_ids(view))
    ids = list(card_ids({key: value for key, value in view.items() if key != "combat"}))
    named = set(ids)
    return ids + [card for card in card_ids(view["combat"]) if card not in named]


def hidden_seen(view: Any, hand: Sequence[str], public: Counter[str]) -> list[str]:
    """The cards of ``view`` that are neither public nor in the viewer's own ``hand`` as the
    server's game holds them: another seat's hand or a draw pile's cards. A copy counts as
    many times as the view holds it beyond what the viewer may see (:func:`view_card_ids`)."""
    return sorted((Counter(view_card_ids(view)) - public - Counter(hand)).elements())


def summary_lines(found: Latencies, verdict: MoveVerdict, hidden: int, views: int,
                  answered_ms: Sequence[float], view_ms: Sequence[float]) -> list[str]:
    def spread(values: Sequence[float]) -> str:
        return "  ".join(f"p{p} {percentile(values, p):.0f}" for p in (50, 95, 99)) \
            + f"  max {max(values, default=float('nan')):.0f}"

    p95 = percentile(found.ms, 95)
    other = ", ".join(f"{n} x {status or 'no answer'}" for status, n in
                      sorted(verdict.other.items())) or "none"
    return [
        f"Moves: {verdict.applied} applied; sent twice at once and refused as stale (409): "
        f"{verdict.stale}; other answers: {other}",
        f"POST of a move to every other seat's `changed` (ms): {spread(found.ms)} "
        f"({len(found.ms)} moves; never told: {found.untold})",
        f"  POST /actions/ answered (ms): {spread(answered_ms)}",
        f"  last other seat told, after the POST's answer (ms): "
        f"{spread(found.after_answer_ms)}",
        f"  GET /view/ answered (ms): {spread(view_ms)}",
        f"Moves lost or applied twice: {verdict.lost_or_twice}",
        *(f"  {problem}" for problem in verdict.problems[:20]),
        f"Hidden cards seen by another seat: {hidden} (in {views} views, each checked against "
        "the hands the server's game held at its decision)",
        f"p95 {p95:.0f} ms against the goal of {GOAL_MS:.0f} ms: "
        f"{'met' if p95 <= GOAL_MS else 'MISSED'}",
    ]
