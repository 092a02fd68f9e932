"""The collection keys own, want and trade: parsed, explained, compiled against the signed-in
user's collection, and refused without one."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client

from cards.card_search import SearchError, card_search
from cards.models import Card
from cards.search.explain import explain
from cards.search.parser import SearchError as ParseError
from cards.search.parser import Term, parse
from collection.csv_format import Counts
from collection.search_keys import FIELDS as COLLECTION_FIELDS
from collection.services import collection_lock, collection_update

KEEP, TOWER, HOVEL = "demo-emberhold-keep", "demo-riverside-tenement", "demo-ragpickers-hovel"
ADA = {KEEP: Counts(2, 0, 1), TOWER: Counts(1, 0, 0), HOVEL: Counts(0, 1, 0)}
BOB = {HOVEL: Counts(3, 0, 0)}
OPS: dict[str, Callable[[int, int], bool]] = {
    ":": operator.eq, "=": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


def give(user: Any, counts: dict[str, Counts]) -> None:
    with transaction.atomic():
        collection_update(collection=collection_lock(user), counts=counts)


def found(query: str, user: Any) -> set[str]:
    search = card_search(query, user=user)
    return set(search.apply(Card.objects.all()).values_list("id", flat=True))


# --- pure: parsing and explaining ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "explained"),
    [
        ("own>=1", "cards where the number of copies you own is at least 1, sorted by name"),
        ("owned=0", "cards where the number of copies you own is 0, sorted by name"),
        ("-own>=2", "cards where the number of copies you own is not at least 2, sorted by name"),
        ("want>0 t:troop", "cards where the number of copies you want is greater than 0 and the "
                           "card is a troop, sorted by name"),
        ("trade!=1", "cards where the number of copies you have for trade is not 1, sorted by "
                     "name"),
    ],
)
def test_collection_terms_read_as_english(query: str, explained: str) -> None:
    assert explain(parse(query)) == explained


@pytest.mark.parametrize(
    ("query", "code"),
    [("own>=x", "bad_value"), ("own>off", "bad_value"), ("own:/1/", "bad_value"),
     ("own>=99999", "bad_value"), ("off>own", "bad_value")],
)
def test_collection_terms_take_whole_numbers_only(query: str, code: str) -> None:
    with pytest.raises(ParseError) as raised:
        parse(query)
    assert raised.value.code == code


def test_a_collection_key_parses_to_a_term() -> None:
    assert parse("own>=1").root == Term("own", ">=", "1", False, 0, 6)


# --- against the database -----------------------------------------------------------------------

@pytest.fixture
def users(db: None) -> tuple[User, User]:
    ada, bob = User.objects.create_user("ada"), User.objects.create_user("bob")
    give(ada, ADA)
    give(bob, BOB)
    return ada, bob


def oracle(query: str, counts: dict[str, Counts]) -> set[str]:
    """What a single term `key OP n` should find, over every card: missing cards count 0."""
    term = parse(query).root
    assert isinstance(term, Term)
    column = {"own": "owned", "want": "want", "trade": "trade"}[term.key]
    everything = Card.objects.values_list("id", flat=True)
    return {
        card_id for card_id in everything
        if OPS[term.op](getattr(counts.get(card_id, Counts()), column), int(term.value))
    }


TERMS = ["own>=1", "own>=2", "own=1", "own:0", "own<2", "own<=0", "own>0", "own!=1", "own!=0",
         "want>0", "want=0", "trade>=1", "trade<1"]


@pytest.mark.parametrize("query", TERMS)
def test_each_user_searches_their_own_collection(users: tuple[User, User], query: str) -> None:
    ada, bob = users
    assert found(query, ada) == oracle(query, ADA)
    assert found(query, bob) == oracle(query, BOB)


@pytest.mark.parametrize("query", TERMS)
def test_a_negated_collection_term_is_the_exact_complement(users: tuple[User, User],
                                                          query: str) -> None:
    ada, _ = users
    everything = set(Card.objects.values_list("id", flat=True))
    assert found(f"-{query}", ada) == everything - found(query, ada)


def test_collection_terms_combine_with_the_rest_of_the_language(users: tuple[User, User]) -> None:
    ada, bob = users
    assert found("own>=1 or want>=1", ada) == {KEEP, TOWER, HOVEL}
    assert found("own>=1 t:wanderer", ada) == set()
    assert found("own>=1 -(trade>0)", ada) == {TOWER}
    assert found("own>=3", bob) == {HOVEL} and found("own>=3", ada) == set()


@pytest.mark.parametrize("f", COLLECTION_FIELDS, ids=lambda f: f.name)
def test_every_collection_example_finds_cards(users: tuple[User, User], f: Any) -> None:
    ada, _ = users
    for example in f.examples:
        assert found(example, ada), example


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "position", "length"),
    [("own>=1", 0, 6), ("t:troop -want>0", 9, 6), ("(f:kalim or trade>=1)", 12, 8)],
)
def test_without_a_signed_in_user_collection_keys_are_refused(query: str, position: int,
                                                              length: int) -> None:
    with pytest.raises(SearchError) as raised:
        card_search(query)
    error = raised.value
    assert (error.code, error.position, error.length) == ("needs_sign_in", position, length)
    assert "log in" in error.message


@pytest.mark.django_db
def test_the_api_refuses_collection_keys_to_anonymous_visitors(client: Client) -> None:
    response = client.get("/api/cards/", {"q": "own>=1"})
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "needs_sign_in"


@pytest.mark.django_db
def test_the_api_answers_each_user_from_their_collection(ada: Client, bob: Client) -> None:
    ada_user, bob_user = User.objects.get(username="ada"), User.objects.get(username="bob")
    give(ada_user, ADA)
    give(bob_user, BOB)
    mine = ada.get("/api/cards/", {"q": "own>=1"})
    theirs = bob.get("/api/cards/", {"q": "own>=1"})
    assert {c["id"] for c in mine.json()["results"]} == {KEEP, TOWER}
    assert [c["id"] for c in theirs.json()["results"]] == [HOVEL]
    assert mine["ETag"] != theirs["ETag"] and "Last-Modified" not in mine
    # A change to the collection changes the answer: the old ETag is no longer current.
    give(ada_user, {TOWER: Counts(0)})
    again = ada.get("/api/cards/", {"q": "own>=1"}, headers={"If-None-Match": mine["ETag"]})
    assert again.status_code == 200 and [c["id"] for c in again.json()["results"]] == [KEEP]


@pytest.mark.django_db
def test_the_search_page_offers_the_collection_filters_to_signed_in_users(
        ada: Client, client: Client) -> None:
    page = ada.get("/cards/", {"q": "own>=1"}).content.decode()
    assert "Only cards I own" in page and 'aria-current="true"><span>Only cards I own' in page
    anonymous = Client()
    assert "Only cards I own" not in anonymous.get("/cards/").content.decode()
    refused = anonymous.get("/cards/", {"q": "own>=1"})
    assert refused.status_code == 400 and "to search your collection" in refused.content.decode()
