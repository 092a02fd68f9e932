"""Decklists in and out: the export menu, the print view, deck links (/d/<code>), the zip of
all my decks and the QR codes of deck links."""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.safestring import SafeString

from cards.models import Card
from decks.deck_archive import archive_names, decks_archive
from decks.exports import render_deck
from decks.formats.deck_code import DeckCodeError, decode_deck_code
from decks.formats.json_format import parse_json
from decks.formats.text import parse_text
from decks.models import Deck
from decks.services import catalogue_cards, catalogue_resolver, deck_data, deck_save
from decks.views import links

pytestmark = pytest.mark.django_db
SAMPLE_NAMES = ["Guild Merchants", "Guild Veterans", "Kalim Crusaders", "Kalim Faithful",
                "Mosfin Blades", "Mosfin Senate"]
FORMATS = ["txt", "json", "csv", "code", "pdf&amp;page=a4", "pdf&amp;page=letter",
           "proxies&amp;page=a4", "proxies&amp;page=letter"]




def samples() -> list[Deck]:
    return list(Deck.objects.filter(owner__username="samples").order_by("name"))


def sample(name: str = "Kalim Faithful") -> Deck:
    return Deck.objects.get(owner__username="samples", name=name)


def code_of(deck: Deck) -> str:
    return render_deck(deck_data(deck), "code").strip()


def link_of(deck: Deck) -> str:
    """The deck link the export menu gives: the code, and the name beside it."""
    return links.deck_link_path(code_of(deck), deck.name, deck.description)


def html(response: Any) -> str:
    return str(response.content.decode())


def test_the_samples_are_the_six_expected() -> None:
    assert [d.name for d in samples()] == SAMPLE_NAMES


# --- the export menu ------------------------------------------------------------------------


def assert_export_menu(page: str, deck: Deck) -> None:
    for fmt in FORMATS:
        assert f'href="/api/decks/{deck.pk}/export/?to={fmt}"' in page, fmt
    assert f'href="/decks/{deck.pk}/print/"' in page
    assert "/static/js/copy.js" in page
    assert f'value="{code_of(deck)}"' in page  # the code in a read-only field
    assert 'data-copy="deck-code-' in page and 'data-copy="deck-text-' in page
    assert 'aria-live="polite"' in page
    # Without JS the text list is there to select: the first card line of the text export.
    assert "Initial Holdings" in page


def test_the_deck_page_has_the_export_menu_link_and_qr(client: Client) -> None:
    deck = sample()
    page = html(client.get(f"/decks/{deck.pk}/"))
    assert_export_menu(page, deck)
    assert f"http://testserver/d/{code_of(deck)}?name=Kalim+Faithful&amp;description=" in page
    assert "<svg" in page and 'role="img"' in page
    assert 'aria-label="QR code of the link to the deck Kalim Faithful"' in page
    assert "tournament sheets" in page


def test_the_builder_has_the_export_menu(ada: Client) -> None:
    deck = deck_save(owner=User.objects.get(username="ada"), data=deck_data(sample()))
    page = html(ada.get(f"/decks/{deck.pk}/edit/"))
    assert_export_menu(page, deck)
    # After an htmx edit the swapped body carries the new code.
    swapped = html(ada.post(f"/decks/{deck.pk}/edit/settings/",
                            {"version": deck.version, "name": "Renamed", "players": 4,
                             "visibility": "private", "description": ""},
                            headers={"HX-Request": "true"}))
    deck.refresh_from_db()
    assert deck.name == "Renamed"
    assert f'value="{code_of(deck)}"' in swapped


