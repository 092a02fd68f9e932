"""The review rules of card edits (DESIGN §13): whose vote counts, when votes apply or reject an
edit, who is trusted, when an edit expires, how many open edits a new account may have.

Every rule reads its number from the settings at the moment it is asked (CARD_EDIT_*), so a
vote's weight is always judged as of now: a voter whose account has come of age counts from
then on.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count

from edits.models import Edit, Vote


@dataclass(frozen=True)
class ReviewRules:
    approvals: int  # approvals from counting voters that apply an edit
    voter_min_age: dt.timedelta  # the account age a vote needs to count
    expire_after: dt.timedelta  # an open edit with no vote for this long expires
    trusted_after: int  # applied edits that make an editor trusted
    new_account_open_edits: int  # open edits a new account may have at once


def review_rules() -> ReviewRules:
    return ReviewRules(
        approvals=settings.CARD_EDIT_APPROVALS,
        voter_min_age=dt.timedelta(days=settings.CARD_EDIT_VOTER_MIN_AGE_DAYS),
        expire_after=dt.timedelta(days=settings.CARD_EDIT_EXPIRE_DAYS),
        trusted_after=settings.CARD_EDIT_TRUSTED_AFTER,
        new_account_open_edits=settings.CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS,
    )


def applied_edit_counts(user_ids: Iterable[int]) -> dict[int, int]:
    """Each user's applied edits, less those undone by an applied revert."""
    rows = (
        Edit.objects.filter(editor_id__in=list(user_ids), status=Edit.APPLIED)
        .exclude(reverted_by__status=Edit.APPLIED)
        .values("editor_id").annotate(n=Count("id", distinct=True))
    )
    return {row["editor_id"]: row["n"] for row in rows}


def applied_edit_count(user: Any) -> int:
    return applied_edit_counts([user.pk]).get(user.pk, 0)


def is_established(user: Any, applied: int, now: dt.datetime, rules: ReviewRules) -> bool:
    """Staff, an account at least the minimum age, or an editor with an applied edit: their
    votes count and they have no limit of open edits."""
    return bool(user.is_staff or applied > 0 or now - user.date_joined >= rules.voter_min_age)


def is_trusted(user: Any, applied: int, rules: ReviewRules) -> bool:
    """Staff, or an editor with enough applied edits: their edits apply at once."""
    return bool(user.is_staff or applied >= rules.trusted_after)


@dataclass(frozen=True)
class Ballot:
    voter: str
    vote: str
    note: str
    created: dt.datetime
    counts: bool  # whether the voter's vote counts now (edits.review.is_established)


@dataclass(frozen=True)
class Tally:
    """The counting votes of an edit and what they decide."""

    approve: int
    reject: int
    needed: int

    @property
    def outcome(self) -> str | None:
        """``"apply"`` with enough approvals and no rejection; ``"reject"`` once rejections
        reach the number of approvals an edit needs; otherwise None (the edit stays open)."""
        if self.reject >= self.needed:
            return "reject"
        if self.approve >= self.needed and self.reject == 0:
            return "apply"
        return None


def ballots_of(votes: Iterable[Vote], now: dt.datetime, rules: ReviewRules,
               applied: dict[int, int]) -> list[Ballot]:
    """The votes with whether each counts; ``applied`` maps voter ids to applied_edit_counts
    (one query for a whole page of edits)."""
    return [
        Ballot(voter=v.voter.username, vote=v.vote, note=v.note, created=v.created_at,
               counts=is_established(v.voter, applied.get(v.voter_id, 0), now, rules))
        for v in votes
    ]


def tally_of(ballots: Iterable[Ballot], rules: ReviewRules) -> Tally:
    counting = [b for b in ballots if b.counts]
    return Tally(
        approve=sum(b.vote == Vote.APPROVE for b in counting),
        reject=sum(b.vote == Vote.REJECT for b in counting),
        needed=rules.approvals,
    )


def edit_tally(edit: Edit, now: dt.datetime, rules: ReviewRules) -> Tally:
    votes = list(edit.votes.select_related("voter"))
    applied = applied_edit_counts({v.voter_id for v in votes})
    return tally_of(ballots_of(votes, now, rules, applied), rules)
