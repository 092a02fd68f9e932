"""Export and import through the API and export_deck: every format, every sample deck."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image
from pypdf import PdfReader

from cards.models import Card
from decks.formats.text import parse_text
from decks.models import Deck
from decks.services import catalogue_resolver, deck_data
from tests.commands import run_command
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
SAMPLES = sorted((FIXTURES / "decklists").glob("*.txt"))
FORMATS = ["txt", "json", "csv", "code"]





def export(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    return run_command("export_deck", *args, stdin=stdin)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_each_sample_exported_and_imported_back_is_the_same_deck(
    ada: Client, path: Path, fmt: str
) -> None:
    sample = Deck.objects.get(owner__username="samples", name=path.stem.replace("-", " ").title())
    exported = ada.get(f"/api/decks/{sample.pk}/export/?to={fmt}")
    assert exported.status_code == 200
    # A deck code carries the cards only: its name and description travel beside it.
    beside = {"name": sample.name, "description": sample.description} if fmt == "code" else {}
    created = ada.post("/api/decks/import/", {"text": exported.content.decode(), **beside},
                       content_type="application/json")
    assert created.status_code == 201, created.content[:400]
    assert deck_data(Deck.objects.get(pk=created.json()["id"])) == deck_data(sample)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_command_converts_between_formats(fmt: str) -> None:
    code, out, _ = export(str(SAMPLES[0]), "--to", fmt)
    assert code == 0 and out
    deck = parse_text(SAMPLES[0].read_text(encoding="utf-8"), catalogue_resolver()).deck
    assert deck is not None
    # A deck code carries the cards only: its name and description travel beside it.
    beside = ["--name", deck.name, "--description", deck.description] if fmt == "code" else []
    back_code, back, _ = export("-", "--to", "txt", *beside, stdin=out)
    assert back_code == 0
    assert back == export(str(SAMPLES[0]), "--to", "txt")[1]


def test_the_decklist_pdf_lists_every_card_and_the_verdict(tmp_path: Path) -> None:
    target = tmp_path / "deck.pdf"
    code, _, _ = export(str(SAMPLES[0]), "--to", "pdf", "--output", str(target))
    assert code == 0
    reader = PdfReader(target)
    text = "\n".join(page.extract_text() for page in reader.pages)
    deck = parse_text(SAMPLES[0].read_text(encoding="utf-8"), catalogue_resolver()).deck
    assert deck is not None
    assert deck.name in text and "Legal for 2-4 players" in text and "Deck code" in text
    for title in ("Initial Holdings", "Structure Pile", "Personality Pile", "Wanderer Pile"):
        assert title in text
    names = dict(Card.objects.values_list("id", "name"))
    for _, entry in deck.all_entries():
        assert names[entry.card_id] in text
    width, height = reader.pages[0].mediabox.width, reader.pages[0].mediabox.height
    assert (round(float(width)), round(float(height))) == (595, 842)  # A4 in points


@pytest.mark.parametrize(("page", "size"), [("a4", (595, 842)), ("letter", (612, 792))])
def test_the_proxy_sheet_puts_nine_cards_a_page_at_real_size(
    tmp_path: Path, page: str, size: tuple[int, int]
) -> None:
    deck_text = "Personality Pile\n2 Bishop Ospin\n1 Bowman (kalim)\n"
    target = tmp_path / "proxies.pdf"
    source = tmp_path / "deck.txt"
    source.write_text(deck_text, encoding="utf-8")
    code, _, err = export(str(source), "--to", "proxies", "--page", page, "--output", str(target))
    assert code == 0, err
    reader = PdfReader(target)
    assert len(reader.pages) == 1
    first = reader.pages[0]
    assert (round(float(first.mediabox.width)), round(float(first.mediabox.height))) == size
    assert len(first.images) == 2  # two distinct faces (the PDF stores a repeated one once)
    contents = first.get_contents()
    assert contents is not None
    # Each copy is drawn at 63 x 88 mm = 178.6 x 249.4 points: three draws.
    assert contents.get_data().decode("latin-1").count("178.5827 0 0 249.4488") == 3


@pytest.mark.slow
def test_proxies_of_a_full_deck_fill_pages_of_nine(tmp_path: Path) -> None:
    target = tmp_path / "all.pdf"
    assert export(str(SAMPLES[0]), "--to", "proxies", "--output", str(target))[0] == 0
    deck = parse_text(SAMPLES[0].read_text(encoding="utf-8"), catalogue_resolver()).deck
    assert deck is not None
    total = sum(e.count for _, e in deck.all_entries())
    assert len(PdfReader(target).pages) == -(-total // 9)


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
    [(b"\x00\x01\x02binary", "binary"), ("Bell Tower".encode("utf-16"), "UTF-16"),
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


def test_the_api_decklist_pdf_names_the_owner(ada: Client) -> None:
    sample = Deck.objects.filter(owner__username="samples").first()
    assert sample is not None
    response = ada.get(f"/api/decks/{sample.pk}/export/?to=pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert "by samples" in text


@pytest.mark.slow
def test_a_proxy_sheet_can_print_a_selection(ada: Client) -> None:
    sample = Deck.objects.filter(owner__username="samples").first()
    assert sample is not None
    chosen = [e.card_id for e in sample.entries.order_by("position")[:2]]
    response = ada.get(f"/api/decks/{sample.pk}/export/?to=proxies&cards={','.join(chosen)}")
    copies = sum(e.count for e in sample.entries.filter(card_id__in=chosen))
    contents = PdfReader(io.BytesIO(response.content)).pages[0].get_contents()
    assert contents is not None
    assert contents.get_data().decode("latin-1").count("178.5827 0 0 249.4488") == copies


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("pdftoppm") is None,
    reason="pdftoppm (Debian's poppler-utils) renders the page; make test-tools installs it",
)
def test_a_rendered_proxy_page_has_nine_cards_in_a_centred_grid(tmp_path: Path) -> None:
    target = tmp_path / "proxies.pdf"
    assert export(str(SAMPLES[0]), "--to", "proxies", "--output", str(target))[0] == 0
    subprocess.run(["pdftoppm", "-r", "40", "-png", "-f", "1", "-l", "1", str(target),
                    str(tmp_path / "page")], check=True)
    with Image.open(next(tmp_path.glob("page*.png"))) as page:
        grey = page.convert("L")
        width, height = grey.size  # A4 at 40 dpi: 331 x 468

        def luma(x: int, y: int) -> int:
            value = grey.getpixel((x, y))
            assert isinstance(value, int)
            return value

        card_w, card_h = 63 / 25.4 * 40, 88 / 25.4 * 40
        left, top = (width - 3 * card_w) / 2, (height - 3 * card_h) / 2
        for row in range(3):
            for column in range(3):
                centre = (int(left + (column + 0.5) * card_w), int(top + (row + 0.5) * card_h))
                assert luma(*centre) < 250, (row, column)  # a card is drawn there
        margin = [luma(x, int(height / 2)) for x in range(0, int(left) - 12)]
        assert min(margin) > 240  # the margin outside the grid is blank paper
