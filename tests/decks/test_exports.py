"""Export and import through the API and export_deck: every format, every sample deck."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from decks.models import Deck
from decks.services import deck_data
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
SAMPLES = sorted((FIXTURES / "decklists").glob("*.txt"))
FORMATS = ["txt", "json", "csv", "code"]


@pytest.fixture
def ada(client: Client) -> Client:
    client.force_login(User.objects.create_user("ada", password="x-Secret-123456"))
    return client


def export(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        call_command("export_deck", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_each_sample_exported_and_imported_back_is_the_same_deck(
    ada: Client, path: Path, fmt: str
) -> None:
    sample = Deck.objects.get(owner__username="samples", name=path.stem.replace("-", " ").title())
    exported = ada.get(f"/api/decks/{sample.pk}/export/?to={fmt}")
    assert exported.status_code == 200
    created = ada.post("/api/decks/import/", {"text": exported.content.decode()},
                       content_type="application/json")
    assert created.status_code == 201, created.content[:400]
    assert deck_data(Deck.objects.get(pk=created.json()["id"])) == deck_data(sample)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_command_converts_between_formats(fmt: str) -> None:
    code, out, _ = export(str(SAMPLES[0]), "--to", fmt)
    assert code == 0 and out
    back_code, back, _ = export("-", "--to", "txt", stdin=out)
    assert back_code == 0
    assert back == export(str(SAMPLES[0]), "--to", "txt")[1]


def test_pdf_export_is_not_built_yet_and_says_so() -> None:
    code, out, err = export(str(SAMPLES[0]), "--to", "pdf")
    assert code == 1 and out == "" and "not built yet" in err


def test_an_unknown_export_format_is_a_problem(ada: Client) -> None:
    sample = Deck.objects.filter(owner__username="samples").first()
    assert sample is not None
    response = ada.get(f"/api/decks/{sample.pk}/export/?to=docx")
    assert response.status_code == 400 and response.json()["code"] == "bad_format"


def test_a_file_upload_is_imported(ada: Client) -> None:
    upload = SimpleUploadedFile("deck.txt", SAMPLES[1].read_bytes(), content_type="text/plain")
    response = ada.post("/api/decks/import/", {"file": upload, "visibility": "unlisted"})
    assert response.status_code == 201 and response.json()["visibility"] == "unlisted"


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"\x00\x01\x02binary", "binary"), ("Bell Tower".encode("utf-16"), "binary"),
     (b"\xff\xfeStructure Pile", "not UTF-8"), (b"x" * (1024 * 1024 + 1), "at most")],
    ids=["binary", "utf-16", "latin", "too-big"],
)
def test_a_bad_upload_is_refused_whole_with_the_reason(
    ada: Client, content: bytes, message: str
) -> None:
    upload = SimpleUploadedFile("deck.txt", content, content_type="text/plain")
    response = ada.post("/api/decks/import/", {"file": upload})
    assert response.status_code == 400 and message in response.json()["detail"]
    assert not Deck.objects.filter(owner__username="ada").exists()


def test_a_mistyped_deck_code_is_refused(ada: Client) -> None:
    response = ada.post("/api/decks/import/", {"text": "AQRLYWxpbSBGYWl0aGZ1bAA"},
                        content_type="application/json")
    assert response.status_code == 400 and "deck code" in response.json()["detail"]
