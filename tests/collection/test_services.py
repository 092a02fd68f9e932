"""Collections and sleeved decks in the database: the services, the constraints and the
ownership adapter (decks/services.py, collection/ownership.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from cards.models import Card
from collection.csv_format import Counts
from collection.models import Collection, CollectionEntry
from collection.ownership import allocation_view, deck_ownership, decks_missing, sleeved_allocation
from collection.services import (
    collection_add_set,
    collection_change_owned,
    collection_counts,
    collection_lock,
    collection_of,
    collection_share,
    collection_update,
)
from decks.models import Deck
from decks.services import deck_data, deck_save, deck_set_sleeved
from rules.decklist import DeckEntry, Decklist

pytestmark = pytest.mark.django_db

KEEP, TOWER, HOVEL = "demo-emberhold-keep", "demo-riverside-tenement", "demo-ragpickers-hovel"


@pytest.fixture
def user() -> User:
    return User.objects.create_user("cy")


def set_counts(user: Any, **owned: int) -> Collection:
    with transaction.atomic():
        collection = collection_lock(user)
        counts = {card.replace("_", "-"): Counts(n) for card, n in owned.items()}
        return collection_update(collection=collection, counts=counts)


def make_deck(user: Any, name: str, **needs: int) -> Deck:
    entries = tuple(DeckEntry(card.replace("_", "-"), n) for card, n in needs.items())
    return deck_save(owner=user, data=Decklist(name, structures=entries))


def test_one_more_and_one_fewer_owned_copy(user: User) -> None:
    assert collection_change_owned(owner=user, card_id=KEEP, delta=1) == 1
    assert collection_change_owned(owner=user, card_id=KEEP, delta=1) == 2
    assert collection_change_owned(owner=user, card_id=KEEP, delta=-1) == 1
    assert collection_of(user).version == 4  # created at 1, three changes


def test_the_last_copy_removes_the_card_and_never_goes_below_zero(user: User) -> None:
    collection_change_owned(owner=user, card_id=KEEP, delta=1)
    assert collection_change_owned(owner=user, card_id=KEEP, delta=-1) == 0
    assert not CollectionEntry.objects.filter(card_id=KEEP).exists()
    version = collection_of(user).version
    assert collection_change_owned(owner=user, card_id=KEEP, delta=-1) == 0
    assert collection_of(user).version == version  # nothing changed, no new version


def test_an_update_sets_counts_and_a_replace_removes_every_other_card(user: User) -> None:
    set_counts(user, demo_emberhold_keep=2, demo_riverside_tenement=1)
    with transaction.atomic():
        collection = collection_lock(user)
        collection_update(collection=collection, counts={KEEP: Counts(0, 1, 0)})
    assert collection_counts(collection) == {KEEP: Counts(0, 1, 0), TOWER: Counts(1)}
    with transaction.atomic():
        collection_update(collection=collection_lock(user), counts={HOVEL: Counts(3)},
                          replace=True)
    assert collection_counts(collection) == {HOVEL: Counts(3)}


def test_a_wanted_card_stays_even_with_no_copy_owned(user: User) -> None:
    collection = set_counts(user, demo_emberhold_keep=1)
    with transaction.atomic():
        collection_update(collection=collection_lock(user), counts={KEEP: Counts(0, 2, 0)})
    assert collection_counts(collection) == {KEEP: Counts(0, 2, 0)}


def test_counts_are_never_negative_in_the_database(user: User) -> None:
    set_counts(user, demo_emberhold_keep=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        CollectionEntry.objects.filter(card_id=KEEP).update(want=-1)


@pytest.mark.parametrize("copies", [1, 2])
def test_a_set_helper_adds_copies_of_every_card_of_the_set(user: User, copies: int) -> None:
    set_counts(user, demo_emberhold_keep=1)
    added = collection_add_set(owner=user, set_code="DEMO", copies=copies)
    demo = Card.objects.filter(set__code="DEMO").count()
    assert added == demo
    counts = collection_counts(collection_of(user))
    assert len(counts) == demo and counts[KEEP].owned == 1 + copies
    assert sum(c.owned for c in counts.values()) == demo * copies + 1


def test_a_share_link_is_kept_until_revoked_and_then_never_comes_back(user: User) -> None:
    collection = collection_of(user)
    token = collection_share(collection=collection, shared=True).share_token
    assert token and collection_share(collection=collection, shared=True).share_token == token
    assert collection_share(collection=collection, shared=False).share_token is None
    assert collection_share(collection=collection, shared=True).share_token not in (None, token)


def test_sleeving_a_deck_is_not_a_new_version(user: User) -> None:
    deck = make_deck(user, "A", demo_emberhold_keep=1)
    deck_set_sleeved(deck=deck, sleeved=True)
    deck.refresh_from_db()
    assert deck.sleeved and deck.version == 1 and deck.versions.count() == 1


def test_sleeved_decks_are_served_oldest_first(user: User) -> None:
    set_counts(user, demo_riverside_tenement=3)
    first = make_deck(user, "Z first", demo_riverside_tenement=2)
    second = make_deck(user, "A second", demo_riverside_tenement=2)
    unsleeved = make_deck(user, "Loose", demo_riverside_tenement=1)
    for deck in (second, first):
        deck_set_sleeved(deck=deck, sleeved=True)
    allocation = sleeved_allocation(user)
    assert [(s.deck, dict(s.taken), dict(s.short)) for s in allocation.decks] == [
        (first.pk, {TOWER: 2}, {}), (second.pk, {TOWER: 1}, {TOWER: 1}),
    ]
    assert deck_ownership(user, second, deck_data(second)).missing == 1
    assert deck_ownership(user, first, deck_data(first)).buildable
    assert decks_missing(user, [first, second, unsleeved]) == {
        first.pk: 0, second.pk: 1, unsleeved.pk: 1,
    }
    view = allocation_view(user)
    assert [d.pk for d in view.decks] == [first.pk, second.pk]
    row = next(r for r in view.rows if r.card_id == TOWER)
    assert (row.owned, row.in_decks, row.free, row.short) == (3, (2, 1), 0, 1)
    assert view.shortfalls == ((second, (("Riverside Tenement", 1),)),)


def test_someone_elses_deck_is_measured_against_my_free_copies(user: User) -> None:
    other = User.objects.create_user("dee")
    theirs = make_deck(other, "Theirs", demo_riverside_tenement=2)
    deck_set_sleeved(deck=theirs, sleeved=True)  # their sleeves hold none of my cards
    set_counts(user, demo_riverside_tenement=2)
    assert deck_ownership(user, theirs, deck_data(theirs)).buildable
    mine = make_deck(user, "Mine", demo_riverside_tenement=2)
    deck_set_sleeved(deck=mine, sleeved=True)
    view = deck_ownership(user, theirs, deck_data(theirs))
    assert view.missing == 2 and view.rows[0].elsewhere == 2
