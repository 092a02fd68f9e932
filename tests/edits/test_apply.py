"""What applying an edit does, all in one transaction (issue 17 items 5, 7, 9): the card, its
sources, per-field provenance, a revision, keywords, the catalogue revision and the face; a new
card is created in its set; and a failure half way writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from cards.models import CardImage, CardKeyword, CardProvenance, CardRevision
from cards.revision_cache import catalogue_version
from decks.validation import catalogue_facts
from edits import services
from edits.models import Edit
from edits.services import edit_apply, edit_propose
from tests.edits.makers import card, make_user


@pytest.fixture
def mod() -> Any:
    return make_user("mod", staff=True)


def test_applying_records_the_source_and_the_provenance_of_every_changed_field(
        mod: Any) -> None:
    ada = make_user("ada")
    edit = edit_propose(editor=ada, card="tst-unknown-tower",
                        changes={"defense": 4, "residencies": None, "artist": "A. Painter"},
                        source="my own copy, scanned")
    edit_apply(edit=edit, user=mod)
    tower = card("tst-unknown-tower")
    assert tower.sources == ["made up for the tests", "my own copy, scanned"]
    rows = {p.field: p for p in CardProvenance.objects.filter(card=tower)}
    assert set(rows) == {"defense", "residencies", "artist"}
    assert {(p.source, p.editor, p.edit) for p in rows.values()} == {
        ("my own copy, scanned", "ada", edit.pk)}
    revision = CardRevision.objects.filter(card=tower).first()
    assert revision is not None and revision.user == ada
    assert revision.changes["defense"] == [None, 4]
    assert revision.source.startswith(f"edit #{edit.pk}")


def test_applying_bumps_the_catalogue_revision_and_decks_see_the_facts_at_once(
        mod: Any) -> None:
    before = catalogue_version().tag
    assert catalogue_facts()["tst-unknown-tower"].defense is None
    edit_apply(edit=edit_propose(editor=make_user("ada"), card="tst-unknown-tower",
                                 changes={"defense": 4}, source="copy"), user=mod)
    assert catalogue_version().tag != before
    assert catalogue_facts()["tst-unknown-tower"].defense == 4


def test_applying_parses_the_new_abilities_into_keywords(mod: Any) -> None:
    edit_apply(edit=edit_propose(editor=make_user("ada"), card="tst-unknown-tower",
                                 changes={"abilities": "Ranged."}, source="copy"), user=mod)
    assert list(CardKeyword.objects.filter(card_id="tst-unknown-tower")
                .values_list("ability", flat=True)) == ["ranged"]


def test_the_face_is_redrawn_once_the_edit_is_committed(
        mod: Any, django_capture_on_commit_callbacks: Any) -> None:
    edit = edit_propose(editor=make_user("ada"), card="tst-unknown-tower",
                        changes={"name": "Known Tower"}, source="copy")
    with django_capture_on_commit_callbacks(execute=True):
        edit_apply(edit=edit, user=mod)
    picture = CardImage.objects.get(card_id="tst-unknown-tower")
    assert picture.status == CardImage.RENDERED and picture.large.name


def test_a_new_card_edit_creates_the_card_in_its_set_with_provenance(mod: Any) -> None:
    edit = edit_propose(
        editor=make_user("ada"),
        new_card={"id": "tst-new-arrival", "name": "New Arrival", "set": "TST",
                  "type": "personality", "subtype": "troop", "offense": 2,
                  "sources": ["a trade list"]},
        source="the printed checklist")
    assert edit.kind == Edit.NEW_CARD and edit.card is None
    edit_apply(edit=edit, user=mod)
    arrival = card("tst-new-arrival")
    assert (arrival.set.code, arrival.official, arrival.offense, arrival.defense) == (
        "TST", False, 2, None)
    assert arrival.sources == ["a trade list", "the printed checklist"]
    assert Edit.objects.get(pk=edit.pk).card == arrival
    assert set(CardProvenance.objects.filter(card=arrival).values_list("field", flat=True)) == {
        "name", "type", "subtype", "offense", "sources"}
    assert CardRevision.objects.filter(card=arrival).count() == 1


def test_nothing_is_half_applied_when_applying_fails_midway(
        mod: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    edit = edit_propose(editor=make_user("ada"), card="tst-lamplighter",
                        changes={"defense": 5, "abilities": "Ranged."}, source="copy")
    before = card("tst-lamplighter").as_data()
    keywords = list(CardKeyword.objects.filter(card_id="tst-lamplighter").values_list("ability"))
    revisions = CardRevision.objects.count()
    tag = catalogue_version().tag

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(services, "card_provenance_record", broken)
    with pytest.raises(RuntimeError):
        edit_apply(edit=edit, user=mod)
    assert card("tst-lamplighter").as_data() == before
    assert list(CardKeyword.objects.filter(card_id="tst-lamplighter")
                .values_list("ability")) == keywords
    assert CardRevision.objects.count() == revisions
    assert not CardProvenance.objects.filter(card_id="tst-lamplighter").exists()
    assert Edit.objects.get(pk=edit.pk).status == Edit.OPEN
    assert catalogue_version().tag == tag


def test_a_staff_edit_in_the_admin_records_provenance_too(admin_client: Any) -> None:
    from cards.services import card_record_edit

    tower = card("tst-unknown-tower")
    old = tower.as_data()
    tower.defense = 3
    tower.save()
    card_record_edit(card=tower, old=old, user=make_user("mod", staff=True), source="admin")
    row = CardProvenance.objects.get(card=tower, field="defense")
    assert (row.editor, row.edit, row.source) == ("mod", None, "admin (staff edit)")
