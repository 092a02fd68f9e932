"""Reverting: an applied edit is undone by a new edit; staff undo one editor's work at once,
newest first, leaving alone what others changed since (issue 17 items 4 and 9)."""

from __future__ import annotations

from typing import Any

import pytest

from cards.models import CardProvenance
from edits.errors import EditConflict, EditError, EditForbidden
from edits.models import Edit
from edits.services import edit_apply, edit_propose, edit_revert, edits_revert_by_editor
from tests.edits.makers import card, client_for, make_user, post


@pytest.fixture
def mod() -> Any:
    return make_user("mod", staff=True)


def applied(editor: Any, changes: dict[str, Any], mod: Any,
            card_id: str = "tst-lamplighter") -> Edit:
    edit = edit_propose(editor=editor, card=card_id, changes=changes, source=f"{editor} copy")
    return edit_apply(edit=edit, user=mod)


def test_a_staff_revert_is_an_applied_edit_that_puts_the_old_values_back(mod: Any) -> None:
    edit = applied(make_user("ada"), {"defense": 5, "artist": "A. Painter"}, mod)
    result = edit_revert(edit=edit, user=mod, note="vandalism")
    revert = result.edit
    assert revert.status == Edit.APPLIED and revert.reverts == edit
    assert revert.changes == {"defense": 2, "artist": None}
    assert result.skipped == []
    lamplighter = card("tst-lamplighter")
    assert (lamplighter.defense, lamplighter.artist) == (2, None)
    assert CardProvenance.objects.get(card=lamplighter, field="defense").edit == revert.pk
    assert list(edit.reverted_by.all()) == [revert]


def test_a_revert_by_a_user_is_a_proposal_for_votes(mod: Any) -> None:
    edit = applied(make_user("ada"), {"defense": 5}, mod)
    revert = edit_revert(edit=edit, user=make_user("bob")).edit
    assert revert.status == Edit.OPEN and card("tst-lamplighter").defense == 5
    with pytest.raises(EditError) as again:
        edit_revert(edit=edit, user=make_user("cy"))
    assert again.value.code == "already_reverted"


def test_a_revert_leaves_alone_the_fields_changed_since_and_says_so(mod: Any) -> None:
    edit = applied(make_user("ada"), {"defense": 5, "vitality": 7}, mod)
    later = applied(make_user("bob"), {"vitality": 8}, mod)
    result = edit_revert(edit=edit, user=mod)
    assert result.edit.changes == {"defense": 2}
    assert [(s.field, s.edit) for s in result.skipped] == [("vitality", edit.pk)]
    assert f"edit #{later.pk}" in result.skipped[0].reason
    assert "vitality" in result.edit.note
    assert (card("tst-lamplighter").defense, card("tst-lamplighter").vitality) == (2, 8)


def test_nothing_left_to_revert_is_a_conflict(mod: Any) -> None:
    edit = applied(make_user("ada"), {"defense": 5}, mod)
    applied(make_user("bob"), {"defense": 6}, mod)
    with pytest.raises(EditConflict):
        edit_revert(edit=edit, user=mod)


def test_only_applied_edits_are_reverted(mod: Any) -> None:
    edit = edit_propose(editor=make_user("ada"), card="tst-lamplighter",
                        changes={"defense": 5}, source="copy")
    with pytest.raises(EditError) as refused:
        edit_revert(edit=edit, user=mod)
    assert refused.value.code == "not_applied"


def test_a_new_card_is_not_reverted_by_an_edit(mod: Any) -> None:
    edit = edit_propose(editor=mod, new_card={"id": "tst-fresh", "name": "Fresh", "set": "TST"},
                        source="checklist")
    assert edit.status == Edit.APPLIED
    with pytest.raises(EditError) as refused:
        edit_revert(edit=edit, user=mod)
    assert refused.value.code == "new_card_not_revertible"


def test_staff_revert_every_edit_of_one_editor_newest_first_skipping_later_changes(
        mod: Any) -> None:
    vandal = make_user("vandal")
    first = applied(vandal, {"defense": 5}, mod)
    second = applied(vandal, {"defense": 9, "vitality": 1}, mod)
    third = applied(vandal, {"artist": "Nobody"}, mod, card_id="tst-unknown-tower")
    fixed = applied(make_user("ada"), {"artist": "A. Painter"}, mod, card_id="tst-unknown-tower")
    still_open = edit_propose(editor=vandal, card="tst-unknown-tower",
                              changes={"defense": 99}, source="trust me")
    report = edits_revert_by_editor(editor=vandal, user=mod, note="vandalism")
    assert [r.edit.reverts_id for r in report.reverted] == [second.pk, first.pk]
    assert [(s.edit, s.field) for s in report.skipped] == [(third.pk, "artist")]
    assert f"edit #{fixed.pk}" in report.skipped[0].reason
    assert [e.pk for e in report.rejected] == [still_open.pk]
    lamplighter = card("tst-lamplighter")
    assert (lamplighter.defense, lamplighter.vitality) == (2, 3)
    assert card("tst-unknown-tower").artist == "A. Painter"
    assert Edit.objects.get(pk=still_open.pk).status == Edit.REJECTED


def test_only_staff_revert_an_editor(mod: Any) -> None:
    with pytest.raises(EditForbidden):
        edits_revert_by_editor(editor=mod, user=make_user("ada"), note="no")


def test_the_revert_apis_answer_the_revert_and_what_was_skipped(mod: Any) -> None:
    vandal = make_user("vandal")
    edit = applied(vandal, {"defense": 5, "vitality": 7}, mod)
    applied(make_user("bob"), {"vitality": 8}, mod)
    staff = client_for(mod)
    answer = post(staff, f"/api/edits/{edit.pk}/revert/", {"note": "wrong"}, status=201).json()
    assert answer["status"] == "applied" and answer["reverts"] == edit.pk
    assert [s["field"] for s in answer["skipped"]] == ["vitality"]
    other = applied(vandal, {"artist": "X"}, mod)
    report = post(staff, "/api/edits/revert-editor/", {"editor": "vandal", "note": "spam"},
                  status=200).json()
    assert [d["reverts"] for d in report["reverted"]] == [other.pk]
    assert post(staff, "/api/edits/revert-editor/", {"editor": "nobody", "note": "x"},
                status=400).json()["errors"]["editor"]
    assert post(client_for(vandal), "/api/edits/revert-editor/",
                {"editor": "vandal", "note": "x"}, status=403)
