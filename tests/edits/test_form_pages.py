"""The edit form's pages: "Improve this card" and "Add a missing card" laid out as the card is
printed, what a POST proposes (empty stays unknown), errors beside their fields with nothing
lost, conflicts, values read from a scan that must be confirmed, the face preview, throttles and
refusals. The values are made up (the TST set, tests/edits/makers.py), never a real card's."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.test import Client
from PIL import Image
from rest_framework.throttling import ScopedRateThrottle

from cards.images.face import render_face
from cards.images.ocr import ocr_available
from edits.card_form import detail_readings, new_card_id
from edits.models import Edit, EditScan
from edits.services import edit_apply
from tests.edits.makers import card, client_for, make_user

SOURCE = {"source_kind": "own"}


def page_of(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


def shown_fields(html: str) -> set[str]:
    return set(re.findall(r'id="f-([a-z_]+)"', html))


def posted(client: Client, url: str, values: dict[str, Any], status: int | None = None) -> Any:
    response = client.post(url, values)
    if status is not None:
        assert response.status_code == status, response.content.decode()[:3000]
    return response


def form_values(card_id: str) -> dict[str, str]:
    """What the form posts for the card as it is: every field it shows, as shown."""
    data = card(card_id).as_data()
    from edits.card_form import CHANGE, form_for, with_all_fields

    form = with_all_fields(form_for(data, mode=CHANGE))
    values = {"card": card_id, "before": form.before_json()}
    for region in form.regions().values():
        for field in region.fields:
            values[field.key] = field.raw
    return values


# The layout.

def test_the_form_shows_the_fields_printed_on_the_card_s_type_grouped_as_printed(
        client: Client) -> None:
    stronghold = page_of(client, "/cards/wof-ariams-temple/improve/")
    fields = shown_fields(stronghold)
    assert {"name", "unique", "cost_generic", "residencies", "vitality", "offense", "defense",
            "abilities", "quotation", "number", "rarity", "artist"} <= fields
    assert not fields & {"cost_economic", "faction_influence", "race", "profession", "bounty"}
    for part in ("Name bar", "Type line", "Text box", "Stat boxes", "Collector line"):
        assert f"<legend>{part}</legend>" in stronghold
    personality = shown_fields(page_of(client, "/cards/wof-acormis-winters/improve/"))
    assert {"cost_economic", "cost_religious", "cost_political", "faction", "race", "gender",
            "profession", "faction_influence", "strength_political"} <= personality
    assert "cost_generic" not in personality and "residencies" not in personality


def test_the_form_is_prefilled_with_what_is_known_and_links_the_guide(client: Client) -> None:
    html = page_of(client, "/cards/tst-lamplighter/improve/")
    assert 'name="name" value="Lamplighter"' in html
    assert 'name="offense" value="1"' in html
    assert 'name="bounty"' not in html  # a personality prints no bounty
    assert "/edits/guide/" in html
    assert 'src="data:image/webp;base64,' in html  # the face drawn from the form's values


def test_a_new_card_form_asks_every_field_and_takes_the_number_from_the_checklist(
        client: Client) -> None:
    html = page_of(client, "/sets/wof/add/?number=17")
    assert 'name="number" value="17"' in html
    assert {"cost_generic", "bounty", "offense", "profession"} <= shown_fields(html)
    assert 'name="number" value=""' in page_of(client, "/sets/wof/add/?number=999")


# Proposing.

def test_a_change_proposes_the_fields_changed_and_empty_stays_unknown(ada: Any) -> None:
    values = {**form_values("tst-unknown-tower"), "cost_generic": "3", "residencies": "",
              "artist": " A. Painter ", **SOURCE, "note": "read in good light"}
    response = posted(ada, "/cards/tst-unknown-tower/improve/", values, 302)
    edit = Edit.objects.get()
    assert response["Location"] == f"/edits/{edit.pk}/"
    assert edit.changes == {"cost_generic": 3, "artist": "A. Painter"}
    assert edit.before == {"cost_generic": None, "artist": None}
    assert edit.source == "my own copy of the card" and edit.note == "read in good light"


def test_a_zero_is_a_value_and_a_question_mark_is_unknown(ada: Any) -> None:
    values = {**form_values("tst-unknown-tower"), "cost_generic": "0", "residencies": "?",
              **SOURCE}
    posted(ada, "/cards/tst-unknown-tower/improve/", values, 302)
    assert Edit.objects.get().changes == {"cost_generic": 0}


def test_none_printed_is_an_empty_text_not_unknown(ada: Any) -> None:
    values = {**form_values("tst-unknown-tower"), "none_quotation": "1", **SOURCE}
    posted(ada, "/cards/tst-unknown-tower/improve/", values, 302)
    assert Edit.objects.get().changes == {"quotation": ""}


@pytest.mark.parametrize(("source", "expected"), [
    ({"source_kind": "web", "source_url": "https://example.org/card"}, "https://example.org/card"),
    ({"source_kind": "checklist", "source_checklist": "starter deck insert"},
     "a printed checklist: starter deck insert"),
    ({"source_kind": "other", "source_other": "a friend's binder"}, "a friend's binder"),
])
def test_each_kind_of_source_is_written_as_words(ada: Any, source: dict[str, str],
                                                 expected: str) -> None:
    posted(ada, "/cards/tst-unknown-tower/improve/",
           {**form_values("tst-unknown-tower"), "cost_generic": "2", **source}, 302)
    assert Edit.objects.get().source == expected


@pytest.mark.parametrize(("source", "message"), [
    ({}, "say where the facts come from"),
    ({"source_kind": "web", "source_url": "example"}, "starting with https://"),
    ({"source_kind": "other", "source_other": " "}, "say what the source is"),
    ({"source_kind": "scan"}, "attach the scan"),
])
def test_a_missing_source_is_refused_and_nothing_typed_is_lost(
        ada: Any, source: dict[str, str], message: str) -> None:
    values = {**form_values("tst-unknown-tower"), "cost_generic": "4", "note": "keep me",
              **source}
    html = posted(ada, "/cards/tst-unknown-tower/improve/", values, 400).content.decode()
    assert message in html
    assert 'name="cost_generic" value="4"' in html and "keep me" in html
    assert not Edit.objects.exists()


def test_errors_are_shown_beside_their_fields(ada: Any) -> None:
    values = {**form_values("tst-unknown-tower"), "cost_generic": "three", "residencies": "500",
              **SOURCE}
    html = posted(ada, "/cards/tst-unknown-tower/improve/", values, 400).content.decode()
    assert 'id="f-cost_generic-error"' in html and "must be a whole number" in html
    assert 'name="cost_generic" value="three"' in html
    assert not Edit.objects.exists()
    values["cost_generic"] = "3"
    html = posted(ada, "/cards/tst-unknown-tower/improve/", values, 400).content.decode()
    # The service's own check (the card data contract), beside the field it names.
    assert 'id="f-residencies-error"' in html and "out of range" in html


def test_a_form_that_changes_nothing_says_so(ada: Any) -> None:
    html = posted(ada, "/cards/tst-lamplighter/improve/",
                  {**form_values("tst-lamplighter"), **SOURCE}, 400).content.decode()
    assert "Nothing was changed" in html


def test_a_card_changed_since_the_form_was_opened_is_a_conflict_then_proposed_again(
        ada: Any) -> None:
    seen = form_values("tst-unknown-tower")
    staff = make_user("staff", staff=True)
    from edits.services import edit_propose

    edit_propose(editor=staff, source="staff copy", card="tst-unknown-tower",
                 changes={"cost_generic": 5})
    values = {**seen, "cost_generic": "6", **SOURCE}
    response = posted(ada, "/cards/tst-unknown-tower/improve/", values, 409)
    html = response.content.decode()
    assert "The card has changed since you opened this form" in html
    assert 'name="cost_generic" value="6"' in html
    assert Edit.objects.filter(editor__username="ada").count() == 0
    before = re.search(r'name="before" value="([^"]*)"', html)
    assert before is not None
    values["before"] = before.group(1).replace("&quot;", '"')
    posted(ada, "/cards/tst-unknown-tower/improve/", values, 302)
    assert Edit.objects.get(editor__username="ada").changes == {"cost_generic": 6}


def test_a_conflicting_edit_can_be_proposed_again_from_its_page(ada: Any) -> None:
    from edits.services import edit_propose

    mine = edit_propose(editor=make_user("ada2"), source="copy", card="tst-unknown-tower",
                        changes={"cost_generic": 1})
    edit_propose(editor=make_user("staff", staff=True), source="copy",
                 card="tst-unknown-tower", changes={"cost_generic": 2})
    html = page_of(ada, f"/edits/{mine.pk}/")
    assert "Propose again" in html
    again = page_of(ada, f"/cards/tst-unknown-tower/improve/?from={mine.pk}")
    assert 'name="cost_generic" value="1"' in again and f"edit #{mine.pk}" in again


def test_a_new_card_is_proposed_with_its_id_made_from_the_name(ada: Any) -> None:
    values = {"set": "TST", "name": "Glass Bell", "type": "structure", "number": "3",
              "cost_generic": "2", **SOURCE}
    posted(ada, "/sets/tst/add/", values, 302)
    edit = Edit.objects.get()
    assert edit.kind == Edit.NEW_CARD and edit.card_slug == "tst-glass-bell"
    assert edit.changes["number"] == "3" and edit.changes["cost_generic"] == 2
    assert "offense" not in edit.changes  # empty: unknown, left out
    taken = posted(ada, "/sets/tst/add/", {**values, "name": "Lamplighter"}, 400)
    assert "already in the catalogue" in taken.content.decode()
    named = posted(ada, "/sets/tst/add/",
                   {**values, "name": "Lamplighter", "new_id": "tst-lamplighter-kalim"}, 302)
    assert named.status_code == 302
    assert new_card_id("WOF", "Bowman's Hut!") == "wof-bowmans-hut"


def test_a_visitor_is_sent_to_log_in_and_an_unverified_account_is_told_how_to_verify(
        client: Client, settings: Any) -> None:
    values = {**form_values("tst-unknown-tower"), "cost_generic": "3", **SOURCE}
    response = posted(client, "/cards/tst-unknown-tower/improve/", values, 302)
    assert response["Location"].startswith("/accounts/login/")
    assert "log in" in page_of(client, "/cards/tst-unknown-tower/improve/")
    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = True
    young = client_for(make_user("young"))
    html = posted(young, "/cards/tst-unknown-tower/improve/", values, 403).content.decode()
    assert "Verify your e-mail address first" in html and 'href="/accounts/"' in html
    assert 'name="cost_generic" value="3"' in html


def test_past_the_throttle_the_form_says_when_to_retry_and_keeps_the_values(
        ada: Any, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rates = dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "1/hour")
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    values = {**form_values("tst-unknown-tower"), "cost_generic": "3", **SOURCE}
    posted(ada, "/cards/tst-unknown-tower/improve/", values, 302)
    response = posted(ada, "/cards/tst-unknown-tower/improve/",
                      {**values, "cost_generic": "4"}, 429)
    html = response.content.decode()
    assert int(response["Retry-After"]) > 0
    assert "Too many edits proposed" in html and "minutes" in html
    assert 'name="cost_generic" value="4"' in html


# Values read from a scan.

def marked(values: dict[str, str], key: str, read: str) -> dict[str, str]:
    return {**values, key: read, f"read_{key}": read, f"confidence_{key}": "0.9"}


def test_values_read_from_a_scan_must_be_confirmed_or_corrected(ada: Any) -> None:
    values = marked({**form_values("tst-unknown-tower"), **SOURCE}, "cost_generic", "3")
    html = posted(ada, "/cards/tst-unknown-tower/improve/", values, 400).content.decode()
    assert "was read from the scan: check it against the card" in html  # beside the field
    assert "1 value read from the scan is not checked yet" in html  # in the summary
    assert "Read from the scan: check" in html
    assert not Edit.objects.exists()
    posted(ada, "/cards/tst-unknown-tower/improve/", {**values, "confirm_cost_generic": "1"},
           302)
    assert Edit.objects.get().changes == {"cost_generic": 3}
    Edit.objects.all().delete()
    posted(ada, "/cards/tst-unknown-tower/improve/", {**values, "cost_generic": "8"}, 302)
    assert Edit.objects.get().changes == {"cost_generic": 8}  # corrected: the person's value


def test_the_detail_line_is_split_into_race_gender_and_profession() -> None:
    assert detail_readings("Human - Male : Priest", 1.0, "personality") == {
        "race": ("Human", 0.9), "gender": ("Male", 0.9), "profession": ("Priest", 0.9)}
    assert detail_readings("Troll · Male", 1.0, "wanderer") == {
        "race": ("Troll", 0.9), "gender": ("Male", 0.9)}
    assert detail_readings("Race ? · Male · Profession ?", 1.0, "personality") == {
        "gender": ("Male", 0.9)}
    # The dots lost: the gender word parts the race from the profession.
    assert detail_readings("Human Male Priest", 1.0, "personality") == {
        "race": ("Human", 0.9), "gender": ("Male", 0.9), "profession": ("Priest", 0.9)}
    assert detail_readings("Human Priest", 1.0, "personality") == {}
    assert detail_readings("Requires religious strength 3", 1.0, "invocation") == {}


def png_of(data: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    render_face(data).save(buffer, "PNG")
    return buffer.getvalue()


MADE_UP_TOWER = {"id": "tst-unknown-tower", "name": "Unknown Tower", "set": "TST",
                 "type": "structure", "subtype": "general", "cost_generic": 2, "residencies": 3,
                 "abilities": "Fortify.", "official": False}


@pytest.mark.skipif(ocr_available() is not None, reason=str(ocr_available()))
def test_a_scan_is_read_into_the_form_and_attached_to_the_edit(ada: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("tower.png", png_of(MADE_UP_TOWER), "image/png")
    response = ada.post("/edits/scan/", {**form_values("tst-unknown-tower"), "scan": upload})
    assert response.status_code == 200, response.content[:1000]
    html = response.content.decode()
    assert "Scan attached" in html and 'hx-swap-oob="true"' in html
    assert 'name="read_cost_generic" value="2"' in html
    assert 'name="read_residencies" value="3"' in html
    token = re.search(r'name="scan_token" value="([0-9a-f]{32})"', html)
    assert token is not None
    values = {**form_values("tst-unknown-tower"), "scan_token": token.group(1),
              "source_kind": "scan"}
    for key, read in re.findall(r'name="read_([a-z_]+)" value="([^"]*)"', html):
        values.update({key: read, f"read_{key}": read, f"confirm_{key}": "1"})
    posted(ada, "/cards/tst-unknown-tower/improve/", values, 302)
    edit = Edit.objects.get()
    assert edit.changes["cost_generic"] == 2 and edit.source == "the scan attached to this edit"
    assert EditScan.objects.filter(edit=edit).exists()
    image_url = f"/edits/scan/{token.group(1)}/normal.webp"
    assert ada.get(image_url).status_code == 404  # the pending copy is gone once attached


def test_without_tesseract_the_scan_is_kept_and_the_page_says_so(
        ada: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from cards.images import intake, ocr
    from edits.views import form as form_views

    def unavailable(image: Any) -> Any:
        raise ocr.OcrUnavailable("Tesseract is not installed: install it")

    monkeypatch.setattr(intake, "read_card", unavailable)
    monkeypatch.setattr(form_views, "ocr_unavailable", lambda: "Tesseract is not installed")
    assert "Reading scans is unavailable on this server" in page_of(
        ada, "/cards/tst-unknown-tower/improve/")
    upload = SimpleUploadedFile("tower.png", png_of(MADE_UP_TOWER), "image/png")
    html = ada.post("/edits/scan/", {**form_values("tst-unknown-tower"),
                                     "scan": upload}).content.decode()
    assert "Scan attached" in html and "the text could not be read" in html
    assert "read_" not in html


def test_a_file_that_is_not_an_image_is_refused_in_the_scan_s_place(ada: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("notes.png", b"not an image at all", "image/png")
    response = ada.post("/edits/scan/", {**form_values("tst-unknown-tower"), "scan": upload})
    assert response.status_code == 400
    assert "This file was refused" in response.content.decode()


def test_another_user_s_pending_scan_is_not_theirs_to_see(ada: Any) -> None:
    from edits.pending_scans import pending_scan_store

    token = pending_scan_store(user_id=make_user("bob").pk,
                               renditions={"normal": b"x", "large": b"y"})
    assert ada.get(f"/edits/scan/{token}/normal.webp").status_code == 404
    assert client_for(make_user("visitor")).get("/edits/scan/zz/normal.webp").status_code == 404


# The face preview.

def test_the_preview_draws_the_face_and_redraws_the_fields_of_a_new_type(ada: Any) -> None:
    values = {**form_values("tst-unknown-tower"), "layout": "structure|"}
    html = ada.post("/edits/face/", {**values, "cost_generic": "4"}).content.decode()
    assert html.startswith('<img src="data:image/webp;base64,')
    assert "hx-swap-oob" not in html  # the type did not change: the fields stay as they are
    html = ada.post("/edits/face/", {**values, "type": "personality"}).content.decode()
    assert 'id="slot-stats" class="slot slot-stats" data-hx-swap-oob="true"' in html
    assert 'id="f-faction_influence"' in html and 'id="f-residencies"' not in html
    assert 'name="layout" value="personality|"' in html
    face = Image.open(io.BytesIO(__import__("base64").b64decode(
        html.split("base64,", 1)[1].split('"', 1)[0])))
    assert face.size == (488, 681)


def test_an_applied_edit_shows_on_the_card_page_with_its_source(ada: Any) -> None:
    values = {**form_values("tst-unknown-tower"), "cost_generic": "3", **SOURCE}
    posted(ada, "/cards/tst-unknown-tower/improve/", values, 302)
    edit_apply(edit=Edit.objects.get(), user=make_user("staff", staff=True))
    html = page_of(Client(), "/cards/tst-unknown-tower/")
    assert "Where each fact came from" in html
    assert f'href="/edits/{Edit.objects.get().pk}/"' in html
    assert "my own copy of the card" in html and "Improve this card" in html


@pytest.mark.skipif(ocr_available() is not None, reason=str(ocr_available()))
def test_without_javascript_the_read_button_reads_the_scan_into_the_page(ada: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("tower.png", png_of(MADE_UP_TOWER), "image/png")
    response = ada.post("/cards/tst-unknown-tower/improve/",
                        {**form_values("tst-unknown-tower"), "scan": upload, "action": "read"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Improve Unknown Tower</h1>" in html and "Scan attached" in html
    assert 'name="read_cost_generic" value="2"' in html and not Edit.objects.exists()


def test_scans_never_submitted_are_swept_after_a_day() -> None:
    import os
    import time

    from django.core.files.storage import default_storage

    from edits.pending_scans import pending_scan_path, pending_scan_store, pending_scans_sweep

    user = make_user("ada")
    old = pending_scan_store(user_id=user.pk, renditions={"normal": b"1", "large": b"old"})
    new = pending_scan_store(user_id=user.pk, renditions={"normal": b"2", "large": b"new"})
    two_days_ago = time.time() - 2 * 86400
    for size in ("normal", "large"):
        path = pending_scan_path(user_id=user.pk, token=old, size=size)
        assert path is not None
        os.utime(default_storage.path(path), (two_days_ago, two_days_ago))
    assert pending_scans_sweep() == 2
    assert pending_scan_path(user_id=user.pk, token=old) is None
    assert pending_scan_path(user_id=user.pk, token=new) is not None


@pytest.mark.parametrize(("field", "value", "message"), [
    ("quotation", "q" * 500_000, "is 500,000 characters; the limit is 4,000"),
    ("abilities", "E Worship. " * 400_000, "the limit is 4,000"),
    ("offense", "-1", "-1 is out of range (0..99)"),
])
def test_the_preview_refuses_what_a_proposal_would_before_drawing(
        ada: Any, monkeypatch: pytest.MonkeyPatch, field: str, value: str, message: str) -> None:
    # Issue 34, finding 2: a 500,000-character quotation drew for seconds (2 MB: a 500).
    from edits.views import form as form_views

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the face was drawn")

    monkeypatch.setattr(form_views, "render_face", refuse)
    values = {**form_values("tst-unknown-tower"), "layout": "structure|",
              "type": "personality", field: value}
    response = ada.post("/edits/face/", values)
    assert response.status_code == 400
    assert message in response.content.decode()
