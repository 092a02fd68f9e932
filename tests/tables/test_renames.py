"""A person renamed shows his new name at his tables at once (tables.renames): what a view
reads besides the table's row, his seat and his talk among it, is kept at the table's version
(tables.kept_rows), and a rename changes the versions of his tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables import services
from tables.models import Table
from tests.tables.calls import person, post, started, view

pytestmark = pytest.mark.django_db


def staff_renamed(user: User, name: str) -> None:
    """A member of staff renames ``user`` on the admin's change page (the one place a name
    changes: no page or API of ours renames)."""
    staff = Client()
    staff.force_login(User.objects.create_superuser("staff", "staff@example.com", "pw"))
    form = {"username": name, "email": user.email, "is_active": "on",
            "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
            "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
            **{f"email_verification-{n}": v for n, v in (
                ("TOTAL_FORMS", "0"), ("INITIAL_FORMS", "0"), ("MIN_NUM_FORMS", "0"),
                ("MAX_NUM_FORMS", "1"))}}
    saved = staff.post(f"/admin/auth/user/{user.pk}/change/", form)
    assert saved.status_code == 302, saved.content.decode()[-2000:]
    assert User.objects.get(pk=user.pk).username == name


def test_a_renamed_person_s_seat_and_talk_show_his_new_name_in_the_view_and_the_page() -> None:
    ada, bob = person("ada"), person("bobby_old")
    table = started(ada, [bob])
    assert post(bob, f"/api/tables/{table['id']}/chat/", {"text": "hello"}).status_code == 201
    before = view(ada, table["id"])  # read and kept at this version
    assert [s["name"] for s in before["seats"]] == ["ada", "bobby_old"]
    assert "bobby_old" in ada.get(f"/tables/{table['id']}/").content.decode()
    staff_renamed(User.objects.get(username="bobby_old"), "robert_new")
    after = view(ada, table["id"])
    assert after["version"] > before["version"]
    assert [s["name"] for s in after["seats"]] == ["ada", "robert_new"]
    assert [line["name"] for line in after["chat"]] == ["robert_new"]
    page = ada.get(f"/tables/{table['id']}/").content.decode()
    assert "robert_new" in page and "bobby_old" not in page


def test_the_tables_of_a_renamed_person_are_told_and_no_other(
        monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any) -> None:
    ada, bob, cy = person("ada"), person("bob"), person("cy")
    his, theirs = started(ada, [bob]), started(ada, [cy])
    told: list[tuple[int, int]] = []
    monkeypatch.setattr(services, "announce_change", lambda pk, v: told.append((pk, v)))
    renamed = User.objects.get(username="bob")
    renamed.username = "bobby"
    with django_capture_on_commit_callbacks(execute=True):
        renamed.save(update_fields=["username"])
    assert told == [(his["id"], his["version"] + 1)]
    assert Table.objects.get(pk=theirs["id"]).version == theirs["version"]


def test_a_save_that_keeps_the_name_changes_no_table() -> None:
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob])
    user = User.objects.get(username="bob")
    user.email = "robert@example.com"
    user.save()
    user.save(update_fields=["last_login"])  # as every login does
    assert Table.objects.get(pk=table["id"]).version == table["version"]
