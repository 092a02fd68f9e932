"""The catalogue pages a person reads."""

from __future__ import annotations

import gzip
import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls.resolvers import URLResolver
from PIL import Image

from cards.image_services import cards_ensure_images, derived_name, renditions_store
from cards.images import scan
from cards.models import Card, CardImage
from decks.models import Deck
from rules.card_anatomy import ANATOMY

pytestmark = pytest.mark.django_db


def html(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status
    return response.content.decode()


def test_home_lists_both_sets_and_labels_the_demo_set_fictional(client: Client) -> None:
    page = html(client, "/")
    assert "War of Factions" in page and "Demo" in page
    assert "Fictional demo set" in page
    assert "fully transcribed" in page


def test_the_card_list_shows_images_and_filters(client: Client) -> None:
    page = html(client, "/cards/?q=set:wof")
    assert "34 cards" in page
    assert page.count('<img src="/cards/') == 34


def test_the_card_list_s_tiles_offer_a_sharp_image_and_load_the_first_row_first(
        client: Client) -> None:
    # Lighthouse (mobile, 2.6 device pixels a CSS pixel) found the 146-pixel tile blurry at
    # 146 CSS pixels: a phone takes the 292-pixel rendition, a plain screen the small one.
    # The first row is the page's largest paint: fetched at once, the rest when scrolled near.
    page = html(client, "/cards/?q=set:wof")
    tiles = re.findall(r"<img [^>]*>", page.split('class="grid"')[1])
    assert len(tiles) == 34
    for tile in tiles:
        card = re.search(r'src="/cards/([a-z0-9-]+)/image/small\.webp', tile)
        assert card is not None, tile
        assert f'srcset="/cards/{card[1]}/image/medium.webp 2x"' in tile
        assert 'width="146" height="204"' in tile
    assert ['fetchpriority="high"' in t and "loading" not in t for t in tiles[:3]] == [
        True, True, False]
    assert all('loading="lazy"' in t and "fetchpriority" not in t for t in tiles[2:])


def test_the_card_list_is_sent_compressed_to_browsers_that_take_it(client: Client) -> None:
    # 60 tiles are 37 kB of HTML; a phone on a slow link waits for all of it before it asks
    # for the first card image (Lighthouse: its largest paint).
    response = client.get("/cards/", headers={"accept-encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    body = gzip.decompress(response.content)
    assert len(response.content) < len(body) / 4
    plain = client.get("/cards/")
    assert not plain.has_header("Content-Encoding") and b'class="grid"' in plain.content


def test_the_card_list_builds_its_card_links_without_a_reverse_each(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    # reverse() cost about 1 ms a call: three for each of 60 tiles made the page 3 times
    # slower to answer than the card page.
    calls: list[str] = []
    # Every reverse() and {% url %} comes here (private, so untyped in the stubs).
    real = getattr(URLResolver, "_reverse_with_prefix")  # noqa: B009

    def counted(self: URLResolver, lookup_view: str, *args: Any, **kwargs: Any) -> str:
        calls.append(str(lookup_view))
        return str(real(self, lookup_view, *args, **kwargs))

    monkeypatch.setattr(URLResolver, "_reverse_with_prefix", counted)
    page = html(client, "/cards/")
    assert page.count('class="tile-cell"') == 60
    assert len(calls) < 30, sorted(set(calls))
    assert 'href="/cards/demo-acolyte-of-the-ember-rite/"' in page
    tile = "/cards/demo-acolyte-of-the-ember-rite/image"
    assert re.search(rf'src="{tile}/small\.webp(\?v=[0-9a-f]{{10}})?"\s+'
                     rf'srcset="{tile}/medium\.webp', page)


def test_the_medium_rendition_is_drawn_once_from_the_large_one(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    response = client.get("/cards/demo-bog-hag/image/medium.webp?v=1")
    assert response.status_code == 200 and response["Content-Type"] == "image/webp"
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    with Image.open(io.BytesIO(body)) as medium:
        assert medium.size == (292, 408)  # the small tile's 2x, in the card's ratio
    picture = CardImage.objects.get(card_id="demo-bog-hag")
    kept = derived_name(str(picture.large.name), "medium")
    assert kept.endswith(f"/medium-{picture.source_hash[:10]}.webp")
    assert picture.large.storage.exists(kept)
    monkeypatch.setattr(scan, "rendition_resized", lambda *a: pytest.fail("drawn again"))
    again = client.get("/cards/demo-bog-hag/image/medium.webp?v=1")
    assert b"".join(again.streaming_content) == body  # type: ignore[attr-defined]
    assert client.get("/cards/demo-bog-hag/image/huge.webp").status_code == 404


def test_an_image_stored_gets_its_medium_rendition_at_once(client: Client) -> None:
    # Drawn with the others (make run's import), not by the first visitor of the card list.
    card = Card.objects.get(id="demo-bog-hag")
    assert cards_ensure_images([card]) == 1
    picture = CardImage.objects.get(card=card)
    assert picture.large.storage.exists(derived_name(str(picture.large.name), "medium"))


def test_a_new_image_drops_the_medium_rendition_of_the_old_one(client: Client) -> None:
    client.get("/cards/demo-bog-hag/image/medium.webp")
    picture = CardImage.objects.get(card_id="demo-bog-hag")
    old = derived_name(str(picture.large.name), "medium")
    renditions = scan.renditions_from_image(Image.new("RGB", (745, 1040), "white"))
    replaced = renditions_store(picture, "f" * 64, renditions)
    assert old in replaced and derived_name(str(picture.large.name), "medium") not in replaced


def test_a_real_card_page_shows_all_21_fields_and_what_is_unknown(client: Client) -> None:
    page = html(client, "/cards/wof-bishop-ospin/")
    for field in ANATOMY:
        assert f"<th scope=\"row\">{field.label}</th>" in page.replace("&#x27;", "'")
    assert "not yet transcribed" in page
    assert "The Glory of Kalim" in page
    assert "cardguide.wikia.com" in page


def test_a_demo_card_page_is_labelled_fictional_and_explains_its_abilities(
    client: Client,
) -> None:
    card = Card.objects.filter(set__code="DEMO", keywords__isnull=False).first()
    assert card is not None
    page = html(client, f"/cards/{card.id}/")
    assert "Fictional card." in page
    first = card.keywords.first()
    assert first is not None and f"/abilities/{first.ability}/" in page


def test_an_unknown_card_page_is_404(client: Client) -> None:
    html(client, "/cards/not-a-card/", status=404)


def test_the_image_view_draws_a_face_on_first_request(client: Client) -> None:
    assert not CardImage.objects.filter(card_id="wof-cave-troll").exists()
    response = client.get("/cards/wof-cave-troll/image/small.webp")
    assert response.status_code == 200 and response["Content-Type"] == "image/webp"
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert body[:4] == b"RIFF" and body[8:12] == b"WEBP"
    assert CardImage.objects.get(card_id="wof-cave-troll").status == "rendered"
    assert client.get("/cards/wof-cave-troll/image/huge.webp").status_code == 404


def test_an_image_whose_files_were_lost_is_drawn_again(client: Client) -> None:
    # A media directory wiped (or a database restored elsewhere) left rows naming files that
    # are gone: the image is drawn again, not a 500 on every card tile.
    assert client.get("/cards/wof-cave-troll/image/small.webp").status_code == 200
    picture = CardImage.objects.get(card_id="wof-cave-troll")
    for field in (picture.small, picture.normal, picture.large):
        field.storage.delete(str(field.name))
    response = client.get("/cards/wof-cave-troll/image/normal.webp")
    assert response.status_code == 200
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert body[:4] == b"RIFF"


def test_the_ability_index_and_an_ability_page(client: Client) -> None:
    index = html(client, "/abilities/")
    assert len(set(re.findall(r'href="/abilities/([a-z-]+)/"', index))) == 32
    page = html(client, "/abilities/giant-size/")
    assert "Giant Size" in page and "card" in page
    html(client, "/abilities/not-an-ability/", status=404)


def test_sample_decks_are_listed_and_open(client: Client) -> None:
    page = html(client, "/decks/")
    assert page.count('href="/decks/') >= 6
    deck = Deck.objects.first()
    assert deck is not None
    detail = html(client, f"/decks/{deck.pk}/")
    for title in ("Initial Holdings", "Structure Pile", "Personality Pile", "Wanderer Pile"):
        assert title in detail


def test_a_missing_page_uses_the_site_layout(client: Client, settings: object) -> None:
    settings.DEBUG = False  # type: ignore[attr-defined]
    page = html(client, "/no/such/page/", status=404)
    assert "Allegiance DB" in page and "Browse the cards" in page
