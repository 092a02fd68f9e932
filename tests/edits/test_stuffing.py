"""Votes that cannot be stuffed (issue 22 item 3): one person with several accounts cannot
approve their own edit into the catalogue, staff see who voted from where and void votes, and
what staff see stays with staff.

Through the API, as an attacker would, with ACCOUNTS_REQUIRE_VERIFIED_EMAIL on and the default
address check: each client has its own address (REMOTE_ADDR; no proxy in front).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from accounts.fingerprints import fingerprint_of
from edits.errors import EditClosed, EditForbidden, EditInvalid, EditNotFound
from edits.models import Edit, Vote
from edits.review import address_check
from edits.services import edit_propose, edit_vote, edit_vote_void, edit_voter_vote
from tests.commands import run_command
from tests.edits.makers import card, client_for, make_user, make_verified, post

EDITOR_AT = "203.0.113.5"
CARD = "tst-unknown-tower"


@pytest.fixture(autouse=True)
def a_public_site(settings: Any) -> None:
    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = True
    settings.CARD_EDIT_VOTER_ADDRESS_CHECK = ""  # the default: "address" on such a site


def propose(address: str = EDITOR_AT, editor: str = "mallory") -> tuple[Client, dict[str, Any]]:
    client = client_for(make_verified(editor, days_old=60), address)
    doc = post(client, "/api/edits/", {"card": CARD, "changes": {"defense": 9},
                                       "source": "trust me"}, status=201).json()
    return client, doc


def approve(name: str, address: str, edit: dict[str, Any], *, days_old: int = 60
            ) -> dict[str, Any]:
    voter = client_for(make_verified(name, days_old=days_old), address)
    return post(voter, f"/api/edits/{edit['id']}/votes/", {"vote": "approve"}, status=200).json()


def staff_view(edit: dict[str, Any]) -> dict[str, Any]:
    staff = client_for(make_user(f"mod{edit['id']}", staff=True), "192.0.2.200")
    return staff.get(f"/api/edits/{edit['id']}/").json()


def test_an_editor_and_three_fresh_verified_accounts_do_not_apply_an_edit() -> None:
    assert address_check() == "address"
    _, edit = propose()
    for n, name in enumerate(("sock1", "sock2", "sock3")):
        last = approve(name, f"198.51.{100 + n}.7", edit, days_old=0)
    assert last["status"] == "open" and last["votes"] == {"approve": 0, "reject": 0}
    assert [b["counts"] for b in last["ballots"]] == [False, False, False]
    assert card(CARD).defense is None
    trust = staff_view(edit)["trust"]
    assert [v["reasons"] for v in trust["voters"]] == [["new_account"]] * 3
    assert [v["account_age_days"] for v in trust["voters"]] == [0, 0, 0]


def test_old_accounts_voting_from_the_editors_address_do_not_apply_it_either() -> None:
    _, edit = propose()
    for name in ("sock1", "sock2", "sock3"):
        last = approve(name, EDITOR_AT, edit)
    assert last["status"] == "open" and last["votes"]["approve"] == 0
    assert card(CARD).defense is None
    trust = staff_view(edit)["trust"]
    assert all(v["same_address_as_editor"] and v["reasons"] == ["editor_address"]
               for v in trust["voters"])
    assert trust["voters"][0]["same_address_as"] == ["sock2", "sock3"]


def test_votes_from_one_other_address_count_once() -> None:
    _, edit = propose()
    for name in ("sock1", "sock2", "sock3"):
        last = approve(name, "198.51.100.7", edit)
    assert last["status"] == "open" and last["votes"]["approve"] == 1
    trust = staff_view(edit)["trust"]
    assert [v["reasons"] for v in trust["voters"]] == [[], ["shared_address"],
                                                       ["shared_address"]]
    assert approve("stranger", "192.0.2.44", edit)["status"] == "applied"
    assert card(CARD).defense == 9


def test_old_accounts_from_different_addresses_apply_it() -> None:
    _, edit = propose()
    approve("bob", "198.51.100.7", edit)
    assert approve("cy", "192.0.2.44", edit)["status"] == "applied"
    assert card(CARD).defense == 9


@pytest.mark.parametrize("check, counted", [("address", 1), ("network", 0), ("off", 2)])
def test_the_address_check_setting(settings: Any, check: str, counted: int) -> None:
    """A neighbour on the editor's /24, and a second vote from the editor's address."""
    settings.CARD_EDIT_VOTER_ADDRESS_CHECK = check
    settings.CARD_EDIT_APPROVALS = 3
    _, edit = propose()
    approve("neighbour", "203.0.113.99", edit)
    assert approve("sock", EDITOR_AT, edit)["votes"]["approve"] == counted


def test_a_small_private_site_checks_no_address_by_default(settings: Any) -> None:
    settings.CARD_EDIT_VOTER_MIN_AGE_DAYS = 0
    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = False
    assert address_check() == "off"
    settings.CARD_EDIT_VOTER_ADDRESS_CHECK = "address"
    assert address_check() == "address"


def test_staff_votes_count_from_any_address() -> None:
    _, edit = propose()
    mod = client_for(make_user("mod", staff=True, days_old=0), EDITOR_AT)
    doc = post(mod, f"/api/edits/{edit['id']}/votes/", {"vote": "approve"}, status=200).json()
    assert doc["votes"]["approve"] == 1


def test_the_fingerprints_are_recorded_never_the_address() -> None:
    _, edit = propose()
    approve("bob", "198.51.100.7", edit)
    stored, vote = Edit.objects.get(pk=edit["id"]), Vote.objects.get()
    assert stored.client == fingerprint_of(EDITOR_AT)
    assert vote.client == fingerprint_of("198.51.100.7")
    rows = json.dumps([list(Edit.objects.values()), list(Vote.objects.values())], default=str)
    assert EDITOR_AT not in rows and "198.51.100.7" not in rows


# Voiding.


def test_voiding_a_rejection_settles_the_edit_again() -> None:
    editor = make_verified("ada")
    edit = edit_propose(editor=editor, card=CARD, changes={"defense": 4}, source="my copy",
                        client=fingerprint_of("203.0.113.5"))
    troll = make_verified("troll")
    edit_vote(edit=edit, voter=troll, vote="reject", note="no", client=fingerprint_of("10.0.0.1"))
    edit_vote(edit=edit, voter=make_verified("bob"), vote="approve",
              client=fingerprint_of("10.1.0.1"))
    edit_vote(edit=edit, voter=make_verified("cy"), vote="approve",
              client=fingerprint_of("10.2.0.1"))
    assert Edit.objects.get(pk=edit.pk).status == Edit.OPEN
    mod = make_user("mod", staff=True)
    after = edit_vote_void(vote=edit_voter_vote(edit=edit, voter_name="troll"), user=mod,
                           note="a sock puppet of a banned account")
    assert after.status == Edit.APPLIED and card(CARD).defense == 4
    voided = Vote.objects.get(voter=troll)  # kept, marked
    assert (voided.voided, voided.voided_by, voided.void_note) == (
        True, mod, "a sock puppet of a banned account")


def test_a_voided_vote_never_counts_and_its_voter_may_not_vote_again() -> None:
    edit = edit_propose(editor=make_verified("ada"), card=CARD, changes={"defense": 4},
                        source="my copy")
    bob = make_verified("bob")
    edit_vote(edit=edit, voter=bob, vote="approve")
    mod = make_user("mod", staff=True)
    edit_vote_void(vote=Vote.objects.get(voter=bob), user=mod, note="sock puppet")
    with pytest.raises(EditForbidden) as refused:
        edit_vote(edit=edit, voter=bob, vote="approve")
    assert refused.value.code == "vote_voided"
    doc = Client().get(f"/api/edits/{edit.pk}/").json()
    assert doc["votes"] == {"approve": 0, "reject": 0}
    assert doc["ballots"][0] | {"created": None} == {
        "voter": "bob", "vote": "approve", "note": "", "created": None, "counts": False,
        "voided": True}
    assert Vote.objects.get(voter=bob).vote == "approve"  # not replaced


def test_only_staff_void_with_a_reason_once() -> None:
    edit = edit_propose(editor=make_verified("ada"), card=CARD, changes={"defense": 4},
                        source="my copy")
    edit_vote(edit=edit, voter=make_verified("bob"), vote="approve")
    vote = Vote.objects.get()
    with pytest.raises(EditForbidden):
        edit_vote_void(vote=vote, user=make_verified("cy"), note="I dislike bob")
    mod = make_user("mod", staff=True)
    with pytest.raises(EditInvalid):
        edit_vote_void(vote=vote, user=mod, note="  ")
    edit_vote_void(vote=vote, user=mod, note="sock puppet")
    with pytest.raises(EditClosed) as again:
        edit_vote_void(vote=vote, user=mod, note="sock puppet")
    assert again.value.code == "already_voided"
    with pytest.raises(EditNotFound):
        edit_voter_vote(edit=edit, voter_name="nobody")


def test_voiding_a_vote_of_an_applied_edit_leaves_it_applied() -> None:
    edit = edit_propose(editor=make_verified("ada"), card=CARD, changes={"defense": 4},
                        source="my copy")
    for name in ("bob", "cy"):
        edit_vote(edit=edit, voter=make_verified(name), vote="approve")
    after = edit_vote_void(vote=Vote.objects.get(voter__username="bob"),
                           user=make_user("mod", staff=True), note="sock puppet")
    assert after.status == Edit.APPLIED and card(CARD).defense == 4


def test_voiding_through_the_api() -> None:
    _, edit = propose()
    approve("sock1", "198.51.100.7", edit)
    url = f"/api/edits/{edit['id']}/votes/sock1/void/"
    voter = client_for(make_verified("bob"), "192.0.2.9")
    refused = post(voter, url, {"note": "sock"}, status=403).json()
    assert refused["code"] == "staff_only"
    staff = client_for(make_user("mod", staff=True), "192.0.2.200")
    assert post(staff, url, {}, status=400).json()["errors"]["note"]
    doc = post(staff, url, {"note": "a sock puppet"}, status=200).json()
    assert doc["ballots"][0]["voided"] is True and doc["votes"]["approve"] == 0
    assert doc["trust"]["voters"][0]["voided"]["by"] == "mod"
    assert doc["trust"]["voters"][0]["voided"]["note"] == "a sock puppet"
    assert post(staff, url, {"note": "again"}, status=409).json()["code"] == "already_voided"
    missing = f"/api/edits/{edit['id']}/votes/nobody/void/"
    assert post(staff, missing, {"note": "x"}, status=404).json()["code"] == "no_vote"


def test_voiding_in_the_admin(admin_client: Client) -> None:
    _, edit = propose()
    approve("sock1", "198.51.100.7", edit)
    vote = Vote.objects.get()
    form = {"action": "void_votes", "_selected_action": [vote.pk], "index": 0}
    admin_client.post("/admin/edits/vote/", {**form, "note": ""})
    assert not Vote.objects.get().voided  # no reason, nothing voided
    admin_client.post("/admin/edits/vote/", {**form, "note": "sock puppet"})
    vote.refresh_from_db()
    assert vote.voided and vote.void_note == "sock puppet"
    listing = admin_client.get("/admin/edits/vote/?voided_at__isempty=0").content.decode()
    assert "sock1" in listing


# Who sees what.


def test_the_trust_data_is_for_staff_only(client: Client) -> None:
    editor, edit = propose()
    approve("sock1", EDITOR_AT, edit, days_old=0)
    voter = client_for(make_verified("bob"), "192.0.2.9")
    urls = [f"/api/edits/{edit['id']}/", "/api/edits/", f"/api/cards/{CARD}/history/",
            f"/api/edits/{edit['id']}/competing/"]
    hashes = [fingerprint_of(EDITOR_AT).address, fingerprint_of(EDITOR_AT).network]
    for who in (client, editor, voter):
        for url in urls:
            body = who.get(url).content.decode()
            assert '"trust"' not in body and "account_age_days" not in body, url
            assert not any(h in body for h in hashes), url
    staff = client_for(make_user("mod", staff=True), "192.0.2.200")
    trust = staff.get(f"/api/edits/{edit['id']}/").json()["trust"]
    assert trust["editor"] | {"joined": None} == {
        "user": "mallory", "joined": None, "account_age_days": 60, "applied_edits": 0,
        "staff": False, "address_recorded": True}
    (sock,) = trust["voters"]
    assert (sock["voter"], sock["account_age_days"], sock["applied_edits"], sock["counts"],
            sock["same_address_as_editor"], sock["same_network_as_editor"]) == (
        "sock1", 0, 0, False, True, True)
    assert sock["reasons"] == ["new_account", "editor_address"]
    assert staff.get("/api/edits/").json()["results"][0]["trust"] == trust
    history = staff.get(f"/api/cards/{CARD}/history/").json()
    assert history["open"][0]["trust"] == trust
    staff_body = json.dumps(trust)
    assert not any(h in staff_body for h in hashes)  # staff see the comparisons, not hashes


def test_export_edits_carries_no_trust_data() -> None:
    _, edit = propose()
    approve("sock1", EDITOR_AT, edit)
    code, out, _ = run_command("export_edits")
    assert code == 0 and out.strip()
    line = json.loads(out.splitlines()[0])
    assert "trust" not in line and "voided" in line["ballots"][0]
    assert fingerprint_of(EDITOR_AT).address not in out


def test_the_admin_shows_each_voter_and_where_they_voted_from(admin_client: Client) -> None:
    _, edit = propose()
    approve("sock1", EDITOR_AT, edit, days_old=0)
    approve("sock2", "198.51.100.7", edit)
    page = admin_client.get(f"/admin/edits/edit/{edit['id']}/change/").content.decode()
    assert "Voters and where they voted from" in page
    assert "sock1" in page and "new_account, editor_address" in page
    assert fingerprint_of(EDITOR_AT).network[:8] in page  # the network tag
    assert fingerprint_of(EDITOR_AT).network not in page  # never the whole fingerprint
