"""Staff edit the catalogue in the admin; every edit records who changed what."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from cards.models import Card, CardImage, CardRevision

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client: Client) -> Client:
    user = User.objects.create_superuser("editor", "editor@example.com", "pw-for-tests-only")
    client.force_login(user)
    return client


def form_data(card: Card, **changes: Any) -> dict[str, Any]:
    data = {k: ("" if v is None else v) for k, v in card.as_data().items()}
    for key in ("abilities", "quotation"):
        data[key] = {None: "", "": "-"}.get(card.as_data()[key], data[key])
    data["sources"] = '["' + '", "'.join(card.sources) + '"]'
    data["unique"] = {True: "true", False: "false", None: "unknown"}[card.unique]
    data["official"] = "on" if card.official else ""
    data["set"] = card.set_id
    data.update({
        "revisions-TOTAL_FORMS": "0", "revisions-INITIAL_FORMS": "0",
        "revisions-MIN_NUM_FORMS": "0", "revisions-MAX_NUM_FORMS": "1000",
    })
    data.update(changes)
    return {k: v for k, v in data.items() if v is not False}


def test_an_edit_records_the_editor_and_the_changed_fields(staff_client: Client) -> None:
    card = Card.objects.get(id="wof-footman")
    response = staff_client.post(
        f"/admin/cards/card/{card.id}/change/", form_data(card, offense=2, defense=1)
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    revision = CardRevision.objects.filter(card=card).first()
    assert revision is not None and revision.user is not None
    assert revision.user.username == "editor"
    assert revision.changes == {"offense": [None, 2], "defense": [None, 1]}
    card.refresh_from_db()
    assert "offense" not in card.unknown_fields


def png(size: tuple[int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, "navy").save(buffer, "PNG")
    return buffer.getvalue()


def test_an_uploaded_scan_replaces_the_rendered_face(staff_client: Client) -> None:
    card = Card.objects.get(id="wof-bell-tower")
    upload = SimpleUploadedFile("bell.png", png((400, 560)), content_type="image/png")
    response = staff_client.post(
        f"/admin/cards/card/{card.id}/change/", {**form_data(card), "scan": upload}
    )
    assert response.status_code == 302
    assert CardImage.objects.get(card=card).status == "scan"


def test_a_bad_upload_is_refused_with_the_reason_and_nothing_changes(
    staff_client: Client,
) -> None:
    card = Card.objects.get(id="wof-bell-tower")
    gif = io.BytesIO()
    Image.new("P", (40, 56)).save(gif, "GIF")
    upload = SimpleUploadedFile("bell.gif", gif.getvalue(), content_type="image/gif")
    response = staff_client.post(
        f"/admin/cards/card/{card.id}/change/", {**form_data(card, name="Changed"), "scan": upload}
    )
    assert response.status_code == 200
    assert "GIF" in response.content.decode()
    card.refresh_from_db()
    assert card.name == "Bell Tower"
    assert not CardImage.objects.filter(card=card, status="scan").exists()


def test_visitors_cannot_open_the_admin(client: Client) -> None:
    response = client.get("/admin/cards/card/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
