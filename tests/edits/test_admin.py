"""Card edits in the admin: listed and shown, never changed there (the services decide)."""

from __future__ import annotations

from typing import Any

from edits.models import Edit, Vote
from edits.services import edit_propose, edit_vote
from tests.edits.makers import make_user


def test_edits_and_votes_are_listed_and_shown_read_only(admin_client: Any) -> None:
    edit = edit_propose(editor=make_user("ada"), card="tst-unknown-tower",
                        changes={"defense": 4}, source="my own copy")
    edit_vote(edit=edit, voter=make_user("bob"), vote="approve")
    for url in ("/admin/edits/edit/", f"/admin/edits/edit/{edit.pk}/change/",
                "/admin/edits/vote/", "/admin/edits/editscan/"):
        response = admin_client.get(url)
        assert response.status_code == 200, url
    assert b"my own copy" in admin_client.get(f"/admin/edits/edit/{edit.pk}/change/").content
    assert admin_client.get("/admin/edits/edit/add/").status_code == 403
    admin_client.post(f"/admin/edits/edit/{edit.pk}/delete/", {"post": "yes"})
    assert Edit.objects.filter(pk=edit.pk).exists() and Vote.objects.exists()
