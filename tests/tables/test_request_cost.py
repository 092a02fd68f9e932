"""What a table's requests cost in SQL (docs/tables.md "Load"): a seat's view reads the table's
row, its seats, talk and trades kept at the table's version (tables.kept_rows), and its token
only when the process has not kept it (accounts.token_authentication); a move adds the locked
row, its seats and one update: every write reads the table's row once, locked. And what the
kept rows show is what the database holds, after every kind of change.

Real commits, as in production, where a write's transaction ends before its answer is made
(the game and the rows it kept are there for the answer's view)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from accounts import token_authentication
from accounts.token_authentication import TokenCache
from tables import services
from tests.tables.calls import SAMPLES, post, sample

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# The table's row, and the token's unless the process keeps it (API_TOKEN_CACHE_SECONDS).
VIEW_QUERIES = 1
# In the write's transaction the table locked (its only read of the table), its seats and one
# update (and on SQLite its BEGIN and COMMIT, which Django counts); the answer's view reads
# nothing more. The token's read besides when it is not kept.
MOVE_QUERIES = 5
TOKEN_QUERIES = {"kept": 0, "read every time": 1}


def token_client(name: str) -> Client:
    user = User.objects.create_user(name)
    return Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")


def three_people() -> tuple[list[Client], int]:
    people = [token_client(name) for name in ("ada", "bob", "cy")]
    made = post(people[0], "/api/tables/", {"deck": sample(SAMPLES[0]), "seats": 3,
                                             "seed": 4, "target": 15})
    table = made.json()
    for number, guest in enumerate(people[1:], start=1):
        joined = post(guest, f"/api/tables/{table['id']}/join/",
                      {"invite": table["invite"], "deck": sample(SAMPLES[number])})
        assert joined.status_code == 200, joined.content
    assert post(people[0], f"/api/tables/{table['id']}/start/").status_code == 200
    return people, table["id"]


def views(people: list[Client], table_id: int) -> list[dict[str, Any]]:
    return [client.get(f"/api/tables/{table_id}/view/").json() for client in people]


def mover(people: list[Client], table_id: int) -> tuple[Client, dict[str, Any]]:
    seen = views(people, table_id)
    seat = seen[0]["to_move"][0]
    return people[seat], seen[seat]


def move(client: Client, table_id: int, seen: dict[str, Any]) -> Any:
    index = next(a["index"] for a in seen["legal_actions"] if a["policy"])
    return post(client, f"/api/tables/{table_id}/actions/",
                {"index": index, "decision": seen["decision"]})


@pytest.fixture
def stopped_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tokens kept per process on a clock that stands still: kept for the whole test."""
    monkeypatch.setattr(token_authentication, "tokens", TokenCache(clock=lambda: 0.0))


@pytest.mark.parametrize("tokens", TOKEN_QUERIES)
def test_a_move_and_every_seats_view_after_it_stay_within_their_queries(
        django_assert_max_num_queries: Any, settings: Any, stopped_clock: None,
        tokens: str) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 10 if tokens == "kept" else 0
    token = TOKEN_QUERIES[tokens]
    people, table_id = three_people()
    for _ in range(3):
        client, seen = mover(people, table_id)
        with django_assert_max_num_queries(MOVE_QUERIES + token):
            moved = move(client, table_id, seen)
        assert moved.status_code == 200 and moved.json()["decision"] == seen["decision"] + 1
        for other in people:
            with django_assert_max_num_queries(VIEW_QUERIES + token):
                assert other.get(f"/api/tables/{table_id}/view/").status_code == 200


def table_reads(run: Any) -> tuple[Any, int]:
    """What ``run`` answers, and how many times it read the table's row."""
    with CaptureQueriesContext(connection) as queries:
        answer = run()
    return answer, sum(q["sql"].startswith("SELECT") and 'FROM "tables_table" ' in q["sql"]
                       for q in queries.captured_queries)


def test_every_write_reads_the_table_s_row_once_the_locked_read() -> None:
    people, table_id = three_people()
    url = f"/api/tables/{table_id}/"
    on_the_page = Client()
    on_the_page.force_login(User.objects.get(username="bob"))
    dan = token_client("dan")
    open_table = post(people[0], "/api/tables/", {"deck": sample(SAMPLES[0]), "seats": 2,
                                                  "seed": 4, "target": 15}).json()
    writes = [
        ("talk", lambda: post(people[1], f"{url}chat/", {"text": "good luck"})),
        ("offer", lambda: post(people[0], f"{url}offers/", {"to": 2, "give": {"economic": 1},
                                                           "take": {"political": 1}})),
        ("answer", lambda: post(people[2], f"{url}offers/1/decline/")),
        ("talk on the page", lambda: on_the_page.post(f"/tables/{table_id}/chat/",
                                                      {"text": "hi"}, HTTP_HX_REQUEST="true")),
        ("seat taking", lambda: post(dan, f"/api/tables/{open_table['id']}/join/",
                                     {"invite": open_table["invite"],
                                      "deck": sample(SAMPLES[1])})),
    ]
    client, seen = mover(people, table_id)
    for what, write in [("move", lambda: move(client, table_id, seen)), *writes]:
        views(people, table_id)
        answer, reads = table_reads(write)
        assert answer.status_code in (200, 201), (what, answer.content)
        assert reads == 1, what


def test_the_kept_rows_show_what_the_database_holds_after_every_kind_of_change() -> None:
    people, table_id = three_people()
    url = f"/api/tables/{table_id}/"

    def as_read_afresh() -> None:
        kept = views(people, table_id)
        services.ROWS.clear()
        assert views(people, table_id) == kept

    def a_move() -> Any:
        client, seen = mover(people, table_id)
        return move(client, table_id, seen)

    changes = [
        a_move,
        lambda: post(people[1], f"{url}chat/", {"text": "good luck"}),
        lambda: post(people[0], f"{url}offers/", {"to": 2, "give": {"economic": 1},
                                                  "take": {"political": 1}}),
        lambda: post(people[2], f"{url}offers/1/decline/"),
        lambda: post(people[1], f"{url}surrender/"),
    ]
    for change in changes:
        views(people, table_id)  # every seat has read the version before
        assert change().status_code in (200, 201)
        as_read_afresh()
    seen = views(people, table_id)
    assert [line["text"] for line in seen[0]["chat"]] == ["good luck"]
    assert [offer["status"] for offer in seen[2]["offers"]] == ["declined"]
    assert seen[1]["seats"][1]["out"] is not None
