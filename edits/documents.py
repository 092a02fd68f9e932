"""The edit document (docs/design.md §13): what the API answers and ``export_edits`` prints, one
shape for both. Built for a whole page of edits in a fixed number of queries.

``{"id", "url", "status", "card", "changes", "source", "note", "editor", "created",
"votes": {"approve", "reject"}}`` are the contract's keys; the others serve the review pages:
``kind``, ``set``, ``before`` (the changed fields as they were when proposed), ``conflicts``
(for an open edit, each field changed since), ``reverts``, ``reverted_by``, ``decided``,
``decided_by``, ``decision_note``, ``approvals_needed``, ``ballots`` (every vote, whether it
counts and whether staff voided it) and ``scan``.

For staff only (``for_staff=True``; never in ``export_edits`` nor in anyone else's answers),
``trust``: the editor's and each voter's account age and applied edits, why each vote does not
count, and who shares a client address or network with the editor or with another voter
(compared by keyed fingerprints, accounts.fingerprints; the fingerprints themselves are not
shown). See :func:`trust_of`.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from rest_framework.fields import DateTimeField

from cards.models import Card
from edits.models import Edit, EditScan, Vote
from edits.proposals import conflicts_of
from edits.review import (
    Ballot,
    ReviewRules,
    applied_edit_counts,
    ballots_of,
    is_established,
    review_rules,
    tally_of,
)

UrlOf = Callable[[str], str]  # a path to the URL to show (absolute in API answers)
SCAN_SIZES = ("small", "normal", "large")
_time = DateTimeField()


def edits_for_documents(edits: QuerySet[Edit]) -> QuerySet[Edit]:
    """The joins every document needs."""
    return edits.select_related("card__set", "editor", "decided_by", "scan")


def edit_documents(edits: Sequence[Edit], *, url_of: UrlOf = str,
                   now: dt.datetime | None = None, for_staff: bool = False
                   ) -> list[dict[str, Any]]:
    """The documents of ``edits`` (fetched with :func:`edits_for_documents`), in their order;
    with ``trust`` when ``for_staff`` (pass ``request.user.is_staff``)."""
    if not edits:
        return []
    now = now or timezone.now()
    rules = review_rules()
    ids = [e.pk for e in edits]
    votes: dict[int, list[Vote]] = defaultdict(list)
    for vote in Vote.objects.filter(edit_id__in=ids).select_related("voter", "voided_by"):
        votes[vote.edit_id].append(vote)
    people = {v.voter_id for vs in votes.values() for v in vs}
    if for_staff:
        people |= {e.editor_id for e in edits if e.editor_id is not None}
    applied = applied_edit_counts(people)
    reverted_by: dict[int, list[int]] = defaultdict(list)
    for revert_id, reverted_id in Edit.objects.filter(reverts_id__in=ids).order_by(
            "created_at", "id").values_list("id", "reverts_id"):
        reverted_by[reverted_id].append(revert_id)
    new_card_ids = [e.card_slug for e in edits if e.kind == Edit.NEW_CARD and e.is_open]
    added = Card.objects.in_bulk(new_card_ids) if new_card_ids else {}
    documents = []
    for edit in edits:
        ballots = ballots_of(votes[edit.pk], now, rules, applied, edit.client)
        tally = tally_of(ballots, rules)
        card = added.get(edit.card_slug) if edit.kind == Edit.NEW_CARD else edit.card
        documents.append({
            "id": edit.pk,
            "url": url_of(reverse("api:edit-detail", args=[edit.pk])),
            "status": edit.status,
            "card": edit.card_slug,
            "changes": edit.changes,
            "source": edit.source,
            "note": edit.note,
            "editor": edit.editor.get_username() if edit.editor else None,
            "created": _time.to_representation(edit.created_at),
            "votes": {"approve": tally.approve, "reject": tally.reject},
            "kind": edit.kind,
            "set": edit.set_code,
            "before": edit.before,
            "conflicts": conflicts_of(edit, card) if edit.is_open else [],
            "reverts": edit.reverts_id,
            "reverted_by": reverted_by[edit.pk],
            "decided": _time.to_representation(edit.decided_at) if edit.decided_at else None,
            "decided_by": edit.decided_by.get_username() if edit.decided_by else None,
            "decision_note": edit.decision_note,
            "approvals_needed": rules.approvals,
            "ballots": [
                {"voter": b.voter, "vote": b.vote, "note": b.note,
                 "created": _time.to_representation(b.created), "counts": b.counts,
                 "voided": b.voided}
                for b in ballots
            ],
            "scan": _scan_urls(edit, url_of),
        })
        if for_staff:
            documents[-1]["trust"] = trust_of(edit, votes[edit.pk], ballots, applied, now,
                                              rules)
    return documents


def trust_of(edit: Edit, votes: Sequence[Vote], ballots: Sequence[Ballot],
             applied: dict[int, int], now: dt.datetime, rules: ReviewRules) -> dict[str, Any]:
    """What staff weigh when an edit looks stuffed: ``{"address_check", "editor": {user,
    joined, account_age_days, applied_edits, staff, address_recorded}, "voters": [{voter,
    vote, joined, account_age_days, applied_edits, staff, established, counts, reasons,
    address_recorded, same_address_as_editor, same_network_as_editor, same_address_as,
    same_network_as, voided}]}``. ``reasons`` are edits.review's (``voided``, ``new_account``,
    ``editor_address``, ``shared_address``); ``same_address_as`` / ``same_network_as`` name the
    other voters with the same address / network (whatever CARD_EDIT_VOTER_ADDRESS_CHECK says);
    ``voided`` is null or ``{"at", "by", "note"}``."""
    editor = edit.editor
    place = edit.client
    voters = []
    for vote, ballot in zip(votes, ballots, strict=True):
        others = [o for o in votes if o.pk != vote.pk]
        voters.append({
            "voter": vote.voter.get_username(),
            "vote": vote.vote,
            **_person(vote.voter, applied, now),
            "established": is_established(vote.voter, applied.get(vote.voter_id, 0), now,
                                          rules),
            "counts": ballot.counts,
            "reasons": list(ballot.reasons),
            "address_recorded": vote.client.known,
            "same_address_as_editor": vote.client.same_address(place),
            "same_network_as_editor": vote.client.same_network(place),
            "same_address_as": [o.voter.get_username() for o in others
                                if vote.client.same_address(o.client)],
            "same_network_as": [o.voter.get_username() for o in others
                                if vote.client.same_network(o.client)],
            "voided": None if vote.voided_at is None else {
                "at": _time.to_representation(vote.voided_at),
                "by": vote.voided_by.get_username() if vote.voided_by else None,
                "note": vote.void_note,
            },
        })
    return {
        "address_check": rules.address_check,
        "editor": None if editor is None else {
            "user": editor.get_username(), **_person(editor, applied, now),
            "address_recorded": place.known},
        "voters": voters,
    }


def _person(user: Any, applied: dict[int, int], now: dt.datetime) -> dict[str, Any]:
    return {"joined": _time.to_representation(user.date_joined),
            "account_age_days": max(0, (now - user.date_joined).days),
            "applied_edits": applied.get(user.pk, 0), "staff": bool(user.is_staff)}


def _scan_urls(edit: Edit, url_of: UrlOf) -> dict[str, str] | None:
    try:
        picture = edit.scan
    except EditScan.DoesNotExist:
        return None
    version = f"?v={picture.source_hash[:10]}"
    return {size: url_of(reverse("api:edit-scan-image", args=[edit.pk, size])) + version
            for size in SCAN_SIZES}
