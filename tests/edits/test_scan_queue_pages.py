"""Several cards in one photo (a binder page, cards side by side) on "Add a missing card": a
queue of prefilled cards, each with its crop, walked with "Propose and next", surviving a
reload; "Improve this card" with a photo of another card says so."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image, ImageDraw

from cards.images.face import render_face
from cards.images.ocr import ocr_available
from cards.models import CardSet
from edits.models import Edit, EditScan
from edits.scan_queue import KEY
from tests.edits.makers import card, client_for, make_user

pytestmark = pytest.mark.skipif(ocr_available() is not None, reason=str(ocr_available()))

NEW_CARDS = [
    {"id": f"tst-{slug}", "name": name, "set": "TST", "number": number, "type": "structure",
     "subtype": "general", "cost_generic": 2, "residencies": 1, "defense": 3, "offense": 0,
     "abilities": "Fortify.", "quotation": "", "rarity": "common", "official": False}
    for slug, name, number in (("old-mill", "Old Mill", "3"), ("salt-tower", "Salt Tower", "4"),
                               ("reed-gate", "Reed Gate", "5"))
]


def photo_of(cards: list[dict[str, Any]]) -> SimpleUploadedFile:
    table = Image.new("RGB", (1720, 2360), (34, 30, 28))  # two cards a row
    for n, data in enumerate(cards):
        row, column = divmod(n, 2)
        table.paste(render_face(data), (60 + 820 * column, 90 + 6 * column + 1140 * row))
    buffer = io.BytesIO()
    table.save(buffer, "JPEG", quality=92)
    return SimpleUploadedFile("page.jpg", buffer.getvalue(), "image/jpeg")


@pytest.fixture
def ada() -> Client:
    return client_for(make_user("ada"))


def read_photo_into_form(ada: Client) -> str:
    html = ada.post("/edits/scan/", {"set": "TST", "scan": photo_of(NEW_CARDS)}).content.decode()
    return html


def proposal(token: str, name: str, action: str = "propose_next") -> dict[str, str]:
    return {"set": "TST", "name": name, "type": "structure", "unique": "no",
            "abilities": "Fortify.", "scan_token": token, "source_kind": "scan",
            "action": action}


def test_a_photo_of_three_cards_becomes_a_queue_of_prefilled_cards(ada: Client) -> None:
    html = read_photo_into_form(ada)
    assert "3 cards to propose from your photo" in html
    assert 'value="propose_next"' in html  # "Propose and next", swapped in beside Propose
    assert 'value="Old Mill"' in html  # the first card, prefilled
    entries = ada.session[KEY]["entries"]
    assert [e["fields"]["name"] for e in entries] == ["Old Mill", "Salt Tower", "Reed Gate"]
    assert len({e["token"] for e in entries}) == 3  # each with its own crop


@pytest.mark.parametrize(("chosen", "checked"), [("", "scan"), ("own", "own")])
def test_a_scan_read_in_place_chooses_the_scan_as_source_unless_one_was_chosen(
        ada: Client, chosen: str, checked: str) -> None:
    # Read in place (htmx), the fields were swapped in but the source was not: the form
    # said "the scan attached" is the default, and showed no source chosen.
    html = ada.post("/edits/scan/", {"set": "TST", "source_kind": chosen,
                                     "scan": photo_of(NEW_CARDS[:1])}).content.decode()
    assert 'id="source" data-hx-swap-oob="true"' in html
    assert f'id="source-kind-{checked}" name="source_kind" value="{checked}" checked' in html


def test_propose_and_next_walks_the_queue_and_a_reload_keeps_the_card(ada: Client) -> None:
    read_photo_into_form(ada)
    first = ada.session[KEY]["entries"][0]["token"]
    answer = ada.post("/sets/tst/add/", proposal(first, "Old Mill"))
    assert answer.status_code == 302 and answer["Location"].endswith("/sets/tst/add/?queue=1")
    assert EditScan.objects.filter(edit=Edit.objects.get()).exists()  # with its own crop
    page = ada.get("/sets/tst/add/?queue=1").content.decode()
    assert 'value="Salt Tower"' in page and "2 left to propose" in page
    assert 'id="source-kind-scan" name="source_kind" value="scan" checked' in page  # carried
    again = ada.get("/sets/tst/add/?queue=1").content.decode()  # a reload: the same card
    assert 'value="Salt Tower"' in again
    second = ada.session[KEY]["entries"][0]["token"]
    ada.post("/sets/tst/add/", proposal(second, "Salt Tower"))
    third = ada.session[KEY]["entries"][0]["token"]
    last = ada.post("/sets/tst/add/", proposal(third, "Reed Gate"))
    assert last.status_code == 302 and "/edits/" in last["Location"]  # the queue is done
    assert sorted(e.changes["name"] for e in Edit.objects.all()) == [
        "Old Mill", "Reed Gate", "Salt Tower"]


def test_each_card_proposed_from_the_queue_is_said_on_the_next_not_piled_up(ada: Client
                                                                            ) -> None:
    # The form showed no messages: after a binder page, the edit page showed every
    # "Your edit is proposed" at once, a phone's whole first screen of them.
    read_photo_into_form(ada)
    first = ada.session[KEY]["entries"][0]["token"]
    ada.post("/sets/tst/add/", proposal(first, "Old Mill"))
    page = ada.get("/sets/tst/add/?queue=1").content.decode()
    assert page.count("Your edit is proposed") == 1 and 'class="flash"' in page
    assert "Your edit is proposed" not in ada.get("/sets/tst/add/?queue=1").content.decode()


def test_the_add_page_says_cards_wait_in_the_queue(ada: Client) -> None:
    read_photo_into_form(ada)
    page = ada.get("/sets/tst/add/").content.decode()
    assert "3 cards from your photo still to propose" in page and 'href="?queue=1"' in page


def test_a_card_the_catalogue_has_already_is_named_and_can_be_skipped(ada: Client) -> None:
    # A binder page holds cards the catalogue knows: proposed as new, each was refused
    # ("already in the catalogue") at the folded card id, and the queue could go no further.
    lamplighter = card("tst-lamplighter").as_data()
    html = ada.post("/edits/scan/", {"set": "TST", "scan": photo_of([lamplighter, NEW_CARDS[0]])}
                    ).content.decode()
    assert "The catalogue has Lamplighter already" in html
    assert 'href="/cards/tst-lamplighter/improve/"' in html and 'value="skip"' in html
    first = ada.session[KEY]["entries"][0]["token"]
    answer = ada.post("/sets/tst/add/", {**proposal(first, "Lamplighter"), "action": "skip"})
    assert answer.status_code == 302 and answer["Location"].endswith("/sets/tst/add/?queue=1")
    assert not Edit.objects.exists()
    page = ada.get("/sets/tst/add/?queue=1").content.decode()
    assert 'value="Old Mill"' in page and "already" not in page
    assert [e["fields"]["name"] for e in ada.session[KEY]["entries"]] == ["Old Mill"]


def test_improve_with_a_photo_of_another_card_says_so_and_offers_it(ada: Client) -> None:
    lamplighter = card("tst-lamplighter").as_data()
    buffer = io.BytesIO()
    table = Image.new("RGB", (950, 1250), (34, 30, 28))
    table.paste(render_face(lamplighter), (100, 100))
    table.save(buffer, "JPEG", quality=92)
    upload = SimpleUploadedFile("other.jpg", buffer.getvalue(), "image/jpeg")
    html = ada.post("/edits/scan/", {"card": "tst-unknown-tower", "scan": upload}
                    ).content.decode()
    assert "The photo shows Lamplighter" in html
    assert 'href="/cards/tst-lamplighter/improve/"' in html


def test_a_photo_without_a_card_offers_the_four_corner_tool_and_cuts_at_them(ada: Client
                                                                             ) -> None:
    face = render_face(NEW_CARDS[1])
    # A card on a table of its own border's colours: nothing sure is found.
    table = Image.new("RGB", (1000, 1300), (120, 120, 120))
    table.paste(face.resize((500, 698)), (250, 300))
    ImageDraw.Draw(table).rectangle((250, 300, 750, 600), fill=(120, 120, 120))  # covered
    buffer = io.BytesIO()
    table.save(buffer, "JPEG", quality=92)
    upload = SimpleUploadedFile("hidden.jpg", buffer.getvalue(), "image/jpeg")
    html = ada.post("/sets/tst/add/", {"set": "TST", "scan": upload, "action": "read"}
                    ).content.decode()
    assert "data-corner-tool" in html and 'name="corner_3_y"' in html
    token = re.search(r'name="photo_token" value="([0-9a-f]{32})"', html)
    assert token is not None
    photo = ada.get(f"/edits/scan/{token.group(1)}/photo.webp")
    assert photo.status_code == 200 and photo["Content-Type"] == "image/webp"
    corners = {"corner_0_x": 250, "corner_0_y": 300, "corner_1_x": 750, "corner_1_y": 300,
               "corner_2_x": 750, "corner_2_y": 998, "corner_3_x": 250, "corner_3_y": 998}
    answer = ada.post("/sets/tst/add/", {"set": "TST", "action": "corners",
                                         "photo_token": token.group(1), **corners})
    page = answer.content.decode()
    assert answer.status_code == 200 and "cut out at the corners you placed" in page
    assert 'name="scan_token"' in page


def test_a_card_found_only_by_contrast_on_a_light_table_offers_the_corner_tool(
        ada: Client) -> None:
    import numpy as np

    face = render_face(NEW_CARDS[0]).copy()
    # A thumb over the name bar (no layout to match), on a light table of the border's
    # colour: the contrast finds the card's body, which the page must not take silently.
    ImageDraw.Draw(face).rectangle((0, 20, 745, 120), fill=(196, 150, 120))
    border = np.asarray(face)[5:20, 100:600].reshape(-1, 3).mean(axis=0)
    table = Image.new("RGB", (1100, 1400), tuple(int(v) for v in border))
    table.paste(face, (180, 170))
    buffer = io.BytesIO()
    table.save(buffer, "JPEG", quality=92)
    upload = SimpleUploadedFile("light.jpg", buffer.getvalue(), "image/jpeg")
    html = ada.post("/sets/tst/add/", {"set": "TST", "scan": upload, "action": "read"}
                    ).content.decode()
    assert "its outline is uncertain" in html and "not by a card" in html
    assert "data-corner-tool" in html and 'name="corner_0_x"' in html


def test_corners_outside_the_photo_are_refused_with_a_reason(ada: Client) -> None:
    answer = ada.post("/sets/tst/add/", {"set": "TST", "action": "corners",
                                         "photo_token": "0" * 32, "corner_0_x": "a"})
    assert answer.status_code == 400 and "no longer kept" in answer.content.decode()


def test_the_next_missing_number_of_the_set_is_offered_when_none_is_read(ada: Client) -> None:
    CardSet.objects.filter(code="TST").update(size=10)  # numbers 1 and 2 have cards
    unnumbered = {**NEW_CARDS[0], "number": None}
    table = Image.new("RGB", (950, 1250), (34, 30, 28))
    table.paste(render_face(unnumbered), (100, 100))
    buffer = io.BytesIO()
    table.save(buffer, "JPEG", quality=92)
    upload = SimpleUploadedFile("one.jpg", buffer.getvalue(), "image/jpeg")
    html = ada.post("/edits/scan/", {"set": "TST", "scan": upload}).content.decode()
    assert 'id="f-number" name="number" value="3"' in html
    assert 'name="confirm_number"' in html  # offered, not read: ticked alone


def test_the_bench_counts_the_ticks_the_form_asks_for_a_card_read(ada: Client) -> None:
    from bench.scans_bench import form_ticks
    from cards.images.photo_cards import CardFound

    # An event: its requirement (economic strength) is checked with the type line, not as
    # a stat box.
    printed = {"name": "Market Day", "type": "event", "subtype": "general", "unique": False,
               "cost_economic": 1, "cost_religious": 0, "cost_political": 0,
               "strength_economic": 2, "abilities": "Collect 3 economic influence.",
               "quotation": "Fresh bread.", "number": "3", "rarity": "common",
               "artist": "Ilse Varga"}
    fields = {**printed, "cost_religious": 8}  # one value read wrong: corrected, not ticked
    doubtful = ["cost_political", "artist"]  # each ticked alone
    session = ada.session
    session[KEY] = {"set": "TST", "source_kind": "", "entries": [
        {"token": "", "fields": fields, "doubtful": doubtful, "outline": "", "read": True}]}
    session.save()
    page = ada.get("/sets/tst/add/?queue=1").content.decode()
    groups = len(re.findall(r'name="checked_', page))
    alone = len(re.findall(r'name="confirm_', page))
    read = CardFound(((0.0, 0.0),) * 4, Image.new("RGB", (1, 1)), fields, doubtful)
    assert (groups, alone) == (4, 2)  # name bar, type line, text box, collector line
    assert form_ticks({**printed, "set": "TST"}, read) == groups + alone


def test_each_part_of_the_form_shows_its_part_of_the_scan(ada: Client) -> None:
    html = read_photo_into_form(ada)
    token = ada.session[KEY]["entries"][0]["token"]
    for part in ("name", "type", "text", "stats", "collector"):
        assert f'class="region-scan region-scan-{part}"' in html
    assert f"/edits/scan/{token}/large.webp" in html
    assert html.count('class="printed printed-') == html.count(" with-scan")


def test_a_photo_with_no_card_found_shows_no_parts_of_it(ada: Client) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (900, 1200), (222, 190, 140)).save(buffer, "JPEG")
    upload = SimpleUploadedFile("table.jpg", buffer.getvalue(), "image/jpeg")
    html = ada.post("/edits/scan/", {"set": "TST", "scan": upload}).content.decode()
    assert "No card found" in html and "region-scan" not in html


@pytest.mark.parametrize(("name", "number", "doubtful"), [
    ("Ledger Warden", "1", True),  # #1 is another card of the set: a misread digit?
    ("Ledger Warden", "98", False),
    ("Lamplighter", "1", False),  # the card itself
    ("Ledger Warden", "101", True),  # past the set's size
])
def test_a_number_read_that_another_card_of_the_set_has_is_doubtful(
        name: str, number: str, doubtful: bool) -> None:
    from cards.images.card_fields import cross_checked
    from edits.photo_reading import catalogue_hints

    CardSet.objects.filter(code="TST").update(size=100)
    hints = catalogue_hints("tst")
    assert ("number" in cross_checked({"name": name, "number": number}, hints)) is doubtful


def test_a_new_account_is_told_how_many_cards_of_a_photo_it_may_propose_now(
        settings: Any) -> None:
    # A binder page of nine cards, a new account holding at most five open edits: the sixth
    # "Propose and next" was refused as if something on the form were to correct.
    settings.CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS = 2
    newcomer = client_for(make_user("newcomer", days_old=0))
    html = newcomer.post("/edits/scan/", {"set": "TST", "scan": photo_of(NEW_CARDS)}
                         ).content.decode()
    assert "you may propose <strong>2 more</strong> until others review" in html


def test_the_open_edit_limit_keeps_the_queue_and_says_so(settings: Any) -> None:
    settings.CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS = 1
    newcomer = client_for(make_user("newcomer", days_old=0))
    newcomer.post("/edits/scan/", {"set": "TST", "scan": photo_of(NEW_CARDS)})
    first, second = (e["token"] for e in newcomer.session[KEY]["entries"][:2])
    assert newcomer.post("/sets/tst/add/", proposal(first, "Old Mill")).status_code == 302
    refused = newcomer.post("/sets/tst/add/", proposal(second, "Salt Tower"))
    page = refused.content.decode()
    assert refused.status_code == 403
    assert "Nothing was stored yet: A new account may have 1 open edits" in page
    assert "please correct what is marked" not in page
    assert "your queue of 2 cards from the photo" in page
    assert len(newcomer.session[KEY]["entries"]) == 2
