"""The review rules of card edits (docs/design.md §13): whose vote counts, when votes apply or
reject an edit, who is trusted (sooner with a clean record), when an edit expires, how many open
edits a new account may have.

Every rule reads its number from the settings at the moment it is asked (CARD_EDIT_*), so a
vote's weight is always judged as of now: a voter whose account has come of age counts from
then on.

Against stuffing (one person with several accounts), a vote does not count when:

* staff voided it (``voided``);
* its account is new: younger than CARD_EDIT_VOTER_MIN_AGE_DAYS, without an applied edit, not
  staff (``new_account``);
* it came from the client address the edit was proposed from (``editor_address``), or
* an earlier vote of the same kind on the edit came from the same address
  (``shared_address``): votes from one address count once.

The last two compare keyed fingerprints of the addresses (accounts.fingerprints), at the level
CARD_EDIT_VOTER_ADDRESS_CHECK sets: ``address`` (the full address), ``network`` (its /24 or
/64: stricter, and it catches a second device on the same connection) or ``off``. Its default
is ``address``, except on the small private site docs/design.md §13 names
(CARD_EDIT_VOTER_MIN_AGE_DAYS=0 and ACCOUNTS_REQUIRE_VERIFIED_EMAIL=0), where everyone may well
share one home or club network: there it is ``off``. Staff votes are exempt from the address
rules. Votes whose address is unknown (cast through a service without a request) match nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count

from accounts.fingerprints import UNKNOWN, ClientFingerprint
from edits.models import Edit, Vote

# Why a vote does not count (Ballot.reasons), in the order they are checked.
VOIDED, NEW_ACCOUNT, EDITOR_ADDRESS, SHARED_ADDRESS = (
    "voided", "new_account", "editor_address", "shared_address")


@dataclass(frozen=True)
class ReviewRules:
    approvals: int  # approvals from counting voters that apply an edit
    voter_min_age: dt.timedelta  # the account age a vote needs to count
    expire_after: dt.timedelta  # an open edit with no vote for this long expires
    trusted_after: int  # applied edits that make an editor trusted
    new_account_open_edits: int  # open edits a new account may have at once
    address_check: str = "address"  # "address", "network" or "off"
    # Fewer applied edits that make an editor trusted when reviewers corrected none of
    # theirs (clean_record); 0: no such shortcut.
    trusted_after_clean: int = 0


def address_check() -> str:
    """CARD_EDIT_VOTER_ADDRESS_CHECK, or its default: ``off`` on a small private site (no
    minimum age and no e-mail verification), ``address`` everywhere else."""
    chosen = getattr(settings, "CARD_EDIT_VOTER_ADDRESS_CHECK", "") or ""
    if chosen:
        return str(chosen)
    private = (settings.CARD_EDIT_VOTER_MIN_AGE_DAYS == 0
               and not settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL)
    return "off" if private else "address"


def review_rules() -> ReviewRules:
    return ReviewRules(
        approvals=settings.CARD_EDIT_APPROVALS,
        voter_min_age=dt.timedelta(days=settings.CARD_EDIT_VOTER_MIN_AGE_DAYS),
        expire_after=dt.timedelta(days=settings.CARD_EDIT_EXPIRE_DAYS),
        trusted_after=settings.CARD_EDIT_TRUSTED_AFTER,
        new_account_open_edits=settings.CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS,
        address_check=address_check(),
        trusted_after_clean=getattr(settings, "CARD_EDIT_TRUSTED_AFTER_CLEAN", 0),
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
    """Staff, or an editor with enough applied edits (fewer, CARD_EDIT_TRUSTED_AFTER_CLEAN,
    with a clean record): their edits apply at once."""
    if user.is_staff or applied >= rules.trusted_after:
        return True
    return bool(rules.trusted_after_clean and applied >= rules.trusted_after_clean
                and clean_record(user))


def clean_record(user: Any) -> bool:
    """Whether reviewers corrected none of ``user``'s edits: none rejected, none reverted, and
    no vote against any of them (but those staff voided)."""
    edits = Edit.objects.filter(editor=user)
    return not (edits.filter(status=Edit.REJECTED).exists()
                or edits.filter(reverted_by__status=Edit.APPLIED).exists()
                or Vote.objects.filter(edit__editor=user, vote=Vote.REJECT,
                                       voided_at__isnull=True).exists())


@dataclass(frozen=True)
class Ballot:
    voter: str
    vote: str
    note: str
    created: dt.datetime
    counts: bool  # whether the vote counts now: no reason against it
    voided: bool = False
    reasons: tuple[str, ...] = ()  # why it does not count (VOIDED, NEW_ACCOUNT, ...)


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
               applied: dict[int, int], editor: ClientFingerprint = UNKNOWN) -> list[Ballot]:
    """The votes (in the order cast) with whether each counts and why not; ``applied`` maps
    voter ids to applied_edit_counts (one query for a whole page of edits), ``editor`` is the
    fingerprint the edit was proposed from."""
    ballots = []
    counted: set[tuple[str, str]] = set()  # (vote, address key) of the counting votes so far
    for v in votes:
        reasons = vote_reasons(v, now, rules, applied.get(v.voter_id, 0), editor, counted)
        ballots.append(Ballot(voter=v.voter.username, vote=v.vote, note=v.note,
                              created=v.created_at, counts=not reasons, voided=v.voided,
                              reasons=reasons))
    return ballots


def vote_reasons(vote: Vote, now: dt.datetime, rules: ReviewRules, applied: int,
                 editor: ClientFingerprint, counted: set[tuple[str, str]]) -> tuple[str, ...]:
    """Why ``vote`` does not count (empty: it counts); records a counting vote's address in
    ``counted`` so that a later vote of the same kind from there does not count again."""
    reasons = []
    if vote.voided:
        reasons.append(VOIDED)
    if not is_established(vote.voter, applied, now, rules):
        reasons.append(NEW_ACCOUNT)
    if vote.voter.is_staff:
        return tuple(reasons)
    key = vote.client.key(rules.address_check)
    if key and key == editor.key(rules.address_check):
        reasons.append(EDITOR_ADDRESS)
    if not reasons and key:
        if (vote.vote, key) in counted:
            reasons.append(SHARED_ADDRESS)
        else:
            counted.add((vote.vote, key))
    return tuple(reasons)


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
    return tally_of(ballots_of(votes, now, rules, applied, edit.client), rules)
