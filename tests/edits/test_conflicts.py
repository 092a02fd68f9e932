"""An edit is made against the card as it was: applying it after a field it changes has changed
is refused with the field's old and new values, and the edit stays open (issue 17 item 6)."""

from __future__ import annotations

from typing import Any

import pytest

from edits.errors import EditConflict
from edits.models import Edit
from edits.services import edit_apply, edit_competitors, edit_propose, edit_vote
from tests.edits.makers import card, client_for, make_user, post


def propose(editor: Any, changes: dict[str, Any], card_id: str = "tst-lamplighter") -> Edit:
    return edit_propose(editor=editor, card=card_id, changes=changes, source="my own copy")


@pytest.fixture
def mod() -> Any:
    return make_user("mod", staff=True)


def test_applying_an_edit_whose_field_changed_since_is_refused_naming_old_and_new(
        mod: Any) -> None:
    first = propose(make_user("ada"), {"defense": 5})
    second = propose(make_user("bob"), {"defense": 6, "vitality": 4})
    edit_apply(edit=first, user=mod)
    with pytest.raises(EditConflict) as refused:
        edit_apply(edit=second, user=mod)
    assert refused.value.status == 409
    assert refused.value.conflicts == [
        {"field": "defense", "proposed_against": 2, "current": 5, "proposed": 6}]
    assert "defense was 2" in refused.value.detail and "now 5" in refused.value.detail
    assert Edit.objects.get(pk=second.pk).status == Edit.OPEN
    assert (card("tst-lamplighter").defense, card("tst-lamplighter").vitality) == (5, 3)


def test_the_conflict_is_a_409_problem_and_the_document_lists_it(mod: Any) -> None:
    first = propose(make_user("ada"), {"defense": 5})
    second = propose(make_user("bob"), {"defense": 6})
    edit_apply(edit=first, user=mod)
    staff = client_for(mod)
    response = post(staff, f"/api/edits/{second.pk}/apply/", status=409)
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "conflict" and "defense" in problem["detail"]
    assert problem["conflicts"][0]["current"] == 5
    document = staff.get(f"/api/edits/{second.pk}/").json()
    assert document["status"] == "open" and document["conflicts"][0]["field"] == "defense"


def test_votes_that_complete_a_conflicting_edit_leave_it_open(mod: Any) -> None:
    first = propose(make_user("ada"), {"defense": 5})
    second = propose(make_user("bob"), {"defense": 6})
    edit_apply(edit=first, user=mod)
    edit_vote(edit=second, voter=make_user("cy"), vote="approve")
    after = edit_vote(edit=second, voter=make_user("dee"), vote="approve")
    assert after.status == Edit.OPEN and after.votes.count() == 2
    assert card("tst-lamplighter").defense == 5


def test_an_unrelated_change_is_no_conflict(mod: Any) -> None:
    first = propose(make_user("ada"), {"defense": 5})
    second = propose(make_user("bob"), {"vitality": 4})
    edit_apply(edit=first, user=mod)
    assert edit_apply(edit=second, user=mod).status == Edit.APPLIED
    assert (card("tst-lamplighter").defense, card("tst-lamplighter").vitality) == (5, 4)


def test_a_change_that_no_longer_fits_the_card_is_refused(mod: Any) -> None:
    # A subtype proposed for a personality, applied after the card became a structure.
    subtype = propose(make_user("ada"), {"subtype": "troop"})
    edit_apply(edit=propose(make_user("bob"), {"type": "structure", "subtype": "wall"}),
               user=mod)
    with pytest.raises(EditConflict):
        edit_apply(edit=subtype, user=mod)
    assert card("tst-lamplighter").subtype == "wall"


def test_a_new_card_whose_id_was_taken_since_is_refused(mod: Any) -> None:
    body = {"id": "tst-twin", "name": "Twin", "set": "TST", "type": "event"}
    first = edit_propose(editor=make_user("ada"), new_card=body, source="checklist")
    second = edit_propose(editor=make_user("bob"), new_card=body, source="checklist")
    assert edit_competitors(first) == [second]
    edit_apply(edit=first, user=mod)
    with pytest.raises(EditConflict) as refused:
        edit_apply(edit=second, user=mod)
    assert "tst-twin" in refused.value.detail


def test_competing_open_edits_of_one_field_are_listed_side_by_side(client: Any) -> None:
    first = propose(make_user("ada"), {"defense": 5, "quotation": "Light the way."})
    second = propose(make_user("bob"), {"defense": 6})
    third = propose(make_user("cy"), {"vitality": 4})
    fourth = propose(make_user("dee"), {"quotation": "Lamps!"})
    assert edit_competitors(first) == [second, fourth]
    assert edit_competitors(second) == [first]
    assert edit_competitors(third) == []
    listed = client.get(f"/api/edits/{first.pk}/competing/").json()
    assert [d["id"] for d in listed] == [second.pk, fourth.pk]


def test_a_proposal_made_against_values_that_changed_since_is_refused_at_once(
        mod: Any) -> None:
    edit_apply(edit=propose(make_user("ada"), {"defense": 5}), user=mod)
    staff_form = client_for(make_user("bob"))
    response = post(staff_form, "/api/edits/", {
        "card": "tst-lamplighter", "changes": {"defense": 6, "vitality": 4},
        "before": {"defense": 2, "vitality": 3}, "source": "my copy"}, status=409)
    assert response.json()["conflicts"] == [
        {"field": "defense", "proposed_against": 2, "current": 5, "proposed": 6}]
    assert Edit.objects.count() == 1
    post(staff_form, "/api/edits/", {
        "card": "tst-lamplighter", "changes": {"defense": 6},
        "before": {"defense": 5}, "source": "my copy"}, status=201)
