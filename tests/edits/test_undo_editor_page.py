"""Staff undo a vandal's work from the edits list: /edits/?editor=NAME offers it, a note is
required (kept when refused), and the editor's applied edits are reverted, open ones rejected."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from edits.models import Edit
from edits.services import edit_apply, edit_propose
from tests.edits.makers import card, client_for, make_test_set, make_user, make_verified

pytestmark = pytest.mark.django_db


@pytest.fixture
def vandal_and_staff() -> tuple[User, User]:
    make_test_set()
    vandal = make_verified("vandal")
    staff = make_verified("mod", staff=True)
    applied = edit_propose(editor=vandal, card="tst-unknown-tower", changes={"defense": 9},
                           source="my own copy")
    edit_apply(edit=applied, user=staff)
    edit_propose(editor=vandal, card="tst-lamplighter", changes={"offense": 7},
                 source="my own copy")
    return vandal, staff


def test_staff_see_the_undo_form_only_when_listing_one_existing_editor(
        vandal_and_staff: tuple[User, User]) -> None:
    _vandal, staff = vandal_and_staff
    staff_page = client_for(staff).get("/edits/?editor=vandal&status=all").content.decode()
    assert "Undo all of vandal's work" in staff_page
    assert "Undo all of" not in client_for(staff).get("/edits/").content.decode()
    assert "Undo all of" not in client_for(staff).get("/edits/?editor=nobody").content.decode()
    peer = make_verified("peer")
    assert "Undo all of" not in client_for(peer).get("/edits/?editor=vandal").content.decode()


def test_undoing_an_editor_reverts_applied_edits_and_rejects_open_ones(
        vandal_and_staff: tuple[User, User]) -> None:
    vandal, staff = vandal_and_staff
    response = client_for(staff).post("/edits/revert-editor/",
                                      {"editor": "vandal", "note": "vandalism"}, follow=True)
    page = response.content.decode()
    assert "1 applied edit reverted, 1 open edit rejected" in page
    assert card("tst-unknown-tower").defense is None
    assert not Edit.objects.filter(editor=vandal, status=Edit.OPEN).exists()


def test_undo_without_a_note_is_refused_and_keeps_nothing_half_done(
        vandal_and_staff: tuple[User, User]) -> None:
    _vandal, staff = vandal_and_staff
    response = client_for(staff).post("/edits/revert-editor/", {"editor": "vandal",
                                                                 "note": "  "})
    assert response.status_code == 400
    assert "say why" in response.content.decode()
    assert card("tst-unknown-tower").defense == 9


def test_only_staff_may_undo_an_editor(
        vandal_and_staff: tuple[User, User]) -> None:
    _vandal, staff = vandal_and_staff
    response = client_for(make_user("peer")).post("/edits/revert-editor/",
                                                  {"editor": "vandal", "note": "no"})
    assert response.status_code == 403
    assert card("tst-unknown-tower").defense == 9
    assert client_for(staff).post("/edits/revert-editor/",
                                  {"editor": "nobody", "note": "x"}).status_code == 404
