"""The review pages: the list of edits and its filters, one edit's page (diff, source, scan,
votes and whether each counts, competing edits, conflicts), voting, cancelling, staff actions,
reverts, my edits, a card's history, the guide; and what the edits add to the deck page and the
home page. Made-up values only (the TST set)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.throttling import ScopedRateThrottle

from accounts.fingerprints import fingerprint_of
from decks.formats.text import parse_text
from decks.models import Deck
from decks.services import catalogue_resolver, deck_save
from edits.models import Edit, Vote
from edits.services import edit_propose, edit_vote
from tests.edits.makers import client_for, make_user


def propose(editor: User, card: str = "tst-unknown-tower", **changes: Any) -> Edit:
    return edit_propose(editor=editor, source="my own copy of the card", card=card,
                        changes=changes or {"cost_generic": 3})


def html_of(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.content[:500]
    return response.content.decode()


def test_the_list_shows_open_edits_and_filters_by_set_card_editor_and_status() -> None:
    ada, bob = make_user("ada"), make_user("bob")
    first = propose(ada)
    second = propose(bob, "tst-lamplighter", vitality=4)
    edit_propose(editor=make_user("staff", staff=True), source="copy",
                 card="tst-lamplighter", changes={"artist": "Someone"})  # applied at once
    client = Client()
    page = html_of(client, "/edits/")
    assert f"#{first.pk} Unknown Tower" in page and f"#{second.pk} Lamplighter" in page
    assert "Someone" not in page and "2 edits." in page
    assert "#1 " not in html_of(client, "/edits/?editor=bob").replace(f"#{second.pk} ", "")
    assert f"#{first.pk} " not in html_of(client, "/edits/?card=tst-lamplighter")
    assert "3 edits." in html_of(client, "/edits/?status=all&set=tst")
    assert "1 edit." in html_of(client, "/edits/?status=applied")
    assert "0 edits." in html_of(client, "/edits/?set=wof")


@pytest.mark.parametrize(("card", "found"), [
    ("tst-lamplighter", ["Lamplighter"]),  # an id, as before
    ("Lamplighter", ["Lamplighter"]),  # a name
    ("lamp", ["Lamplighter"]),  # part of it, any case
    ("tower unknown", ["Unknown Tower"]),  # every word, any order
    ("arrival", ["New card: New Arrival"]),  # a new card's proposed name
    ("no such card", []),
])
def test_the_queue_filters_by_a_cards_name_or_id(card: str, found: list[str]) -> None:
    propose(make_user("ada"))
    propose(make_user("bob"), "tst-lamplighter", vitality=4)
    edit_propose(editor=make_user("cy"), source="the checklist", new_card={
        "id": "tst-new-arrival", "name": "New Arrival", "set": "TST", "number": "3",
        "type": "event"})
    page = html_of(Client(), f"/edits/?card={card.replace(' ', '+')}")
    titles = re.findall(r'class="edit-title" href="/edits/\d+/">#\d+ ([^<]+)</a>', page)
    assert titles == found
    assert f'name="card" value="{card}"' in page and "<label for=\"filter-card\">Card</label>" \
        in page


def test_my_edits_lists_mine_whatever_their_status(client: Client) -> None:
    assert client.get("/edits/mine/")["Location"].startswith("/accounts/login/")
    ada = make_user("ada")
    mine = propose(ada)
    propose(make_user("bob"), "tst-lamplighter", vitality=4)
    page = html_of(client_for(ada), "/edits/mine/")
    assert f"#{mine.pk} Unknown Tower" in page and "Lamplighter" not in page


def test_an_edit_s_page_shows_the_diff_its_source_and_who_voted(client: Client) -> None:
    edit = propose(make_user("ada"), "tst-lamplighter", vitality=5, quotation="Made up.")
    edit_vote(edit=edit, voter=make_user("old"), vote="approve", note="matches my copy")
    edit_vote(edit=edit, voter=make_user("newcomer", days_old=1), vote="approve")
    page = html_of(client, f"/edits/{edit.pk}/")
    assert "<del>3</del>" in page and "<ins>5</ins>" in page
    assert "<del>unknown</del>" in page and "<ins>Made up.</ins>" in page
    assert "my own copy of the card" in page and "matches my copy" in page
    assert "1 of 2 approvals that count" in page
    assert page.count('<span class="tag">does not count</span>') == 1  # the newcomer's
    assert "Log in" in page and 'name="vote"' not in page


def test_two_approvals_apply_an_edit_through_the_page() -> None:
    edit = propose(make_user("ada"))
    for name, address in (("bob", "10.0.1.1"), ("cy", "10.0.2.1")):  # two people, two places
        response = client_for(make_user(name), address).post(f"/edits/{edit.pk}/vote/",
                                                             {"vote": "approve", "note": ""})
        assert response.status_code == 302 and response["Location"] == f"/edits/{edit.pk}/"
    edit.refresh_from_db()
    assert edit.status == Edit.APPLIED
    page = html_of(Client(), "/cards/tst-unknown-tower/")
    assert f'href="/edits/{edit.pk}/"' in page  # the card page says where the value came from


def test_a_rejection_needs_a_note_said_beside_the_form() -> None:
    edit = propose(make_user("ada"))
    bob = client_for(make_user("bob"))
    response = bob.post(f"/edits/{edit.pk}/vote/", {"vote": "reject", "note": ""})
    assert response.status_code == 400
    assert "is required with a rejection" in response.content.decode()
    assert not Vote.objects.exists()
    bob.post(f"/edits/{edit.pk}/vote/", {"vote": "reject", "note": "the cost is 4"})
    assert Vote.objects.get().note == "the cost is 4"


def test_the_editor_cannot_vote_but_may_cancel() -> None:
    ada = make_user("ada")
    edit = propose(ada)
    mine = client_for(ada)
    page = html_of(mine, f"/edits/{edit.pk}/")
    assert "Cancel this edit" in page and "Approve" not in page
    assert mine.post(f"/edits/{edit.pk}/vote/", {"vote": "approve"}).status_code == 403
    assert client_for(make_user("bob")).post(f"/edits/{edit.pk}/cancel/").status_code == 403
    mine.post(f"/edits/{edit.pk}/cancel/")
    edit.refresh_from_db()
    assert edit.status == Edit.CANCELLED


def test_an_unverified_account_is_told_to_verify_before_voting(settings: Any) -> None:
    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = True
    edit = propose(make_user("staff", staff=True) and make_user("ada", staff=True))
    Edit.objects.filter(pk=edit.pk).update(status=Edit.OPEN)
    bob = client_for(make_user("bob"))
    assert "Verify your e-mail address first" in html_of(bob, f"/edits/{edit.pk}/")
    response = bob.post(f"/edits/{edit.pk}/vote/", {"vote": "approve"})
    assert response.status_code == 403 and 'href="/accounts/"' in response.content.decode()


def test_votes_past_the_throttle_say_when_to_retry(settings: Any,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    rates = dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "1/hour")
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    first, second = propose(make_user("ada")), propose(make_user("cy"), "tst-lamplighter",
                                                       vitality=9)
    bob = client_for(make_user("bob"))
    bob.post(f"/edits/{first.pk}/vote/", {"vote": "approve"})
    response = bob.post(f"/edits/{second.pk}/vote/", {"vote": "approve"})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "Wait" in response.content.decode()


def test_staff_apply_and_reject_from_the_page() -> None:
    staff = client_for(make_user("staff", staff=True))
    edit, other = propose(make_user("ada")), propose(make_user("bob"), "tst-lamplighter",
                                                     vitality=9)
    assert "Apply now" in html_of(staff, f"/edits/{edit.pk}/")
    staff.post(f"/edits/{edit.pk}/apply/", {"note": ""})
    assert staff.post(f"/edits/{other.pk}/reject/", {"note": ""}).status_code == 400
    staff.post(f"/edits/{other.pk}/reject/", {"note": "vitality is 3 on my copy"})
    assert Edit.objects.get(pk=edit.pk).status == Edit.APPLIED
    assert Edit.objects.get(pk=other.pk).status == Edit.REJECTED
    assert "vitality is 3 on my copy" in html_of(Client(), f"/edits/{other.pk}/")
    assert client_for(make_user("cy")).post(f"/edits/{other.pk}/apply/").status_code == 403


def test_an_applied_edit_is_reverted_by_an_edit_of_its_own() -> None:
    staff = make_user("staff", staff=True)
    edit = edit_propose(editor=staff, source="copy", card="tst-unknown-tower",
                        changes={"cost_generic": 3})
    assert edit.status == Edit.APPLIED
    bob = client_for(make_user("bob"))
    assert "Propose a revert" in html_of(bob, f"/edits/{edit.pk}/")
    response = bob.post(f"/edits/{edit.pk}/revert/", {"note": "wrong card"})
    revert = Edit.objects.get(reverts=edit)
    assert response["Location"] == f"/edits/{revert.pk}/"
    assert revert.changes == {"cost_generic": None} and revert.status == Edit.OPEN
    page = html_of(bob, f"/edits/{revert.pk}/")
    assert f"reverts <a href=\"/edits/{edit.pk}/\">edit #{edit.pk}</a>" in page


def test_competing_edits_are_shown_side_by_side() -> None:
    first = propose(make_user("ada"), cost_generic=3)
    second = propose(make_user("bob"), cost_generic=4)
    page = html_of(Client(), f"/edits/{first.pk}/")
    assert "Competing edits" in page and f"Edit #{second.pk}" in page
    row = re.search(r"Generic cost</th>(.*?)</tr>", page.split("Competing edits", 1)[1], re.S)
    assert row is not None and re.findall(r"<td>([^<]*)</td>", row.group(1)) == [
        "unknown", "3", "4"]


def test_a_card_s_history_lists_its_applied_edits_with_their_sources(client: Client) -> None:
    staff = make_user("staff", staff=True)
    edit = edit_propose(editor=staff, source="https://example.org/tower", card="tst-unknown-tower",
                        changes={"cost_generic": 3})
    waiting = propose(make_user("ada"), residencies=2)
    page = html_of(client, "/cards/tst-unknown-tower/history/")
    assert f"Edit #{edit.pk}</a>" in page and '<a href="https://example.org/tower"' in page
    assert f"Edit #{waiting.pk}</a>" in page and "waiting for review" in page
    assert "Generic cost" in page
    html_of(client, "/cards/no-such-card/history/", status=404)


def test_the_guide_is_the_contributor_s_doc_with_its_parts_to_link_to(client: Client) -> None:
    page = html_of(client, "/edits/guide/")
    for part in ("how-to-transcribe-a-card", "what-counts-as-a-source", "review",
                 "how-to-scan-a-card-well"):
        assert f'id="{part}"' in page, part
    assert "<script" not in page.split("<main", 1)[1]


def test_the_deck_page_lists_the_cards_that_keep_it_from_goldfish() -> None:
    text = "# Trial\nInitial Holdings\n1 Ariam's Temple\nPersonality Pile\n2 Acormis Winters\n"
    result = parse_text(text, catalogue_resolver())
    assert result.deck is not None
    deck = deck_save(owner=make_user("ada"), data=result.deck, visibility=Deck.PUBLIC)
    page = html_of(Client(), f"/decks/{deck.pk}/")
    assert "Cards to complete before goldfish and playtest" in page
    assert 'href="/cards/wof-acormis-winters/improve/"' in page
    assert 'href="/cards/wof-ariams-temple/improve/"' in page
    sample = Deck.objects.filter(owner__username="samples").first()
    assert sample is not None
    assert "Cards to complete" not in html_of(Client(), f"/decks/{sample.pk}/")


def test_the_home_page_shows_the_set_s_progress_and_the_cards_most_needed() -> None:
    text = "# Trial\nPersonality Pile\n2 Amena Huur\n"
    result = parse_text(text, catalogue_resolver())
    assert result.deck is not None
    deck_save(owner=make_user("ada"), data=result.deck)
    page = html_of(Client(), "/")
    assert "0 of 220 fully transcribed" in page
    needed = page.split("Cards most needed", 1)[1]
    first = re.search(r'<li><a href="([^"]+)">([^<]+)</a> <span class="small muted">([^<]+)',
                      needed)
    assert first is not None
    assert first.groups() == ("/cards/wof-amena-huur/improve/", "Amena Huur",
                              "WOF · in 1 deck · 16 unknown fields")


def test_an_edit_older_than_the_vote_window_reads_as_expired() -> None:
    edit = propose(make_user("ada"))
    Edit.objects.filter(pk=edit.pk).update(created_at=timezone.now() - dt.timedelta(days=60))
    from edits.services import edits_expire

    edits_expire()
    page = html_of(Client(), f"/edits/{edit.pk}/")
    assert "Expired" in page and "Your review" not in page


def test_staff_see_on_the_edit_page_who_voted_from_where_and_others_do_not() -> None:
    ada, bob, carol = make_user("ada"), make_user("bob"), make_user("carol", days_old=1)
    staff = make_user("staff", staff=True)
    edit = edit_propose(editor=ada, source="my own copy of the card", card="tst-unknown-tower",
                        changes={"cost_generic": 3}, client=fingerprint_of("127.0.0.1"))
    # bob votes from the editor's address (the test client's): recorded, shown, not counted.
    assert client_for(bob).post(f"/edits/{edit.pk}/vote/", {"vote": "approve"}).status_code \
        in (200, 302)
    edit_vote(edit=edit, voter=carol, vote=Vote.APPROVE)
    staff_page = html_of(client_for(staff, "10.0.0.9"), f"/edits/{edit.pk}/")
    assert "who voted, and from where" in staff_page
    assert "editor_address" in staff_page and "new_account" in staff_page
    assert "the editor (address)" in staff_page
    other_page = html_of(client_for(make_user("dave"), "10.0.0.8"), f"/edits/{edit.pk}/")
    assert "who voted, and from where" not in other_page and "does not count" in other_page


def _card_png() -> bytes:
    import io

    from cards.images.face import render_face
    from tests.edits.makers import card

    buffer = io.BytesIO()
    render_face(card("tst-lamplighter").as_data()).save(buffer, "PNG")
    return buffer.getvalue()


def test_a_scan_backed_edit_shows_each_part_s_values_under_that_part_of_the_scan() -> None:
    edit = edit_propose(editor=make_user("ada"), card="tst-lamplighter",
                        changes={"defense": 3, "name": "Lamplighter", "artist": "Ilse Varga"},
                        source="the attached scan", scan=_card_png())
    html = html_of(Client(), f"/edits/{edit.pk}/")
    parts = re.findall(r'<span class="part-title">([^<]+)</span>', html)
    assert parts == ["Name bar", "Stat boxes", "Collector line"]
    for part in ("name", "stats", "collector"):
        assert f'class="region-scan region-scan-{part}"' in html
    stats = html.split('class="part-title">Stat boxes')[1].split("</tbody>")[0]
    assert "Defense" in stats and "Artist" not in stats


def test_an_edit_without_a_scan_lists_its_values_as_one_table() -> None:
    html = html_of(Client(), f"/edits/{propose(make_user('ada'), defense=3).pk}/")
    assert "part-title" not in html and "Defense" in html


def test_a_reviewer_approves_a_batch_of_one_editor_s_cards_from_one_page() -> None:
    ada = make_user("ada")
    first = edit_propose(editor=ada, card="tst-lamplighter", changes={"defense": 3},
                         source="the attached scan", scan=_card_png())
    second = propose(ada, defense=4)
    other = propose(make_user("cy"), "tst-lamplighter", vitality=2)
    bob = client_for(make_user("bob"))
    page = html_of(bob, "/edits/by/ada/")
    assert f'name="edit" value="{first.pk}"' in page and f'value="{second.pk}"' in page
    assert f'value="{other.pk}"' not in page  # another editor's
    assert 'class="region-scan region-scan-stats"' in page  # the scan-backed one, by part
    answer = bob.post("/edits/by/ada/", {"edit": [str(first.pk), str(second.pk)],
                                         "note": "matches the scans"})
    assert answer.status_code == 302
    assert set(Vote.objects.filter(voter__username="bob").values_list("edit_id", flat=True)) \
        == {first.pk, second.pk}
    assert "You have voted on this edit" in html_of(bob, "/edits/by/ada/")


def test_the_batch_page_refuses_an_empty_batch_and_the_editor_s_own_votes() -> None:
    ada = make_user("ada")
    edit = propose(ada, defense=4)
    bob = client_for(make_user("bob"))
    assert bob.post("/edits/by/ada/", {}).status_code == 400
    own = client_for(ada)
    assert 'name="edit"' not in html_of(own, "/edits/by/ada/")
    answer = own.post("/edits/by/ada/", {"edit": [str(edit.pk)]})
    assert answer.status_code == 403 and not Vote.objects.exists()
    assert Client().post("/edits/by/ada/", {"edit": [str(edit.pk)]}).status_code == 302


def test_the_list_leads_to_the_batch_page_of_each_open_edit_s_editor() -> None:
    # The batch page was reached only from an edit's own page: a reviewer of a binder page's
    # nine cards opened them one by one from the list.
    ada = make_user("ada")
    propose(ada, defense=4)
    applied = propose(make_user("cy"), "tst-lamplighter", vitality=2)
    Edit.objects.filter(pk=applied.pk).update(status=Edit.APPLIED)
    html = html_of(Client(), "/edits/?status=")
    assert 'href="/edits/by/ada/">review ada\'s open edits together</a>' in html
    assert "/edits/by/cy/" not in html  # nothing of cy's is open
