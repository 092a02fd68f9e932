"""The card list cache (cards/api/list_cache.py): a repeated request is answered from the
shared cache without a query, a catalogue change is seen at once, and one user's personal
answers (own:, want:, trade:) never reach anyone else."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cards.api import search_cache
from cards.api.caching import Validators
from cards.api.list_cache import CachedList, PackedFileCache
from cards.api.views import CardViewSet
from cards.card_search import CardSearch
from cards.models import Card
from collection.csv_format import Counts
from collection.services import collection_lock, collection_update

pytestmark = pytest.mark.django_db

KEEP, TOWER, HOVEL = "demo-emberhold-keep", "demo-riverside-tenement", "demo-ragpickers-hovel"


def ids(response: Any) -> list[str]:
    assert response.status_code == 200, response.content[:300]
    return [card["id"] for card in response.json()["results"]]


def give(username: str, counts: dict[str, Counts]) -> None:
    with transaction.atomic():
        collection_update(collection=collection_lock(User.objects.get(username=username)),
                          counts=counts)


@pytest.mark.parametrize("query", ["", "t:troop f:kalim", "bowman", "o:/exhaust(s)? target/",
                                   "kw:fleetfoot order:cost"])
def test_a_repeated_request_is_answered_without_a_query(
    client: Client, django_assert_num_queries: Any, query: str,
) -> None:
    first = client.get("/api/cards/", {"q": query, "page_size": "20"})
    with django_assert_num_queries(0):
        again = client.get("/api/cards/", {"q": query, "page_size": "20"})
    assert again.content == first.content
    assert again["ETag"] == first["ETag"] and again["Content-Type"] == first["Content-Type"]
    assert again["Last-Modified"] == first["Last-Modified"]
    with django_assert_num_queries(0):
        unchanged = client.get("/api/cards/", {"q": query, "page_size": "20"},
                               headers={"If-None-Match": first["ETag"]})
    assert unchanged.status_code == 304


def test_each_page_and_each_query_is_its_own_answer(client: Client) -> None:
    first = ids(client.get("/api/cards/", {"q": "set:demo", "page_size": "5"}))
    second = ids(client.get("/api/cards/", {"q": "set:demo", "page_size": "5", "page": "2"}))
    other = ids(client.get("/api/cards/", {"q": "set:wof", "page_size": "5"}))
    assert len({*first, *second, *other}) == 15
    assert ids(client.get("/api/cards/", {"q": "set:demo", "page_size": "5"})) == first


def test_a_catalogue_change_is_seen_at_once(client: Client) -> None:
    before = client.get("/api/cards/", {"q": "set:demo", "page_size": "250"}).json()
    card = Card.objects.get(pk=KEEP)
    card.name = "Zzz Renamed Keep"
    card.save()
    after = client.get("/api/cards/", {"q": "set:demo", "page_size": "250"}).json()
    assert after["results"][-1]["name"] == "Zzz Renamed Keep"
    assert [c["name"] for c in before["results"]] != [c["name"] for c in after["results"]]
    assert client.get("/api/cards/", {"q": '!"Zzz Renamed Keep"'}).json()["count"] == 1


def test_the_browsable_api_is_never_kept(ada: Client) -> None:
    # It shows who is signed in: rendered for each request.
    page = ada.get("/api/cards/", {"q": "set:demo"}, headers={"Accept": "text/html"})
    assert page.status_code == 200 and b"ada" in page.content
    assert b"ada" not in Client().get("/api/cards/", {"q": "set:demo"},
                                      headers={"Accept": "text/html"}).content


def test_personal_answers_never_reach_another_user(ada: Client, bob: Client) -> None:
    give("ada", {KEEP: Counts(2), TOWER: Counts(1)})
    give("bob", {HOVEL: Counts(3)})
    for _ in range(2):  # the second round is answered from the cache
        assert set(ids(ada.get("/api/cards/", {"q": "own>=1"}))) == {KEEP, TOWER}
        assert ids(bob.get("/api/cards/", {"q": "own>=1"})) == [HOVEL]
        assert Client().get("/api/cards/", {"q": "own>=1"}).status_code == 400


def test_a_personal_answer_follows_its_owners_changes(ada: Client) -> None:
    give("ada", {KEEP: Counts(2), TOWER: Counts(1)})
    assert set(ids(ada.get("/api/cards/", {"q": "own>=1"}))) == {KEEP, TOWER}
    give("ada", {TOWER: Counts(0)})
    assert ids(ada.get("/api/cards/", {"q": "own>=1"})) == [KEEP]


def test_a_signed_in_users_plain_search_is_the_same_answer(ada: Client) -> None:
    assert ada.get("/api/cards/", {"q": "set:demo"}).json() == \
        Client().get("/api/cards/", {"q": "set:demo"}).json()


@pytest.fixture
def compiled(monkeypatch: Any) -> list[str]:
    """The text of every search compiled to SQL during the test, in order (written directly
    or through Django's lookups)."""
    texts: list[str] = []
    compile_search = CardViewSet._compiled_ids

    def counted(self: CardViewSet, search: CardSearch, filtered: bool) -> Any:
        texts.append(search.text)
        return compile_search(self, search, filtered)

    monkeypatch.setattr(CardViewSet, "_compiled_ids", counted)
    return texts


@pytest.mark.parametrize("params", [
    {"page": "2", "page_size": "5"},  # another page
    {"page_size": "7"},  # another page size
    {"signed_in": "ada"},  # another asker
])
def test_a_query_compiled_before_is_not_compiled_again(
    client: Client, ada: Client, compiled: list[str], params: dict[str, str],
) -> None:
    query = {"q": "(t:troop or t:citizen) cost<=3", "faction": "kalim"}
    client.get("/api/cards/", {**query, "page_size": "5"})
    asker = ada if params.pop("signed_in", None) else client
    again = asker.get("/api/cards/", {**query, "page_size": "5", **params}).json()
    assert compiled == [query["q"]]
    caches["card_lists"].clear()
    search_cache.forget_searches()
    assert Client().get("/api/cards/", {**query, "page_size": "5", **params}).json() == again
    assert compiled == [query["q"], query["q"]]


def test_a_name_search_that_lists_many_ids_is_not_kept(
    client: Client, monkeypatch: Any, compiled: list[str],
) -> None:
    monkeypatch.setattr(search_cache, "MOST_PARAMETERS", 3)
    for page_size in ("5", "6"):
        client.get("/api/cards/", {"q": "a", "page_size": page_size})  # many names have an a
        client.get("/api/cards/", {"q": "f:kalim", "page_size": page_size})  # one value
    assert compiled == ["a", "f:kalim", "a"]


def test_a_personal_search_is_compiled_for_its_owner_alone(ada: Client, bob: Client) -> None:
    give("ada", {KEEP: Counts(2), TOWER: Counts(1)})
    give("bob", {HOVEL: Counts(3)})
    assert set(ids(ada.get("/api/cards/", {"q": "own>=1", "page_size": "5"}))) == {KEEP, TOWER}
    # Another page size: no kept answer, and ada's compiled search holds her id.
    assert ids(bob.get("/api/cards/", {"q": "own>=1", "page_size": "6"})) == [HOVEL]
    assert Client().get("/api/cards/", {"q": "own>=1", "page_size": "7"}).status_code == 400
    give("ada", {TOWER: Counts(0)})
    assert ids(ada.get("/api/cards/", {"q": "own>=1", "page_size": "8"})) == [KEEP]


def test_a_catalogue_change_drops_the_compiled_name_searches(client: Client) -> None:
    assert client.get("/api/cards/", {"q": "zzzrenamed"}).json()["count"] == 0
    card = Card.objects.get(pk=KEEP)
    card.name = "Zzzrenamed Keep"
    card.save()
    assert ids(client.get("/api/cards/", {"q": "zzzrenamed", "page_size": "5"})) == [KEEP]


@pytest.mark.parametrize(("query", "most"), [
    ("", 4),  # the catalogue's revision, the count, the page and the page's keywords
    ("bowman", 4),
    ("kw:fleetfoot order:cost", 4),
    ("o:/exhaust(s)? target/ or t:troop", 4),
    ("((t:troop off>=3) or (t:citizen fi>=2)) -(f:mosfin is:unique)", 4),
    ("is:reaction has:image set:demo", 4),
    ("zzzqqq", 4),  # nothing found: the names to suggest are kept per revision
])
def test_a_search_request_makes_a_bounded_number_of_queries(
    client: Client, django_assert_max_num_queries: Any, query: str, most: int,
) -> None:
    client.get("/api/cards/", {"q": "warm up the per-revision name lists"})
    with django_assert_max_num_queries(most):
        response = client.get("/api/cards/", {"q": query})
    assert response.status_code == 200


def test_a_personal_search_adds_one_query_for_the_users_collection(
    ada: Client, django_assert_max_num_queries: Any,
) -> None:
    give("ada", {KEEP: Counts(2)})
    # the session and the user, the revision, the collection's version, count, page, keywords
    with django_assert_max_num_queries(7):
        assert ids(ada.get("/api/cards/", {"q": "own>=1"})) == [KEEP]


def test_every_cards_count_comes_with_the_revision_and_follows_a_change(client: Client) -> None:
    before = client.get("/api/cards/", {"page_size": "5"}).json()["count"]
    assert before == Card.objects.count()
    keep = Card.objects.get(pk=KEEP)
    Card.objects.create(id="zzz-new-keep", name="Zzz New Keep", set=keep.set, type=keep.type)
    assert client.get("/api/cards/", {"page_size": "5"}).json()["count"] == before + 1
    assert client.get("/api/cards/", {"page_size": "5", "page": "2"}).json()["count"] == before + 1
    Card.objects.get(pk="zzz-new-keep").delete()
    assert client.get("/api/cards/", {"page_size": "5"}).json()["count"] == before


def test_a_search_counted_before_is_not_counted_again_until_the_catalogue_changes(
    client: Client,
) -> None:
    def counts(params: dict[str, str]) -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            body = client.get("/api/cards/", {"q": "off>=0", **params}).json()
        return body["count"], sum(counts_cards(q["sql"]) for q in queries.captured_queries)

    total, asked = counts({"page_size": "5"})
    assert asked == 1 and total == Card.objects.filter(offense__gte=0).count()
    assert counts({"page_size": "5", "page": "2"}) == (total, 0)  # another page
    assert counts({"page_size": "7"}) == (total, 0)  # another page size
    keep = Card.objects.get(pk=KEEP)
    Card.objects.create(id="zzz-new-keep", name="Zzz New Keep", set=keep.set, type=keep.type,
                        offense=1)
    assert counts({"page_size": "5", "page": "3"}) == (total + 1, 1)


@pytest.mark.parametrize(("params", "counted"), [
    ({"q": "t:troop f:kalim"}, False),  # a first page that is not full: its length is the count
    ({"q": "zzzqqq"}, False),
    ({"q": "t:troop f:kalim", "page_size": "1"}, True),  # a full first page: counted
    ({"q": "off>=0", "page": "2", "page_size": "5"}, True),  # a later page: counted
    ({"q": "", "page": "2", "page_size": "5"}, False),  # every card: read with the revision
    ({"q": "", "set": "demo", "page": "2", "page_size": "5"}, True),  # a filter: counted
])
def test_the_count_is_asked_only_when_the_page_cannot_give_it(
    client: Client, params: dict[str, str], counted: bool,
) -> None:
    client.get("/api/cards/", {"q": "warm up the per-revision name lists"})
    with CaptureQueriesContext(connection) as queries:
        body = client.get("/api/cards/", params).json()
    counts = [q["sql"] for q in queries.captured_queries if counts_cards(q["sql"])]
    assert bool(counts) is counted, counts
    matching = Card.objects.filter(id__in=[c["id"] for c in body["results"]]).count()
    assert matching == len(body["results"])
    expected = Client().get("/api/cards/", {**params, "page_size": "250", "page": "1"}).json()
    assert body["count"] == expected["count"] == len(expected["results"]), body["count"]


def counts_cards(sql: str) -> bool:
    """Whether a statement of a card list counted the cards: a COUNT(*) of its own, or on
    PostgreSQL the first page's statement (IdsCountedBy), whose count PostgreSQL runs only when
    the page is full; EXPLAIN ANALYZE of the statement again says whether it ran."""
    if sql.startswith("SELECT COUNT(*)"):
        return True
    if not sql.startswith("SELECT page.id") or "COUNT(*)" not in sql:
        return False
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) {sql}")
        plan = "\n".join(line for (line,) in cursor.fetchall())
    assert "InitPlan" in plan, plan
    return "never executed" not in plan


