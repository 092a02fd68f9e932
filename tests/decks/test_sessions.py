"""Deck edits as sessions: the builder's edits of one sitting make one version of the history;
Save (with a note), half an hour without an edit, or any other write closes it. The deck's
version number still goes up on every write, so the optimistic checks (the builder's version
field, the API's version and If-Match) work as before."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from decks.models import Deck, DeckVersion
from decks.services import SESSION_IDLE, deck_data, deck_save

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def fresh(deck: Deck) -> Deck:
    return Deck.objects.get(pk=deck.pk)


def edit(client: Client, deck: Deck, action: str, **fields: Any) -> Any:
    deck = fresh(deck)
    answer = client.post(f"/decks/{deck.pk}/edit/{action}/", {"version": deck.version, **fields},
                         headers=HTMX)
    assert answer.status_code == 200, answer.content.decode()[:500]
    return answer


def new_deck(client: Client) -> Deck:
    answer = client.post("/decks/new/")
    return Deck.objects.get(pk=int(re.findall(r"\d+", answer["Location"])[0]))


def history(deck: Deck) -> list[DeckVersion]:
    return list(DeckVersion.objects.filter(deck=deck).order_by("number"))


@pytest.mark.slow
def test_building_a_deck_in_one_sitting_makes_one_version(ada: Client) -> None:
    deck = new_deck(ada)
    sample = deck_data(Deck.objects.get(owner__username="samples", name="Kalim Faithful"))
    presses = 0
    for section in ("holdings", "structures", "personalities", "wanderers"):
        for entry in getattr(sample, section):
            for _ in range(entry.count):
                edit(ada, deck, "add", card=entry.card_id, section=section)
                presses += 1
    edit(ada, deck, "count", card=sample.wanderers[0].card_id, section="wanderers", delta="1")
    edit(ada, deck, "count", card=sample.wanderers[0].card_id, section="wanderers", delta="-1")
    edit(ada, deck, "settings", name="Kalim, built by hand", players="4", visibility="private",
         description="")
    deck = fresh(deck)
    assert deck_data(deck).all_entries() == sample.all_entries()
    assert deck.version == presses + 4  # every write still counts, for the optimistic check
    (version,) = history(deck)
    assert version.number == deck.version and version.open
    assert version.edits == presses + 4
    assert version.summary.endswith(f"{presses} cards added"), version.summary
    assert version.diff["fields"]["name"] == [None, "Kalim, built by hand"]
    page = ada.get(f"/decks/{deck.pk}/history/").content.decode()
    assert page.count('<li class="version"') == 1 and f"{presses + 4} changes" in page
    builder = ada.get(f"/decks/{deck.pk}/edit/").content.decode()
    assert (f"This sitting: one version of the history</strong>, {presses + 4} changes so far"
            in builder) and "This sitting: version" not in builder


def test_save_closes_the_sitting_with_a_note_and_the_next_edit_starts_a_new_version(
        ada: Client) -> None:
    deck = new_deck(ada)
    edit(ada, deck, "add", card="demo-rabid-boar", section="wanderers")
    page = edit(ada, deck, "save", note="  A first wanderer  ").content.decode()
    assert "Saved as version 2 with the note “A first wanderer”" in page
    assert "Your next change starts a new version" in page
    (saved,) = history(deck)
    assert (saved.number, saved.open, saved.note) == (2, False, "A first wanderer")
    edit(ada, deck, "add", card="demo-bog-hag", section="wanderers")
    edit(ada, deck, "add", card="demo-bog-hag", section="wanderers")
    first, second = history(deck)
    assert first == saved and (second.number, second.open, second.edits) == (4, True, 2)
    assert second.diff["cards"] == [{"section": "wanderers", "card": "demo-bog-hag",
                                     "before": 0, "after": 2}]  # from version 2, not 3
    again = edit(ada, deck, "save").content.decode()
    assert "Saved as version 4." in again
    nothing = edit(ada, deck, "save").content.decode()
    assert "Nothing new to save: version 4 is in the history." in nothing
    history_page = ada.get(f"/decks/{deck.pk}/history/").content.decode()
    assert "“A first wanderer”" in history_page
    # The goldfish comparison of a version is with the version before it, whatever its number.
    assert f'name="a" value="{deck.pk}:2"' in history_page


def ages(minutes: int) -> Callable[[Deck, Client], None]:
    def wait(deck: Deck, client: Client) -> None:
        DeckVersion.objects.filter(deck=deck).update(
            updated_at=timezone.now() - timedelta(minutes=minutes))
    return wait


def api_write(deck: Deck, client: Client) -> None:
    deck = fresh(deck)
    answer = client.patch(f"/api/decks/{deck.pk}/", {"players": 3, "version": deck.version},
                          content_type="application/json")
    assert answer.status_code == 200


def restore(deck: Deck, client: Client) -> None:
    answer = client.post(f"/decks/{deck.pk}/v/1/restore/", {"version": fresh(deck).version})
    assert answer.status_code == 302


def saved(deck: Deck, client: Client) -> None:
    edit(client, deck, "save")


@pytest.mark.parametrize(("between", "versions"), [
    (ages(5), [1, 3]),  # a pause: the same sitting
    (ages(int(SESSION_IDLE.total_seconds() // 60) - 1), [1, 3]),
    (ages(int(SESSION_IDLE.total_seconds() // 60) + 1), [1, 2, 3]),  # left: a new sitting
    (saved, [1, 2, 3]),
    (api_write, [1, 2, 3, 4]),  # the API write has its own version, and ends the sitting
    (restore, [1, 2, 3, 4]),  # so has a restore
], ids=["5 min", "29 min", "31 min", "saved", "an API write", "a restore"])
def test_what_ends_a_sitting(ada: Client, between: Callable[[Deck, Client], None],
                             versions: list[int]) -> None:
    owner = User.objects.get(username="ada")
    deck = deck_save(owner=owner, data=deck_data(
        Deck.objects.get(owner__username="samples", name="Kalim Faithful")))  # version 1
    edit(ada, deck, "add", card="demo-bog-hag", section="wanderers")  # version 2, open
    between(deck, ada)
    edit(ada, deck, "add", card="demo-bog-hag", section="wanderers")
    assert [v.number for v in history(deck)] == versions
    assert [v.open for v in history(deck)] == [False] * (len(versions) - 1) + [True]


def test_the_optimistic_checks_are_unchanged_inside_a_sitting(ada: Client) -> None:
    deck = new_deck(ada)
    edit(ada, deck, "add", card="demo-bog-hag", section="wanderers")
    stale = ada.post(f"/decks/{deck.pk}/edit/add/", {"version": 1, "card": "demo-rabid-boar",
                                                     "section": "wanderers"}, headers=HTMX)
    assert stale.status_code == 409
    stale_save = ada.post(f"/decks/{deck.pk}/edit/save/", {"version": 1}, headers=HTMX)
    assert stale_save.status_code == 409 and history(deck)[0].open
    api = ada.get(f"/api/decks/{deck.pk}/")
    assert api.json()["version"] == 2 and api["ETag"] == f'"{deck.pk}.2"'
    refused = ada.patch(f"/api/decks/{deck.pk}/", {"players": 3}, content_type="application/json",
                        headers={"If-Match": f'"{deck.pk}.1"'})
    assert refused.status_code == 412
    # The API lists the deck's versions: the sitting is one, numbered as the deck is now.
    assert [v["number"] for v in ada.get(f"/api/decks/{deck.pk}/versions/").json()] == [2]


def test_a_sitting_is_the_author_s_and_each_api_write_its_own_version(ada: Client) -> None:
    owner = User.objects.get(username="ada")
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    deck = deck_save(owner=owner, data=deck_data(sample))
    for players in (3, 4, 5):
        api_write_players(ada, deck, players)
    assert [v.number for v in history(deck)] == [1, 2, 3, 4]
    assert not any(v.open for v in history(deck))


def api_write_players(client: Client, deck: Deck, players: int) -> None:
    deck = fresh(deck)
    answer = client.patch(f"/api/decks/{deck.pk}/", {"players": players, "version": deck.version},
                          content_type="application/json")
    assert answer.status_code == 200


def test_visibility_changed_and_changed_back_in_a_sitting_is_no_change(ada: Client) -> None:
    deck = new_deck(ada)
    edit(ada, deck, "add", card="demo-bog-hag", section="wanderers")
    settings = {"name": "New deck", "players": "4", "description": ""}
    edit(ada, deck, "settings", visibility="public", **settings)
    (version,) = history(deck)
    assert version.diff["fields"]["visibility"] == ["private", "public"]
    assert version.summary.startswith("visibility changed")
    edit(ada, deck, "settings", visibility="private", **settings)
    (version,) = history(deck)
    assert "visibility" not in version.diff["fields"]
    assert "visibility" not in version.summary


def test_the_builder_shows_the_sitting_and_its_save_button(ada: Client) -> None:
    deck = new_deck(ada)
    page = ada.get(f"/decks/{deck.pk}/edit/").content.decode()
    assert "This sitting: one version of the history" in page and 'id="session-save"' in page
    assert 'placeholder="Note (optional)"' in page
    edit(ada, deck, "save", note="empty on purpose")
    page = ada.get(f"/decks/{deck.pk}/edit/").content.decode()
    assert 'id="session-save"' not in page
    assert "Version 1 is in the" in page and "“empty on purpose”" in page


def test_a_brand_new_deck_starts_at_version_1_with_no_changes_listed(ada: Client) -> None:
    deck = new_deck(ada)
    (version,) = history(deck)
    assert version.number == 1 and version.summary == "new deck"
    page = ada.get(f"/decks/{deck.pk}/history/").content.decode()
    assert "changed" not in page and 'class="field-changes' not in page
    imported = deck_save(owner=User.objects.get(username="ada"), data=deck_data(
        Deck.objects.get(owner__username="samples", name="Kalim Faithful")))
    assert history(imported)[0].summary == "new deck, 54 cards added"


def test_the_first_sitting_of_a_new_deck_says_new_deck_not_fields_changed(ada: Client) -> None:
    deck = new_deck(ada)
    edit(ada, deck, "add", card="demo-rabid-boar", section="wanderers")
    (version,) = history(fresh(deck))
    assert version.summary == "new deck, 1 card added"
