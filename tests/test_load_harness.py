"""The load run's own logic (bench/load): how answers are classed, the figures table and the
lost-write check. Pure tables: no server, no load (`make load` runs that)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bench.load.lost_writes import Stored, check_writes
from bench.load.records import (
    FAILED,
    OK,
    REFUSED,
    SERVER_ERROR,
    THROTTLED,
    Request,
    Write,
    deck_content,
    etag_version,
    outcome,
)
from bench.load.report import failures, percentile, rows, table
from deploy.stack import nginx_config

EDIT = (409, 412)


@pytest.mark.parametrize("status, refusals, problem, expected", [
    (200, (), "", OK),
    (201, (), "", OK),
    (304, (), "", OK),
    (200, (), "a body that is not JSON", FAILED),
    (409, EDIT, "", REFUSED),
    (412, EDIT, "", REFUSED),
    (409, (), "", FAILED),  # a 409 where no version was sent is a fault
    (428, EDIT, "", FAILED),
    (400, (), "", FAILED),
    (404, (), "", FAILED),
    (429, (), "", THROTTLED),
    (429, EDIT, "", THROTTLED),
    (500, EDIT, "", SERVER_ERROR),
    (502, (), "", SERVER_ERROR),
    (0, (), "", FAILED),  # no answer at all
])
def test_each_answer_is_classed(status: int, refusals: tuple[int, ...], problem: str,
                                expected: str) -> None:
    assert outcome(status, refusals=refusals, problem=problem) == expected


@pytest.mark.parametrize("values, p, expected", [
    (list(range(1, 101)), 50, 50),
    (list(range(1, 101)), 95, 95),
    (list(range(1, 101)), 99, 99),
    (list(range(1, 101)), 100, 100),
    ([7.0], 99, 7.0),
    ([3, 1, 2], 50, 2),
    ([10, 20, 30, 40], 50, 20),  # nearest rank: never halfway between two values
    ([10, 20, 30, 40], 95, 40),
    (list(range(1000, 0, -1)), 99, 990),
])
def test_percentiles_are_nearest_rank(values: list[float], p: float, expected: float) -> None:
    assert percentile(values, p) == expected


def test_no_values_have_no_percentile() -> None:
    assert math.isnan(percentile([], 50))


def request(name: str, status: int, ms: float, kind: str, detail: str = "") -> Request:
    return Request(name, status, ms, 0.0, kind, detail)


def test_the_table_counts_each_endpoint_and_the_total() -> None:
    requests = [
        *(request("GET /cards/[id]/", 200, ms, OK) for ms in range(1, 101)),
        request("PUT /api/decks/[id]/", 200, 30, OK),
        request("PUT /api/decks/[id]/", 409, 10, REFUSED),
        request("PUT /api/decks/[id]/", 412, 20, REFUSED),
        request("PUT /api/decks/[id]/", 500, 40, SERVER_ERROR, "Internal Server Error"),
        request("POST /api/draws/", 429, 5, THROTTLED),
        request("POST /api/draws/", 0, 50, FAILED, "timed out"),
    ]
    found = rows(requests, seconds=10)
    assert [r.name for r in found] == [
        "GET /cards/[id]/", "POST /api/draws/", "PUT /api/decks/[id]/", "total"]
    cards, draws, edits, total = found
    assert (cards.requests, cards.per_second, cards.p50, cards.p95, cards.p99) == (
        100, 10.0, 50, 95, 99)
    assert (edits.requests, edits.refused, edits.server_errors, edits.failed) == (4, 2, 1, 0)
    assert (edits.p50, edits.p99) == (20, 40)
    assert (draws.throttled, draws.failed, draws.server_errors) == (1, 1, 0)
    assert (total.requests, total.server_errors, total.failed, total.refused,
            total.throttled) == (106, 1, 1, 2, 1)
    assert total.per_second == pytest.approx(10.6)
    printed = table(found).splitlines()
    assert printed[0].split()[:3] == ["endpoint", "requests", "req/s"]
    # 106 times: 1..100 and 5, 10, 20, 30, 40, 50; the 53rd smallest is 48
    assert printed[-1].split() == ["total", "106", "10.6", "48", "95", "99", "1", "1", "2", "1"]
    assert failures(requests) == ["1 x PUT /api/decks/[id]/: 500 Internal Server Error",
                                  "1 x POST /api/draws/: 0 timed out"]


@pytest.mark.parametrize("etag, expected", [
    ('"12.5"', 5), ('"3.140"', 140), ("", None), (None, None), ('"12"', None), ('W/"x.y"', None),
])
def test_the_version_is_read_from_a_deck_etag(etag: str | None, expected: int | None) -> None:
    assert etag_version(etag) == expected


# --- the lost-write check -------------------------------------------------------------------


def content(name: str, count: int = 1) -> dict[str, Any]:
    return {"name": name, "sections": {"holdings": [["h1", 1]], "structures": [["s1", count]],
                                       "personalities": [], "wanderers": []}}


V1, V2, V3 = content("one"), content("two", 2), content("three")


def create(deck: int = 1, sent: dict[str, Any] = V1, **fields: Any) -> Write:
    write = Write(deck, "POST", "create", None, False, sent, status=201, new_version=1,
                  etag_version=1, answered=sent)
    return _with(write, fields)


def edit(based_on: int, sent: dict[str, Any], status: int | None, *, deck: int = 1,
         mode: str = "version", **fields: Any) -> Write:
    write = Write(deck, "PUT", mode, based_on, False, sent, status=status)
    if status is None:
        pass  # no answer before the run ended
    elif 200 <= status < 300:
        write.new_version = write.etag_version = based_on + 1
        write.answered = sent
    elif status in (409, 412):
        write.current_version = based_on + 1
    return _with(write, fields)


def _with(write: Write, fields: dict[str, Any]) -> Write:
    for key, value in fields.items():
        setattr(write, key, value)
    return write


def history(*versions: dict[str, Any], deck: int = 1) -> dict[int, Stored]:
    held = dict(enumerate(versions, 1))
    return {deck: Stored(held, len(versions), versions[-1])}


# A clean run: a creation, an accepted edit, a stale edit refused (409), another by If-Match
# refused (412), an edit cut off by the end of the run that did happen, one that did not.
CLEAN = [create(), edit(1, V2, 200), edit(1, V3, 409), edit(1, V3, 412, mode="if-match"),
         edit(2, V3, None), edit(2, content("never"), None)]


def test_a_consistent_run_has_no_lost_write() -> None:
    verdict = check_writes(CLEAN, history(V1, V2, V3))
    assert verdict.problems == []
    assert (verdict.accepted, verdict.unanswered) == (2, 2)
    assert dict(verdict.refused) == {409: 1, 412: 1}


@pytest.mark.parametrize("writes, stored, complaint", [
    pytest.param([create(), edit(1, V2, 200)], history(V1), "which the database does not have",
                 id="an accepted edit missing from the database"),
    pytest.param([create(), edit(1, V2, 200)], history(V1, V3), "is not what was sent",
                 id="an accepted edit saved with other content"),
    pytest.param([create(), edit(1, V2, 200)], history(V2, V2), "is not what was sent",
                 id="a creation overwritten"),
    pytest.param([create(), edit(1, V2, 200), edit(1, V3, 200)], history(V1, V2),
                 "a lost update", id="two edits told they made the same version"),
    pytest.param([create(), edit(1, V2, 200), edit(1, V3, 200, new_version=3,
                                                   etag_version=3)],
                 history(V1, V2, V3), "overwrote versions it never saw",
                 id="a stale edit accepted"),
    pytest.param([create(), edit(1, V2, 409)], history(V1, V2), "a refused edit was saved",
                 id="a refused edit written all the same"),
    pytest.param([create(), edit(1, V2, 412)], history(V1), "a stale version gets 409",
                 id="a stale version field answered 412"),
    pytest.param([create(), edit(1, V2, 409, mode="if-match")], history(V1),
                 "a stale if-match gets 412", id="a stale If-Match answered 409"),
    pytest.param([create(), edit(1, V2, 409, current_version=1)], history(V1),
                 "the problem names version 1", id="a refusal naming the version sent"),
    pytest.param([create(), edit(1, V2, 200, etag_version=3)], history(V1, V2),
                 "its ETag says 3", id="an ETag that disagrees with the body"),
    pytest.param([create(), edit(1, V2, 200, answered=V3)], history(V1, V2),
                 "the answer shows other content", id="an answer showing someone else's edit"),
    pytest.param([create()], {1: Stored({1: V1, 2: V2}, 1, V1)}, "newest saved version is 2",
                 id="a deck row behind its history"),
    pytest.param([create()], {1: Stored({1: V1, 3: V2}, 3, V2)}, "have gaps",
                 id="a gap in the versions"),
])
def test_the_check_finds_each_kind_of_lost_or_wrong_write(
        writes: list[Write], stored: dict[int, Stored], complaint: str) -> None:
    problems = check_writes(writes, stored).problems
    assert any(complaint in p for p in problems), problems


def test_a_server_error_on_a_write_counts_apart_and_may_have_been_saved() -> None:
    writes = [create(), edit(1, V2, 500), edit(1, V3, 502)]
    verdict = check_writes(writes, history(V1, V2))
    assert verdict.problems == []
    assert dict(verdict.other) == {500: 1, 502: 1}


def test_deck_content_reads_api_decks_and_snapshots_alike() -> None:
    api = {"id": 3, "name": "A", "version": 2, "holdings": [{"id": "h", "count": 1, "name": "H"}],
           "structures": [], "personalities": [{"id": "p", "count": 2, "name": "P"}],
           "wanderers": []}
    snapshot = {"name": "A", "players": 4, "description": "", "holdings": [{"id": "h", "count": 1}],
                "structures": [], "personalities": [{"id": "p", "count": 2}], "wanderers": []}
    assert deck_content(api) == deck_content(snapshot) == {"name": "A", "sections": {
        "holdings": [["h", 1]], "structures": [], "personalities": [["p", 2]], "wanderers": []}}


def test_the_proxy_configuration_names_every_server(tmp_path: Any) -> None:
    config = nginx_config(tmp_path, 8080, [9001, 9002])
    assert "listen 127.0.0.1:8080;" in config
    assert "server 127.0.0.1:9001;" in config and "server 127.0.0.1:9002;" in config
    assert "@" not in config.replace("$", "")