def test_the_file_cache_keeps_an_answer_as_django_s_file_cache_reads_it(tmp_path: Any) -> None:
    options = {"TIMEOUT": 60, "OPTIONS": {"MAX_ENTRIES": 10}}
    packed = PackedFileCache(str(tmp_path), options)
    body = b'{"count":1,"results":[' + b'{"name":"Emberhold Keep"},' * 200 + b"{}]}"
    entry = CachedList.of(body, "application/json", Validators('"tag"', 1), None)
    packed.set("answer", entry)
    read_back = packed.get("answer")
    assert isinstance(read_back, CachedList) and read_back.body == body
    assert FileBasedCache(str(tmp_path), options).get("answer") == entry
    (written,) = [path for path in tmp_path.iterdir() if path.suffix == ".djcache"]
    with written.open("rb") as file:
        pickle.load(file)  # the expiry
        assert file.read(2) == b"\x78\x01"  # zlib's header for level 0: not compressed again


def test_the_file_cache_lists_its_folder_seldom_and_stays_near_its_size(
    tmp_path: Any, monkeypatch: Any,
) -> None:
    packed = PackedFileCache(str(tmp_path), {"TIMEOUT": 60, "OPTIONS": {"MAX_ENTRIES": 80}})
    listings = []
    list_files = packed._list_cache_files  # type: ignore[attr-defined]

    def counted() -> list[str]:
        listings.append(1)
        return list_files()

    monkeypatch.setattr(packed, "_list_cache_files", counted)
    for n in range(20):
        packed.set(f"answer-{n}", b"{}")
    assert len(listings) == 2  # once per 80 / 8 writes
    for n in range(20, 400):
        packed.set(f"answer-{n}", b"{}")
        assert len(list(tmp_path.glob("*.djcache"))) <= 2 * 80
    assert packed.get("answer-399") == b"{}"
    assert len(listings) == 400 / 10
