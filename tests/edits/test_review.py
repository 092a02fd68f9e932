"""The review rules (docs/design.md §13, issue 17 item 4), one scenario per rule, through the
services with the default settings: 2 approvals, votes count from accounts 7 days old."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from cards.models import Card
from edits.errors import EditClosed, EditForbidden, EditInvalid
from edits.models import Edit
from edits.services import (
    edit_apply,
    edit_cancel,
    edit_propose,
    edit_reject,
    edit_vote,
    edits_expire,
    edits_settle,
)
from tests.edits.makers import card, make_user


def propose(editor: Any, changes: dict[str, Any] | None = None, **kw: Any) -> Edit:
    return edit_propose(editor=editor, card=kw.pop("card", "tst-unknown-tower"),
                        changes=changes or {"defense": 4}, source="my own copy", **kw)


def test_an_edit_with_two_approvals_and_no_rejection_is_applied() -> None:
    edit = propose(make_user("ada"))
    assert edit_vote(edit=edit, voter=make_user("bob"), vote="approve").status == Edit.OPEN
    assert edit_vote(edit=edit, voter=make_user("cy"), vote="approve").status == Edit.APPLIED
    assert card("tst-unknown-tower").defense == 4


def test_a_vote_from_an_account_younger_than_the_minimum_age_does_not_count() -> None:
    edit = propose(make_user("ada"))
    edit_vote(edit=edit, voter=make_user("bob"), vote="approve")
    young = make_user("newcomer", days_old=2)
    after = edit_vote(edit=edit, voter=young, vote="approve")
    assert after.status == Edit.OPEN
    assert card("tst-unknown-tower").defense is None


def test_a_young_voter_with_an_applied_edit_counts() -> None:
    young = make_user("newcomer", days_old=1)
    theirs = propose(young, {"artist": "A. Painter"})
    for name in ("bob", "cy"):
        edit_vote(edit=theirs, voter=make_user(name), vote="approve")
    edit = propose(make_user("ada"), card="tst-lamplighter", changes={"defense": 3})
    edit_vote(edit=edit, voter=Edit.objects.get(pk=theirs.pk).editor, vote="approve")
    assert edit_vote(edit=edit, voter=make_user("dee"), vote="approve").status == Edit.APPLIED


def test_a_staff_vote_counts_whatever_the_account_age() -> None:
    edit = propose(make_user("ada"))
    edit_vote(edit=edit, voter=make_user("mod", days_old=0, staff=True), vote="approve")
    assert edit_vote(edit=edit, voter=make_user("bob"), vote="approve").status == Edit.APPLIED


def test_a_vote_counts_from_the_day_the_voter_is_old_enough() -> None:
    edit = propose(make_user("ada"))
    young = make_user("newcomer", days_old=6)
    edit_vote(edit=edit, voter=young, vote="approve")
    edit_vote(edit=edit, voter=make_user("bob"), vote="approve")
    assert Edit.objects.get(pk=edit.pk).status == Edit.OPEN
    assert edits_settle(now=timezone.now() + dt.timedelta(days=2)) == [edit.pk]
    assert Edit.objects.get(pk=edit.pk).status == Edit.APPLIED


def test_one_rejection_keeps_an_edit_from_applying() -> None:
    edit = propose(make_user("ada"))
    edit_vote(edit=edit, voter=make_user("bob"), vote="reject", note="the copy says 5")
    edit_vote(edit=edit, voter=make_user("cy"), vote="approve")
    assert edit_vote(edit=edit, voter=make_user("dee"), vote="approve").status == Edit.OPEN


def test_as_many_rejections_as_approvals_needed_reject_the_edit() -> None:
    edit = propose(make_user("ada"))
    edit_vote(edit=edit, voter=make_user("bob"), vote="reject", note="wrong")
    assert edit_vote(edit=edit, voter=make_user("cy"), vote="reject",
                     note="also wrong").status == Edit.REJECTED


def test_a_rejection_needs_a_note() -> None:
    edit = propose(make_user("ada"))
    with pytest.raises(EditInvalid) as refused:
        edit_vote(edit=edit, voter=make_user("bob"), vote="reject", note="  ")
    assert "note" in refused.value.errors
    assert not edit.votes.exists()


def test_the_editor_may_not_vote_on_their_own_edit() -> None:
    ada = make_user("ada")
    edit = propose(ada)
    with pytest.raises(EditForbidden) as refused:
        edit_vote(edit=edit, voter=ada, vote="approve")
    assert refused.value.status == 403 and refused.value.code == "own_edit"


def test_a_closed_edit_takes_no_votes() -> None:
    ada = make_user("ada")
    edit = edit_cancel(edit=propose(ada), user=ada)
    with pytest.raises(EditClosed):
        edit_vote(edit=edit, voter=make_user("bob"), vote="approve")


def test_staff_apply_an_edit_without_votes() -> None:
    edit = propose(make_user("ada"))
    applied = edit_apply(edit=edit, user=make_user("mod", staff=True))
    assert applied.status == Edit.APPLIED and applied.decided_by is not None
    assert card("tst-unknown-tower").defense == 4


def test_only_staff_apply_or_reject() -> None:
    edit = propose(make_user("ada"))
    bob = make_user("bob")
    with pytest.raises(EditForbidden):
        edit_apply(edit=edit, user=bob)
    with pytest.raises(EditForbidden):
        edit_reject(edit=edit, user=bob, note="no")


def test_staff_reject_with_a_note() -> None:
    edit = propose(make_user("ada"))
    mod = make_user("mod", staff=True)
    with pytest.raises(EditInvalid):
        edit_reject(edit=edit, user=mod, note="")
    rejected = edit_reject(edit=edit, user=mod, note="the scan shows 5")
    assert (rejected.status, rejected.decision_note) == (Edit.REJECTED, "the scan shows 5")
    assert card("tst-unknown-tower").defense is None


def test_only_the_author_cancels_their_open_edit() -> None:
    ada = make_user("ada")
    edit = propose(ada)
    with pytest.raises(EditForbidden):
        edit_cancel(edit=edit, user=make_user("bob"))
    assert edit_cancel(edit=edit, user=ada).status == Edit.CANCELLED
    with pytest.raises(EditClosed):
        edit_cancel(edit=edit, user=ada)


def test_a_trusted_editors_edit_applies_at_once_and_is_still_listed(settings: Any) -> None:
    settings.CARD_EDIT_TRUSTED_AFTER = 1
    ada = make_user("ada")
    first = propose(ada)
    assert first.status == Edit.OPEN  # not trusted yet: no applied edit
    edit_apply(edit=first, user=make_user("mod", staff=True))
    second = propose(ada, card="tst-lamplighter", changes={"defense": 3})
    assert second.status == Edit.APPLIED and second.decided_by is None
    assert card("tst-lamplighter").defense == 3
    assert Edit.objects.filter(editor=ada, status=Edit.APPLIED).count() == 2


def _applied(editor: Any, changes: dict[str, Any], voters: tuple[str, str]) -> Edit:
    edit = propose(editor, changes=changes)
    for voter in voters:
        edit = edit_vote(edit=edit, voter=make_user(voter), vote="approve")
    return edit


@pytest.mark.parametrize(("against", "trusted"), [
    (False, True),  # reviewers corrected nothing: trusted after 2 applied edits, not 10
    (True, False),  # a reviewer voted against another of the editor's edits: the usual 10
])
def test_a_careful_editor_is_trusted_after_fewer_applied_edits(
        settings: Any, against: bool, trusted: bool) -> None:
    settings.CARD_EDIT_TRUSTED_AFTER_CLEAN = 2
    ada = make_user("ada")
    if against:
        doubted = propose(ada, card="tst-lamplighter", changes={"offense": 9})
        edit_vote(edit=doubted, voter=make_user("nit"), vote="reject", note="it prints 2")
    assert _applied(ada, {"defense": 4}, ("bob", "cy")).status == Edit.APPLIED
    assert _applied(ada, {"offense": 2}, ("dee", "eve")).status == Edit.APPLIED
    third = propose(ada, card="tst-lamplighter", changes={"defense": 3})
    assert (third.status == Edit.APPLIED) is trusted


def test_a_rejected_edit_keeps_an_editor_from_the_shortcut(settings: Any) -> None:
    settings.CARD_EDIT_TRUSTED_AFTER_CLEAN = 1
    ada = make_user("ada")
    rejected = propose(ada, card="tst-lamplighter", changes={"defense": 9})
    edit_reject(edit=rejected, user=make_user("mod", staff=True), note="it prints 3")
    assert _applied(ada, {"defense": 4}, ("bob", "cy")).status == Edit.APPLIED
    assert propose(ada, changes={"offense": 2}).status == Edit.OPEN


def test_staff_edits_apply_at_once() -> None:
    edit = propose(make_user("mod", staff=True))
    assert edit.status == Edit.APPLIED


def test_an_open_edit_without_votes_expires_after_the_set_number_of_days() -> None:
    edit = propose(make_user("ada"))
    assert edits_expire(now=timezone.now() + dt.timedelta(days=29)) == []
    assert edits_expire(now=timezone.now() + dt.timedelta(days=31)) == [edit.pk]
    assert Edit.objects.get(pk=edit.pk).status == Edit.EXPIRED


def test_a_recent_vote_keeps_an_edit_from_expiring() -> None:
    edit = propose(make_user("ada"))
    later = timezone.now() + dt.timedelta(days=20)
    edit_vote(edit=edit, voter=make_user("bob"), vote="approve", now=later)
    assert edits_expire(now=timezone.now() + dt.timedelta(days=31)) == []
    assert edits_expire(now=later + dt.timedelta(days=31)) == [edit.pk]


def test_an_expired_edit_takes_no_vote_even_before_the_command_runs() -> None:
    edit = propose(make_user("ada"))
    with pytest.raises(EditClosed):
        edit_vote(edit=edit, voter=make_user("bob"), vote="approve",
                  now=timezone.now() + dt.timedelta(days=31))
    assert Edit.objects.get(pk=edit.pk).status == Edit.EXPIRED


def test_the_expire_edits_command_expires_stale_edits() -> None:
    from tests.commands import run_command

    edit = propose(make_user("ada"))
    Edit.objects.filter(pk=edit.pk).update(created_at=timezone.now() - dt.timedelta(days=40))
    code, out, _ = run_command("expire_edits", "--format", "json")
    assert code == 0 and f"[{edit.pk}]" in out
    assert Edit.objects.get(pk=edit.pk).status == Edit.EXPIRED


def test_a_new_account_has_a_limit_of_open_edits(settings: Any) -> None:
    settings.CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS = 2
    young = make_user("newcomer", days_old=1)
    propose(young, {"defense": 4})
    propose(young, {"vitality": 9})
    with pytest.raises(EditForbidden) as refused:
        propose(young, {"offense": 1})
    assert refused.value.code == "open_edit_limit"
    assert Edit.objects.filter(editor=young).count() == 2
    older = make_user("ada")
    for n in range(3):
        propose(older, {"offense": n})


def test_an_edit_that_changes_nothing_is_refused() -> None:
    with pytest.raises(EditInvalid) as refused:
        propose(make_user("ada"), card="tst-lamplighter", changes={"defense": 2})
    assert "changes" in refused.value.errors


def test_nothing_is_stored_for_a_refused_proposal() -> None:
    before = Card.objects.get(id="tst-lamplighter").as_data()
    with pytest.raises(EditInvalid) as refused:
        edit_propose(editor=make_user("ada"), card="tst-lamplighter",
                     changes={"defense": "two", "rarity": "mythic", "colour": "red"}, source="")
    assert set(refused.value.errors) == {"changes.defense", "changes.rarity", "changes.colour",
                                         "source"}
    assert not Edit.objects.exists()
    assert Card.objects.get(id="tst-lamplighter").as_data() == before
