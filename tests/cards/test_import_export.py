"""import_cards / export_cards (docs/design.md §4): strict, atomic, idempotent, and
round-tripping."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from cards.models import Card, CardImage, CardKeyword, CardRevision, CardSet
from decks.models import Deck
from tests.commands import run_command as run
from tests.conftest import CATALOGUES

pytestmark = pytest.mark.django_db




def write(tmp_path: Path, doc: Any, name: str = "cards.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def small_set(*cards: dict[str, Any]) -> dict[str, Any]:
    return {"set": {"code": "TST", "name": "Test", "official": False, "released": None},
            "cards": list(cards)}


def test_both_catalogues_are_loaded_for_the_tests() -> None:
    assert set(CardSet.objects.values_list("code", flat=True)) == {"WOF", "DEMO"}
    assert Card.objects.filter(set__code="WOF").count() == 34
    assert Card.objects.filter(set__code="DEMO").count() >= 120


def test_reimporting_the_same_files_changes_nothing() -> None:
    revisions = CardRevision.objects.count()
    code, out, err = run("import_cards", *map(str, CATALOGUES), "--no-images", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert all(r["created"] == 0 and r["updated"] == 0 for r in report["imported"])
    assert CardRevision.objects.count() == revisions
    assert "unchanged" in err


def test_export_then_import_into_an_empty_database_reproduces_the_catalogue() -> None:
    code, exported, _ = run("export_cards")
    assert code == 0
    before = {c.id: c.as_data() for c in Card.objects.select_related("set")}
    keywords_before = CardKeyword.objects.count()
    Deck.objects.all().delete()
    Card.objects.all().delete()
    CardSet.objects.all().delete()
    code, _, err = run("import_cards", "-", "--no-images", stdin=exported)
    assert code == 0, err
    after = {c.id: c.as_data() for c in Card.objects.select_related("set")}
    assert after == before
    assert CardKeyword.objects.count() == keywords_before
    assert run("export_cards")[1] == exported


def test_export_of_one_set_is_a_set_document_in_the_data_format() -> None:
    code, out, _ = run("export_cards", "--set", "wof")
    document = json.loads(out)
    assert code == 0
    assert document["set"] == {"code": "WOF", "name": "War of Factions", "official": True,
                               "released": None, "size": 220}
    fixture = json.loads(CATALOGUES[0].read_text(encoding="utf-8"))
    assert sorted(document["cards"], key=lambda c: c["id"]) == sorted(
        fixture["cards"], key=lambda c: c["id"]
    )


def test_a_set_s_size_is_kept_by_a_file_without_it_and_refused_when_not_a_count(
        tmp_path: Path) -> None:
    bare = {"code": "WOF", "name": "War of Factions", "official": True, "released": None}
    path = tmp_path / "wof.json"
    path.write_text(json.dumps({"set": bare, "cards": []}), encoding="utf-8")
    assert run("import_cards", str(path), "--no-images")[0] == 0
    assert CardSet.objects.get(code="WOF").size == 220
    for bad in (0, -3, "220", True, 10_000):
        path.write_text(json.dumps({"set": {**bare, "size": bad}, "cards": []}), encoding="utf-8")
        code, _, err = run("import_cards", str(path), "--no-images")
        assert code != 0 and "set.size" in err, (bad, err)
    path.write_text(json.dumps({"set": {**bare, "size": None}, "cards": []}), encoding="utf-8")
    assert run("import_cards", str(path), "--no-images")[0] == 0
    assert CardSet.objects.get(code="WOF").size is None
    assert "size" not in json.loads(run("export_cards", "--set", "WOF")[1])["set"]


def test_export_of_an_unknown_set_says_which_sets_exist() -> None:
    code, out, err = run("export_cards", "--set", "NOPE")
    assert code == 1 and out == ""
    assert "unknown set 'NOPE'" in err and "WOF" in err


def test_a_file_with_one_bad_card_is_refused_whole(tmp_path: Path) -> None:
    good = {"id": "tst-good", "name": "Good", "type": "event"}
    bad = {"id": "tst-bad", "name": "Bad", "type": "spell"}
    count = Card.objects.count()
    code, _, err = run("import_cards", str(write(tmp_path, small_set(good, bad))), "--no-images")
    assert code == 1
    assert "card 'tst-bad', key 'type': 'spell' is not one of" in err
    assert "nothing was written" in err
    assert Card.objects.count() == count
    assert not CardSet.objects.filter(code="TST").exists()


def test_other_files_still_import_when_one_is_refused(tmp_path: Path) -> None:
    good = write(tmp_path, small_set({"id": "tst-ok", "name": "Ok"}), "good.json")
    bad = write(tmp_path, [{"id": "tst-x", "name": "X", "set": "TST", "cost": 1}], "bad.json")
    code, _, err = run("import_cards", str(good), str(bad), "--no-images")
    assert code == 1
    assert Card.objects.filter(id="tst-ok").exists()
    assert "bad.json, card 'tst-x', key 'cost': unknown key" in err


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"{not json", "invalid JSON at line 1, column 2"),
        (b"\xff\xfe\x00garbage", "not UTF-8 text"),
        (b'[{"id": "x-1", "name": "X", "set": "NOSUCH"}]', "unknown set 'NOSUCH'"),
    ],
    ids=["syntax", "encoding", "unknown-set"],
)
def test_an_unreadable_file_gets_a_specific_message(
    tmp_path: Path, content: bytes, expected: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    code, _, err = run("import_cards", str(path), "--no-images")
    assert code == 1 and expected in err


def test_a_missing_file_is_reported() -> None:
    code, _, err = run("import_cards", "/nonexistent/cards.json")
    assert code == 1 and "cannot read the file" in err


def test_reimport_updates_a_card_by_id_and_records_the_change(tmp_path: Path) -> None:
    doc = small_set({"id": "tst-a", "name": "A", "offense": 1})
    run("import_cards", str(write(tmp_path, doc)), "--no-images")
    doc["cards"][0]["offense"] = 3
    code, out, _ = run("import_cards", str(write(tmp_path, doc)), "--no-images", "--format", "json")
    assert code == 0 and json.loads(out)["imported"][0]["updated"] == 1
    assert Card.objects.get(id="tst-a").offense == 3
    revision = CardRevision.objects.filter(card_id="tst-a").first()
    assert revision is not None and revision.changes == {"offense": [1, 3]}


def test_keywords_are_parsed_from_the_ability_text_on_import(tmp_path: Path) -> None:
    text = "E Worship. (F)3 Campaign."
    doc = small_set({"id": "tst-priest", "name": "Priest", "abilities": text})
    run("import_cards", str(write(tmp_path, doc)), "--no-images")
    rows = list(CardKeyword.objects.filter(card_id="tst-priest").values_list(
        "ability", "exhausts", "faction_threshold"))
    assert rows == [("worship", True, None), ("campaign", False, 3)]


def png_bytes(size: tuple[int, int] = (300, 420)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (120, 40, 40)).save(buffer, "PNG")
    return buffer.getvalue()


def test_a_scan_is_checked_and_turned_into_webp_renditions(tmp_path: Path) -> None:
    (tmp_path / "scans").mkdir()
    (tmp_path / "scans" / "a.png").write_bytes(png_bytes())
    doc = small_set({"id": "tst-scanned", "name": "Scanned", "image": "scans/a.png"})
    code, _, err = run("import_cards", str(write(tmp_path, doc)))
    assert code == 0, err
    picture = CardImage.objects.get(card_id="tst-scanned")
    assert picture.status == "scan"
    with picture.large.open("rb") as handle, Image.open(handle) as image:
        assert image.format == "WEBP"


def gif_bytes() -> bytes:
    buffer = io.BytesIO()
    Image.new("P", (20, 28)).save(buffer, "GIF")
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        (gif_bytes(), "GIF"),
        (b"this is text", "not an image"),
    ],
    ids=["gif", "text"],
)
def test_a_bad_scan_refuses_the_file_and_writes_nothing(
    tmp_path: Path, payload: bytes, expected: str
) -> None:
    (tmp_path / "bad.img").write_bytes(payload)
    doc = small_set({"id": "tst-badscan", "name": "Bad scan", "image": "bad.img"})
    code, _, err = run("import_cards", str(write(tmp_path, doc)))
    assert code == 1
    assert "card 'tst-badscan', key 'image'" in err and expected in err
    assert not Card.objects.filter(id="tst-badscan").exists()


def test_a_missing_scan_file_is_named(tmp_path: Path) -> None:
    doc = small_set({"id": "tst-noscan", "name": "No scan", "image": "missing.png"})
    code, _, err = run("import_cards", str(write(tmp_path, doc)))
    assert code == 1 and "missing.png" in err and "key 'image'" in err


def test_cards_without_a_scan_get_a_rendered_face_on_import(tmp_path: Path) -> None:
    doc = small_set({"id": "tst-face", "name": "Face", "type": "wanderer", "aggression": 3})
    code, out, _ = run("import_cards", str(write(tmp_path, doc)), "--format", "json")
    assert code == 0 and json.loads(out)["imported"][0]["images"] == 1
    picture = CardImage.objects.get(card_id="tst-face")
    assert picture.status == "rendered"
    # A data change redraws the face; an unchanged re-import does not.
    old = picture.source_hash
    doc["cards"][0]["aggression"] = 5
    run("import_cards", str(write(tmp_path, doc)))
    assert CardImage.objects.get(card_id="tst-face").source_hash != old
