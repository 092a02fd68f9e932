"""The edit document (DESIGN §13): what the API answers and ``export_edits`` prints, one shape
for both. Built for a whole page of edits in a fixed number of queries.

``{"id", "url", "status", "card", "changes", "source", "note", "editor", "created",
"votes": {"approve", "reject"}}`` are the contract's keys; the others serve the review pages:
``kind``, ``set``, ``before`` (the changed fields as they were when proposed), ``conflicts``
(for an open edit, each field changed since), ``reverts``, ``reverted_by``, ``decided``,
``decided_by``, ``decision_note``, ``approvals_needed``, ``ballots`` (every vote, and whether
it counts) and ``scan``.
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
from edits.review import applied_edit_counts, ballots_of, review_rules, tally_of

UrlOf = Callable[[str], str]  # a path to the URL to show (absolute in API answers)
SCAN_SIZES = ("small", "normal", "large")
_time = DateTimeField()


def edits_for_documents(edits: QuerySet[Edit]) -> QuerySet[Edit]:
    """The joins every document needs."""
    return edits.select_related("card__set", "editor", "decided_by", "scan")


def edit_documents(edits: Sequence[Edit], *, url_of: UrlOf = str,
                   now: dt.datetime | None = None) -> list[dict[str, Any]]:
    """The documents of ``edits`` (fetched with :func:`edits_for_documents`), in their order."""
    if not edits:
        return []
    now = now or timezone.now()
    rules = review_rules()
    ids = [e.pk for e in edits]
    votes: dict[int, list[Vote]] = defaultdict(list)
    for vote in Vote.objects.filter(edit_id__in=ids).select_related("voter"):
        votes[vote.edit_id].append(vote)
    applied = applied_edit_counts({v.voter_id for vs in votes.values() for v in vs})
    reverted_by: dict[int, list[int]] = defaultdict(list)
    for revert_id, reverted_id in Edit.objects.filter(reverts_id__in=ids).order_by(
            "created_at", "id").values_list("id", "reverts_id"):
        reverted_by[reverted_id].append(revert_id)
    new_card_ids = [e.card_slug for e in edits if e.kind == Edit.NEW_CARD and e.is_open]
    added = Card.objects.in_bulk(new_card_ids) if new_card_ids else {}
    documents = []
    for edit in edits:
        ballots = ballots_of(votes[edit.pk], now, rules, applied)
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
                 "created": _time.to_representation(b.created), "counts": b.counts}
                for b in ballots
            ],
            "scan": _scan_urls(edit, url_of),
        })
    return documents


def edit_document(edit: Edit, *, url_of: UrlOf = str) -> dict[str, Any]:
    fresh = edits_for_documents(Edit.objects.filter(pk=edit.pk)).get()
    return edit_documents([fresh], url_of=url_of)[0]


def _scan_urls(edit: Edit, url_of: UrlOf) -> dict[str, str] | None:
    try:
        picture = edit.scan
    except EditScan.DoesNotExist:
        return None
    version = f"?v={picture.source_hash[:10]}"
    return {size: url_of(reverse("api:edit-scan-image", args=[edit.pk, size])) + version
            for size in SCAN_SIZES}
