"""Per-field provenance in card data files (issue 17 item 5): export_cards writes it for the
cards that have some, import_cards reads it back exactly, files without it stay valid, and the
contract's validator accepts the new key only in its documented form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from cards.card_data import CardDataError, parse_card_document
from cards.models import Card, CardProvenance, CardSet
from edits.services import edit_apply, edit_propose
from tests.commands import run_command
from tests.edits.makers import make_user

GOOD = {"source": "my own copy", "editor": "ada", "date": "2026-05-01T12:00:00.123456Z",
        "edit": 12}


def state_of_the_test_set() -> dict[str, Any]:
    return {
        c.id: (c.as_data(), sorted(c.provenance.values_list("field", "source", "editor", "edit",
                                                            "date")))
        for c in Card.objects.filter(set__code="TST")
    }


def card_with(provenance: Any) -> dict[str, Any]:
    return {"id": "tst-x", "name": "X", "set": "TST", "provenance": provenance}


def test_the_community_work_leaves_with_its_sources_and_comes_back_exactly() -> None:
    mod = make_user("mod", staff=True)
    edit = edit_propose(editor=make_user("ada"), card="tst-unknown-tower",
                        changes={"defense": 4, "artist": "A. Painter"}, source="my own copy")
    edit_apply(edit=edit, user=mod)
    code, exported, _ = run_command("export_cards", "--set", "TST")
    assert code == 0
    document = json.loads(exported)
    tower = next(c for c in document["cards"] if c["id"] == "tst-unknown-tower")
    assert list(tower["provenance"]) == ["defense", "artist"]  # in the order of the keys
    assert tower["provenance"]["defense"]["edit"] == edit.pk
    assert tower["provenance"]["defense"]["editor"] == "ada"
    assert tower["sources"][-1] == "my own copy"
    lamplighter = next(c for c in document["cards"] if c["id"] == "tst-lamplighter")
    assert "provenance" not in lamplighter  # cards without any keep the file as it was

    before = state_of_the_test_set()
    Card.objects.filter(set__code="TST").delete()
    CardSet.objects.filter(code="TST").delete()
    code, _, err = run_command("import_cards", "-", "--no-images", stdin=exported)
    assert code == 0, err
    assert state_of_the_test_set() == before
    code, again, _ = run_command("export_cards", "--set", "TST")
    assert again == exported


def test_reimporting_the_export_changes_nothing() -> None:
    edit_apply(edit=edit_propose(editor=make_user("ada"), card="tst-unknown-tower",
                                 changes={"defense": 4}, source="copy"),
               user=make_user("mod", staff=True))
    _, exported, _ = run_command("export_cards", "--set", "TST")
    code, out, _ = run_command("import_cards", "-", "--no-images", "--format", "json",
                               stdin=exported)
    report = json.loads(out)["imported"][0]
    assert code == 0 and (report["created"], report["updated"]) == (0, 0)


def test_an_import_without_provenance_drops_it_only_for_the_fields_it_changes(
        tmp_path: Path) -> None:
    # Provenance of a staff edit in the admin (no edit number): an import may replace it.
    from cards.services import card_provenance_record
    from tests.edits.makers import card

    tower = card("tst-unknown-tower")
    tower.defense, tower.vitality = 4, 6
    tower.save()
    card_provenance_record(tower, ["defense", "vitality"], source="admin", editor="mod",
                           edit=None, date=timezone.now())
    _, exported, _ = run_command("export_cards", "--set", "TST")
    document = json.loads(exported)
    for entry in document["cards"]:
        entry.pop("provenance", None)
        if entry["id"] == "tst-unknown-tower":
            entry["defense"] = 5
    path = tmp_path / "tst.json"
    path.write_text(json.dumps(document))
    code, _, err = run_command("import_cards", str(path), "--no-images")
    assert code == 0, err
    assert list(CardProvenance.objects.filter(card_id="tst-unknown-tower")
                .values_list("field", flat=True)) == ["vitality"]


def test_a_file_without_provenance_is_valid() -> None:
    parsed = parse_card_document([{"id": "tst-x", "name": "X", "set": "TST"}], "f.json")
    assert "provenance" not in parsed.cards[0]


def test_the_documented_provenance_is_read_with_its_date() -> None:
    parsed = parse_card_document([card_with({"defense": GOOD})], "f.json")
    entry = parsed.cards[0]["provenance"]["defense"]
    assert (entry["source"], entry["editor"], entry["edit"]) == ("my own copy", "ada", 12)
    assert entry["date"].isoformat() == "2026-05-01T12:00:00.123456+00:00"
    unknown = {**GOOD, "editor": None, "edit": None}
    assert parse_card_document([card_with({"name": unknown})], "f.json")


@pytest.mark.parametrize("provenance, key", [
    (["defense"], "provenance"),
    ({"id": GOOD}, "provenance.id"),
    ({"image": GOOD}, "provenance.image"),
    ({"colour": GOOD}, "provenance.colour"),
    ({"defense": "my copy"}, "provenance.defense"),
    ({"defense": {k: v for k, v in GOOD.items() if k != "edit"}}, "provenance.defense"),
    ({"defense": {**GOOD, "extra": 1}}, "provenance.defense"),
    ({"defense": {**GOOD, "source": ""}}, "provenance.defense.source"),
    ({"defense": {**GOOD, "editor": 7}}, "provenance.defense.editor"),
    ({"defense": {**GOOD, "date": "2026-05-01"}}, "provenance.defense.date"),
    ({"defense": {**GOOD, "date": "2026-05-01T12:00:00"}}, "provenance.defense.date"),
    ({"defense": {**GOOD, "edit": 0}}, "provenance.defense.edit"),
    ({"defense": {**GOOD, "edit": "12"}}, "provenance.defense.edit"),
    ({"defense": {**GOOD, "edit": True}}, "provenance.defense.edit"),
])
def test_provenance_in_any_other_form_is_refused_naming_the_key(provenance: Any,
                                                                key: str) -> None:
    with pytest.raises(CardDataError) as refused:
        parse_card_document([card_with(provenance)], "f.json")
    assert [p.key for p in refused.value.problems] == [key]


def test_reimporting_the_public_file_keeps_the_values_reviewed_edits_set(tmp_path: Path) -> None:
    from tests.edits.makers import TEST_CARDS, TEST_SET, card

    edit_apply(edit=edit_propose(editor=make_user("ada"), card="tst-unknown-tower",
                                 changes={"defense": 4}, source="my own copy"),
               user=make_user("mod", staff=True))
    changed = [{**c, "artist": "Public Artist"} if c["id"] == "tst-unknown-tower" else c
               for c in TEST_CARDS]
    path = tmp_path / "public.json"
    path.write_text(json.dumps({"set": TEST_SET, "cards": changed}))
    code, out, err = run_command("import_cards", str(path), "--no-images", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["imported"][0]["kept"] == ["tst-unknown-tower.defense"]
    assert "1 value(s) from reviewed edits kept" in err
    tower = card("tst-unknown-tower")
    assert (tower.defense, tower.artist) == (4, "Public Artist")  # new public facts still come in
    assert tower.sources == ["made up for the tests", "my own copy"]