def test_the_builder_draws_no_qr_code_it_does_not_show(ada: Client,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # The builder's export menu has no QR code, and every edit renders it again: drawing one
    # there (about 80 ms for a long deck code) would be thrown away. The deck page draws it.
    drawn: list[str] = []
    real = links.qr_svg

    def counted(url: str, label: str) -> SafeString:
        drawn.append(url)
        return real(url, label)

    monkeypatch.setattr(links, "qr_svg", counted)
    deck = deck_save(owner=User.objects.get(username="ada"), data=deck_data(sample()))
    page = html(ada.get(f"/decks/{deck.pk}/edit/"))
    assert_export_menu(page, deck)
    assert drawn == []
    page = html(ada.get(f"/decks/{deck.pk}/"))
    assert len(drawn) == 1 and 'aria-label="QR code of the link to the deck' in page


def test_every_export_menu_link_answers(client: Client) -> None:
    deck = sample("Mosfin Senate")
    for fmt in ["txt", "json", "csv", "code", "pdf&page=letter"]:
        response = client.get(f"/api/decks/{deck.pk}/export/?to={fmt}")
        assert response.status_code == 200, fmt


# --- the print view -------------------------------------------------------------------------


def test_the_print_view_shows_the_whole_decklist(client: Client) -> None:
    deck = sample()
    data = deck_data(deck)
    response = client.get(f"/decks/{deck.pk}/print/")
    assert response.status_code == 200
    page = html(response)
    assert '/static/css/print.css' in page
    assert deck.name in page and "samples" in page and f"<strong>{deck.players}</strong>" in page
    for title in ["Initial Holdings", "Structure Pile", "Personality Pile", "Wanderer Pile"]:
        assert title in page
    names = dict(Card.objects.values_list("id", "name"))
    for _, entry in data.all_entries():
        row = re.search(rf'<td class="num">{entry.count}</td><th scope="row">'
                        rf'{re.escape(names[entry.card_id].replace("\'", "&#x27;"))}', page)
        assert row, names[entry.card_id]
    total = sum(e.count for _, e in data.all_entries())
    assert f"Total: <strong>{total}</strong>" in page
    assert code_of(deck) in page
    assert "Legal" in page  # the verdict
    assert "<svg" in page


def test_the_print_css_leaves_out_header_and_keeps_parts_whole() -> None:
    from django.contrib.staticfiles import finders

    path = finders.find("css/print.css")
    assert path
    css = Path(str(path)).read_text(encoding="utf-8")
    assert "@media print" in css
    printed = css[css.index("@media print"):]
    assert ".site-header" in printed and "display: none" in printed
    assert "break-inside: avoid" in printed and "columns: 2" in printed


def test_a_private_deck_prints_for_its_owner_only(ada: Client) -> None:
    deck = deck_save(owner=User.objects.get(username="ada"), data=deck_data(sample()))
    assert ada.get(f"/decks/{deck.pk}/print/").status_code == 200
    assert Client().get(f"/decks/{deck.pk}/print/").status_code == 404


# --- deck links -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_a_deck_link_shows_the_same_cards(client: Client, name: str) -> None:
    deck = sample(name)
    response = client.get(link_of(deck))
    assert response.status_code == 200
    page = html(response)
    assert deck.name in page
    shown = re.findall(r'<tr id="row-([a-z]+)-([^"]+)"[^>]*>\s*<td class="count">(\d+)</td>',
                       page)
    listed = [(section, card_id, entry.count)
              for section, entry in deck_data(deck).all_entries()
              for card_id in [entry.card_id]]
    assert len(shown) == len(listed)
    assert [(s, int(c)) for s, _, c in shown] == [(s, c) for s, _, c in listed]
    names = dict(Card.objects.values_list("id", "name"))
    for _, card_id, _ in listed:
        assert names[card_id].replace("'", "&#x27;") in page
    assert "Save a copy" in page and "<svg" in page


def test_a_mistyped_code_says_why(client: Client) -> None:
    code = code_of(sample())
    typo = code[:10] + ("A" if code[10] != "A" else "B") + code[11:]
    response = client.get(f"/d/{typo}")
    assert response.status_code == 400
    page = html(response)
    assert "This deck link cannot be read" in page
    with pytest.raises(DeckCodeError) as reason:
        decode_deck_code(typo, Card.objects.values_list("id", flat=True))
    why = str(reason.value)
    assert why[0].upper() + why[1:] in page.replace("&#x27;", "'")
    bad = client.get("/d/not*a*code")
    assert bad.status_code == 400
    assert "*" in html(bad)


def test_save_a_copy_creates_an_identical_private_deck(ada: Client) -> None:
    deck = sample("Guild Veterans")
    response = ada.post(link_of(deck))
    copy = Deck.objects.get(owner__username="ada")
    assert response.status_code == 302
    assert response["Location"] == f"/decks/{copy.pk}/edit/"
    assert copy.visibility == Deck.PRIVATE
    assert deck_data(copy) == deck_data(deck)


def test_save_a_copy_sends_anonymous_visitors_to_log_in(client: Client) -> None:
    code = code_of(sample())
    response = client.post(f"/d/{code}")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/d/{code}"
    assert not Deck.objects.exclude(owner__username="samples").exists()


def test_a_deck_link_with_no_name_saves_as_untitled(ada: Client) -> None:
    code = code_of(sample())
    assert ada.get(f"/d/{code}").status_code == 200
    ada.post(f"/d/{code}")
    assert Deck.objects.get(owner__username="ada").name == "Untitled deck"


def test_the_deck_code_carries_no_name_and_the_link_carries_it_beside(client: Client) -> None:
    deck = sample("Mosfin Senate")
    code = code_of(deck)
    link = link_of(deck)
    assert link == (f"/d/{code}?name=Mosfin+Senate&description=House+Mosfin+politicking%3A+"
                    "campaigning+citizens%2C+debating+halls+and+a+rotunda.")
    assert decode_deck_code(code, Card.objects.values_list("id", flat=True)).name == ""
    page = html(client.get(link))
    assert "<h1>Mosfin Senate</h1>" in page and deck.description in page
    # Save a copy posts to the same link, name and description included; the link to pass on
    # carries them too (the code to copy does not).
    escaped = link.replace("&", "&amp;")
    assert f'action="{escaped}"' in page
    assert re.search(rf'id="link-link"[^>]*value="http://testserver{re.escape(escaped)}"', page)


def test_a_description_too_long_for_an_address_stays_out_of_the_link() -> None:
    long = "word " * 300
    assert links.deck_link_path("AgMB", "Long", long) == "/d/AgMB?name=Long"
    assert links.deck_link_path("AgMB", "", "") == "/d/AgMB"


def test_save_a_copy_keeps_the_name_the_link_carries(ada: Client) -> None:
    deck = sample("Kalim Crusaders")
    ada.post(f"/d/{code_of(deck)}?name=My+crusade")
    assert Deck.objects.get(owner__username="ada").name == "My crusade"


def test_a_version_1_deck_link_given_out_before_still_opens_with_its_name(
        ada: Client) -> None:
    # A version-1 code (name and description inside), as links made before version 2 hold.
    v1 = "AQMMT2xkIEZhaXRoZnVsG0dpdmVuIG91dCBiZWZvcmUgdmVyc2lvbiAyLgEC31grAQTZKrMAAORyHw"
    page = html(ada.get(f"/d/{v1}"))
    assert "<h1>Old Faithful</h1>" in page and "Given out before version 2." in page
    ada.post(f"/d/{v1}")
    copy = Deck.objects.get(owner__username="ada")
    assert (copy.name, copy.description, copy.players) == (
        "Old Faithful", "Given out before version 2.", 3)


@pytest.mark.parametrize(("query", "message"), [
    (f"name={'x' * 201}", "The deck name in this link is 201 characters long; at most 200 fit"),
    (f"description={'x' * 1001}",
     "The deck description in this link is 1,001 characters long; at most 1,000 fit"),
], ids=["name", "description"])
def test_a_deck_link_whose_words_are_too_long_says_so(client: Client, query: str,
                                                       message: str) -> None:
    response = client.get(f"/d/{code_of(sample())}?{query}")
    assert response.status_code == 400
    assert message in html(response)


# --- export all my decks --------------------------------------------------------------------


def test_export_all_needs_a_login(client: Client) -> None:
    response = client.get("/decks/export-all.zip")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_export_all_holds_one_file_per_deck_and_the_json(ada: Client) -> None:
    owner = User.objects.get(username="ada")
    mine = [deck_save(owner=owner, data=deck_data(d)) for d in samples()]
    # Two decks with one name, and one whose name slugifies to nothing.
    mine.append(deck_save(owner=owner, data=deck_data(samples()[0])))
    mine.append(deck_save(owner=owner, data=replace(deck_data(samples()[1]), name="???")))
    assert "Export all my decks" in html(ada.get("/decks/"))
    response = ada.get("/decks/export-all.zip")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="ada-decks.zip"'
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = archive.namelist()
    texts = [n for n in names if n.endswith(".txt")]
    assert len(texts) == len(mine) == 8 and len(set(names)) == len(names)
    assert "guild-merchants.txt" in texts and "guild-merchants-2.txt" in texts
    assert "deck.txt" in texts
    listing = json.loads(archive.read("decks.json"))
    stored = sorted((deck_data(d) for d in mine), key=lambda d: d.name)
    assert [parse_json(json.dumps(item)) for item in listing] == stored
    # Every text file reads back as its deck.
    resolver = catalogue_resolver()
    read = [parse_text(archive.read(n).decode(), resolver).deck for n in texts]
    assert all(deck is not None for deck in read)
    read = sorted(read, key=lambda d: d.name if d else "")
    assert read == stored


def test_export_all_holds_only_my_decks(ada: Client) -> None:
    response = ada.get("/decks/export-all.zip")
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert archive.namelist() == ["decks.json"]
    assert json.loads(archive.read("decks.json")) == []


def test_archive_names_are_safe_and_unique() -> None:
    names = archive_names(["Kalim", "kalim", "../../etc/passwd", "", "décks", "decks"])
    assert names == ["kalim.txt", "kalim-2.txt", "etcpasswd.txt", "deck.txt", "decks.txt",
                     "decks-2.txt"]


def test_decks_archive_is_pure_bytes() -> None:
    data = [deck_data(d) for d in samples()[:2]]
    archive = zipfile.ZipFile(io.BytesIO(decks_archive(data, catalogue_cards())))
    assert sorted(archive.namelist()) == ["decks.json", "guild-merchants.txt",
                                          "guild-veterans.txt"]


@pytest.mark.parametrize(("visibility", "said"), [
    ("unlisted", "anyone with the link can open it"),
    ("public", "anyone can open it"),
])
def test_the_short_link_says_who_can_open_it_in_plain_words(visibility: str, said: str) -> None:
    owner = User.objects.create_user("words", password="x-Secret-123456")
    deck = Deck.objects.create(owner=owner, name="Words", visibility=visibility)
    client = Client()
    client.force_login(owner)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert f"Opens this deck's page as the deck is when the link is followed; {said}." in page
    assert "This anyone with the link deck" not in page
