"""Everything that writes card edits (docs/design.md §13), HackSoft style: ``<entity>_<verb>(*,
...)``.

Each service is one transaction and either does all it says or raises an
:class:`edits.errors.EditError` having written nothing. Rows that two requests could change at
once (the edit being voted on or applied, the card being changed) are locked first.

Applying an edit changes the card, appends the edit's source to the card's ``sources``, records
where each changed field came from (cards.models.CardProvenance), a CardRevision as staff edits
do, the card's parsed keywords, and bumps the catalogue revision (caches, ETags, the bulk file);
the card's face is redrawn once the transaction has committed.

Expiry is checked lazily: every write service first expires the open edits that have gone
``CARD_EDIT_EXPIRE_DAYS`` without a vote, and ``manage.py expire_edits`` does the same for a
daily cron (with nothing written through the site, nothing needs to expire sooner).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.fingerprints import UNKNOWN, ClientFingerprint
from cards.card_data import CardDataError, parse_card_document
from cards.image_services import cards_ensure_images, renditions_store
from cards.images import scan as scans
from cards.models import Card, CardProvenance, CardRevision, CardSet
from cards.services import card_provenance_record, card_sync_keywords
from cards.signals import catalogue_changed
from edits.errors import (
    EditClosed,
    EditConflict,
    EditError,
    EditForbidden,
    EditInvalid,
    EditNotFound,
)
from edits.models import Edit, EditScan, Vote
from edits.permissions import contribution_refusal
from edits.proposals import (
    Errors,
    check_changes,
    check_new_card,
    check_text,
    conflict_message,
    conflicts_of,
    current_values,
)
from edits.review import (
    ReviewRules,
    applied_edit_count,
    edit_tally,
    is_established,
    is_trusted,
    review_rules,
)

log = logging.getLogger(__name__)
# Reverting restores facts; the list of sources is a record of where facts came from, and the
# source of every edit stays in it.
NOT_REVERTED = ("sources",)


# Proposing.

def edit_propose(
    *,
    editor: Any,
    source: object,
    note: object = "",
    card: str | None = None,
    changes: object = None,
    new_card: object = None,
    scan: bytes | None = None,
    before: object = None,
    client: ClientFingerprint = UNKNOWN,
    now: dt.datetime | None = None,
) -> Edit:
    """Propose ``changes`` (``{key: value}``) to the card whose id is ``card``, or a
    ``new_card`` (a card object of docs/design.md §4) — exactly one of the two — with the ``source``
    of the facts, an optional ``note`` and an optional ``scan`` (image bytes).

    ``before`` (optional): the values of the changed keys as the proposer saw them (a form
    loaded a while ago); if the card has changed since, EditConflict, and nothing is stored.

    ``client``: where the request came from (accounts.fingerprints.client_fingerprint(request));
    votes from the same address do not count (edits.review).

    The edit is open for votes; a trusted editor's edit (staff, or CARD_EDIT_TRUSTED_AFTER
    applied edits) is applied at once. Raises EditForbidden (may not contribute, or a new
    account at its limit of open edits) or EditInvalid (every problem, each naming its key).
    """
    now = now or timezone.now()
    _refuse_unless_contributor(editor)
    edits_expire(now=now)
    rules = review_rules()
    errors: Errors = {}
    clean_source, clean_note = check_text(errors, source=source, note=note)
    target: Card | None = None
    proposal: dict[str, Any] = {}
    new: Any = None
    if (card is None) == (new_card is None):
        errors.setdefault("card", []).append(
            "give either `card` (the id of the card to change) with `changes`, or `new_card`.")
    elif new_card is not None:
        if changes is not None:
            errors.setdefault("changes", []).append("goes with `card`, not with `new_card`.")
        new = check_new_card(new_card, errors)
    else:
        target = Card.objects.select_related("set").filter(id=card).first() \
            if isinstance(card, str) else None
        if target is None:
            errors.setdefault("card", []).append(f"unknown card {card!r}.")
        else:
            proposal = check_changes(target, changes, errors)
    if before is not None and not isinstance(before, dict):
        errors.setdefault("before", []).append("must be an object of {key: value}.")
    renditions = _checked_scan(scan, errors)
    if errors:
        raise EditInvalid(errors)
    if target is not None and isinstance(before, dict):
        _refuse_if_changed_since_seen(target, proposal, before)
    with transaction.atomic():
        _refuse_over_the_limit(editor, rules, now)
        if new is not None:
            edit = Edit(kind=Edit.NEW_CARD, card=None, card_slug=new.card_id,
                        set_code=new.card_set.code, changes=new.changes, before={})
        else:
            assert target is not None
            edit = Edit(kind=Edit.CHANGE, card=target, card_slug=target.id,
                        set_code=target.set.code, changes=proposal,
                        before=current_values(target, list(proposal)))
        edit.source, edit.note, edit.editor = clean_source, clean_note, editor
        edit.address_hash, edit.network_hash = client.address, client.network
        edit.save()
        if renditions is not None:
            assert scan is not None
            _store_scan(edit, scan, renditions, user=editor)
        _apply_if_trusted(edit, editor, rules, now)
    return edit


def _refuse_if_changed_since_seen(card: Card, proposal: dict[str, Any],
                                  seen: dict[str, Any]) -> None:
    now = current_values(card, list(proposal))
    conflicts = [
        {"field": key, "proposed_against": seen[key], "current": now[key],
         "proposed": proposal[key]}
        for key in proposal if key in seen and seen[key] != now[key]
    ]
    if conflicts:
        draft = Edit(kind=Edit.CHANGE, card_slug=card.id, changes=proposal,
                     before={c["field"]: c["proposed_against"] for c in conflicts})
        raise EditConflict(conflict_message(draft, conflicts), conflicts)


def _apply_if_trusted(edit: Edit, editor: Any, rules: ReviewRules, now: dt.datetime) -> None:
    if is_trusted(editor, applied_edit_count(editor), rules):
        who = "staff" if editor.is_staff else "a trusted editor"
        _apply(edit, by=editor if editor.is_staff else None, now=now,
               note=f"Applied at once: {who}'s edit.")


def _refuse_unless_contributor(user: Any) -> None:
    refusal = contribution_refusal(user)
    if refusal is not None:
        raise EditForbidden(refusal, code="not_allowed")


def open_edits_left(editor: Any, now: dt.datetime | None = None) -> int | None:
    """How many more edits ``editor`` may have open now (a new account holds at most
    CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS until some are reviewed), or None for no limit."""
    rules = review_rules()
    if is_established(editor, applied_edit_count(editor), now or timezone.now(), rules):
        return None
    open_edits = Edit.objects.filter(editor=editor, status=Edit.OPEN).count()
    return max(0, rules.new_account_open_edits - open_edits)


def _refuse_over_the_limit(editor: Any, rules: ReviewRules, now: dt.datetime) -> None:
    if is_established(editor, applied_edit_count(editor), now, rules):
        return
    open_edits = Edit.objects.filter(editor=editor, status=Edit.OPEN).count()
    if open_edits >= rules.new_account_open_edits:
        days = rules.voter_min_age.days
        raise EditForbidden(
            f"A new account may have {rules.new_account_open_edits} open edits at once; you "
            f"have {open_edits}. Wait until some are reviewed (or until your account is "
            f"{days} days old).", code="open_edit_limit")


# Voting and deciding.

def edit_vote(*, edit: Edit, voter: Any, vote: str, note: str = "",
              client: ClientFingerprint = UNKNOWN, now: dt.datetime | None = None) -> Edit:
    """Record ``voter``'s vote (``approve`` or ``reject``; a rejection needs a note), replacing
    their earlier vote on the edit, then settle the edit: applied once it has
    CARD_EDIT_APPROVALS approvals from counting voters and no counting rejection, rejected once
    counting rejections reach that number. An edit whose fields changed since it was proposed
    stays open (its document lists the conflicts); the vote is kept either way.

    ``client``: where the request came from (accounts.fingerprints.client_fingerprint(request)).
    A voter whose vote on this edit staff voided may not vote on it again (EditForbidden).
    """
    now = now or timezone.now()
    _refuse_unless_contributor(voter)
    errors: Errors = {}
    if vote not in (Vote.APPROVE, Vote.REJECT):
        errors["vote"] = [f"must be {Vote.APPROVE!r} or {Vote.REJECT!r}."]
    clean_note = note.strip() if isinstance(note, str) else ""
    if vote == Vote.REJECT and not clean_note:
        errors["note"] = ["is required with a rejection: say what is wrong, so the editor "
                          "can correct it."]
    if errors:
        raise EditInvalid(errors)
    edits_expire(now=now)
    with transaction.atomic():
        locked = _locked(edit)
        if locked.editor_id == voter.pk:
            raise EditForbidden("You may not vote on your own edit.", code="own_edit")
        _refuse_unless_open(locked)
        if Vote.objects.filter(edit=locked, voter=voter, voided_at__isnull=False).exists():
            raise EditForbidden("Your vote on this edit was voided by staff; you may not vote "
                                "on it again.", code="vote_voided")
        Vote.objects.update_or_create(
            edit=locked, voter=voter,
            defaults={"vote": vote, "note": clean_note, "created_at": now,
                      "address_hash": client.address, "network_hash": client.network},
        )
        _settle(locked, now)
    return locked


def edit_vote_void(*, vote: Vote, user: Any, note: str, now: dt.datetime | None = None
                   ) -> Edit:
    """Staff void a vote (a sock puppet's, say): it is kept and shown as voided, never counts
    again, and its voter may not vote on the edit again. An open edit is then settled again
    (voiding a rejection may let the approvals apply it); an applied edit stays applied, and
    staff revert it if the votes left do not carry it. Returns the edit."""
    now = now or timezone.now()
    _refuse_unless_staff(user, "void votes")
    clean_note = note.strip() if isinstance(note, str) else ""
    if not clean_note:
        raise EditInvalid({"note": ["is required: say why the vote is voided."]})
    with transaction.atomic():
        locked = _locked(vote.edit)
        current = Vote.objects.select_for_update().filter(pk=vote.pk).first()
        if current is None:
            raise EditNotFound("There is no such vote.", code="no_vote")
        if current.voided:
            raise EditClosed(f"The vote of {current.voter} on edit #{locked.pk} is voided "
                             "already.", code="already_voided")
        current.voided_at, current.voided_by, current.void_note = now, user, clean_note
        current.save(update_fields=["voided_at", "voided_by", "void_note"])
        if locked.is_open:
            _settle(locked, now)
    return locked


def edit_voter_vote(*, edit: Edit, voter_name: str) -> Vote:
    """The vote of the user named ``voter_name`` on ``edit``; EditNotFound when there is none."""
    found = Vote.objects.select_related("edit", "voter").filter(
        edit=edit, voter__username=voter_name).first()
    if found is None:
        raise EditNotFound(f"{voter_name!r} has not voted on edit #{edit.pk}.", code="no_vote")
    return found


def _settle(edit: Edit, now: dt.datetime) -> None:
    """Apply or reject the (locked, open) edit if its counting votes decide it."""
    outcome = edit_tally(edit, now, review_rules()).outcome
    if outcome == "reject":
        _close(edit, Edit.REJECTED, now, note="Rejected by votes.")
    elif outcome == "apply":
        try:
            with transaction.atomic():  # a savepoint: a refused apply leaves no trace
                _apply(edit, by=None, now=now, note="Applied by votes.")
        except EditConflict:
            edit.refresh_from_db()  # stays open; its document shows the conflicts


def edit_apply(*, edit: Edit, user: Any, note: str = "", now: dt.datetime | None = None
               ) -> Edit:
    """Staff apply an open edit whatever its votes. Raises EditConflict (409, naming each field
    with the value it was proposed against and its value now) when the card has changed since;
    the edit then stays open."""
    now = now or timezone.now()
    _refuse_unless_staff(user, "apply edits")
    edits_expire(now=now)
    with transaction.atomic():
        locked = _locked(edit)
        _refuse_unless_open(locked)
        _apply(locked, by=user, now=now, note=note.strip() or "Applied by staff.")
    return locked


def edit_reject(*, edit: Edit, user: Any, note: str, now: dt.datetime | None = None) -> Edit:
    """Staff reject an open edit; the note (required) tells the editor why."""
    now = now or timezone.now()
    _refuse_unless_staff(user, "reject edits")
    clean_note = note.strip() if isinstance(note, str) else ""
    if not clean_note:
        raise EditInvalid({"note": ["is required with a rejection: say what is wrong."]})
    with transaction.atomic():
        locked = _locked(edit)
        _refuse_unless_open(locked)
        _close(locked, Edit.REJECTED, now, by=user, note=clean_note)
    return locked


def edit_cancel(*, edit: Edit, user: Any, now: dt.datetime | None = None) -> Edit:
    """The editor withdraws their open edit."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked(edit)
        if locked.editor_id is None or locked.editor_id != getattr(user, "pk", None):
            raise EditForbidden("Only the edit's editor may cancel it.", code="not_editor")
        _refuse_unless_open(locked)
        _close(locked, Edit.CANCELLED, now, by=user, note="Cancelled by its editor.")
    return locked


def edits_expire(*, now: dt.datetime | None = None) -> list[int]:
    """Expire the open edits that have gone CARD_EDIT_EXPIRE_DAYS without a vote (counted from
    the edit or its latest vote); returns their ids."""
    now = now or timezone.now()
    cutoff = now - review_rules().expire_after
    with transaction.atomic():
        stale = list(
            Edit.objects.filter(status=Edit.OPEN, created_at__lt=cutoff)
            .exclude(votes__created_at__gte=cutoff).values_list("pk", flat=True)
        )
        if stale:
            Edit.objects.filter(pk__in=stale, status=Edit.OPEN).update(
                status=Edit.EXPIRED, decided_at=now,
                decision_note=f"Expired: no vote for {review_rules().expire_after.days} days.")
    return stale


def edits_settle(*, now: dt.datetime | None = None) -> list[int]:
    """Settle every open edit with votes as the rules stand now (a voter's account may have
    come of age since they voted); returns the ids of the edits applied or rejected."""
    now = now or timezone.now()
    decided: list[int] = []
    pending = Edit.objects.filter(status=Edit.OPEN, votes__isnull=False).distinct()
    for pk in pending.order_by("created_at", "id").values_list("pk", flat=True):
        with transaction.atomic():
            locked = Edit.objects.select_for_update().get(pk=pk)
            if locked.is_open:
                _settle(locked, now)
                if not locked.is_open:
                    decided.append(pk)
    return decided


# Applying.

def _apply(edit: Edit, *, by: Any, now: dt.datetime, note: str) -> None:
    """Apply the locked, open edit, inside the caller's transaction; raise EditConflict with
    nothing written if the card no longer fits it."""
    if edit.kind == Edit.NEW_CARD:
        card, old = _card_to_create(edit), {}
    else:
        found = Card.objects.select_for_update(of=("self",)).select_related("set") \
            .filter(id=edit.card_slug).first()
        conflicts = conflicts_of(edit, found)
        if conflicts:
            raise EditConflict(conflict_message(edit, conflicts), conflicts)
        assert found is not None
        card, old = found, found.as_data()
    for key, value in edit.changes.items():
        setattr(card, key, value)
    if edit.source not in (card.sources or []):
        card.sources = [*(card.sources or []), edit.source]
    _refuse_unless_valid(edit, card)
    card.save()
    card_sync_keywords(card)
    new = card.as_data()
    CardRevision.objects.create(
        card=card, user=edit.editor, source=f"edit #{edit.pk}: {edit.source}"[:200],
        changes={k: [old.get(k), v] for k, v in new.items() if old.get(k) != v},
    )
    card_provenance_record(
        card, list(edit.changes), source=edit.source,
        editor=edit.editor.username if edit.editor else None, edit=edit.pk, date=now,
    )
    edit.card = card
    _close(edit, Edit.APPLIED, now, by=by, note=note)
    catalogue_changed()
    card_id = card.id
    transaction.on_commit(lambda: _redraw_face(card_id))


def _card_to_create(edit: Edit) -> Card:
    existing = Card.objects.filter(id=edit.card_slug).first()
    if existing is not None:
        conflicts = conflicts_of(edit, existing)
        raise EditConflict(conflict_message(edit, conflicts), conflicts)
    card_set = CardSet.objects.filter(code=edit.set_code).first()
    if card_set is None:
        raise EditError(f"The set {edit.set_code} is no longer in the catalogue.",
                        code="conflict")
    return Card(id=edit.card_slug, set=card_set, official=card_set.official, sources=[])


def _refuse_unless_valid(edit: Edit, card: Card) -> None:
    """The card as the edit would leave it must still pass the card data checks: another
    field may have changed since (a new type that the edit's subtype does not fit)."""
    try:
        parse_card_document([card.as_data()], f"edit #{edit.pk}")
    except CardDataError as error:
        conflicts = [{"field": p.key, "proposed_against": edit.before.get(p.key or ""),
                      "current": None, "proposed": edit.changes.get(p.key or "")}
                     for p in error.problems]
        shown = "; ".join(f"{p.key}: {p.message}" for p in error.problems)
        raise EditConflict(
            f"The card as this edit would leave it is not valid any more ({shown}): the card "
            "has changed since the edit was proposed. Propose it again from the card as it is "
            "now.", conflicts) from error


def _redraw_face(card_id: str) -> None:
    # After the commit: a face that fails to draw is drawn on its first view instead.
    try:
        card = Card.objects.select_related("set").get(id=card_id)
        cards_ensure_images([card])
    except Exception:
        log.exception("could not redraw the face of %s", card_id)


def _close(edit: Edit, status: str, now: dt.datetime, *, by: Any = None, note: str = "") -> None:
    edit.status, edit.decided_at, edit.decided_by, edit.decision_note = status, now, by, note
    edit.save(update_fields=["status", "decided_at", "decided_by", "decision_note", "card"])


def _locked(edit: Edit) -> Edit:
    return Edit.objects.select_for_update().get(pk=edit.pk)


def _refuse_unless_open(edit: Edit) -> None:
    if not edit.is_open:
        raise EditClosed(f"Edit #{edit.pk} is {edit.status}, no longer open.")


def _refuse_unless_staff(user: Any, what: str) -> None:
    if not getattr(user, "is_staff", False):
        raise EditForbidden(f"Only staff may {what}.", code="staff_only")


# Reverting.

@dataclass(frozen=True)
class Skipped:
    """A field of an applied edit that a revert left alone, and why."""

    edit: int
    field: str
    reason: str


class NothingToRevert(EditConflict):
    """Every field of the edit changed since (or it changed nothing a revert puts back)."""

    def __init__(self, detail: str, conflicts: list[dict[str, Any]], skipped: list[Skipped]
                 ) -> None:
        super().__init__(detail, conflicts)
        self.skipped = skipped


@dataclass
class Reverted:
    edit: Edit  # the revert: an edit of its own, applied at once for staff and trusted editors
    skipped: list[Skipped] = field(default_factory=list)


def edit_revert(*, edit: Edit, user: Any, source: str = "", note: str = "",
                client: ClientFingerprint = UNKNOWN, now: dt.datetime | None = None
                ) -> Reverted:
    """Propose an edit that puts back the values an applied edit replaced (applied at once
    when ``user`` is staff or trusted). Fields changed since by later edits are left alone and
    listed as skipped; if every field was, it raises EditConflict."""
    now = now or timezone.now()
    _refuse_unless_contributor(user)
    edits_expire(now=now)
    with transaction.atomic():
        _refuse_over_the_limit(user, review_rules(), now)
        reverted = _revert(_locked(edit), user=user, source=source, note=note, now=now,
                           client=client)
    return reverted


@dataclass
class EditorReverted:
    reverted: list[Reverted] = field(default_factory=list)
    rejected: list[Edit] = field(default_factory=list)  # the editor's open edits
    skipped: list[Skipped] = field(default_factory=list)  # including whole edits


def edits_revert_by_editor(*, editor: Any, user: Any, note: str,
                           now: dt.datetime | None = None) -> EditorReverted:
    """Staff undo one editor's work at once: every applied edit of theirs is reverted, newest
    first, leaving alone the fields others changed since (listed as skipped, as are new cards,
    which staff delete in the admin if need be), and their open edits are rejected."""
    now = now or timezone.now()
    _refuse_unless_staff(user, "revert an editor's edits")
    clean_note = note.strip() if isinstance(note, str) else ""
    if not clean_note:
        raise EditInvalid({"note": ["is required: say why this editor's edits are reverted."]})
    report = EditorReverted()
    with transaction.atomic():
        for open_edit in Edit.objects.select_for_update().filter(editor=editor,
                                                                  status=Edit.OPEN):
            _close(open_edit, Edit.REJECTED, now, by=user, note=clean_note)
            report.rejected.append(open_edit)
        applied = (Edit.objects.select_for_update()
                   .filter(editor=editor, status=Edit.APPLIED)
                   .exclude(reverted_by__status=Edit.APPLIED)
                   .order_by("-decided_at", "-id"))
        for old in applied:
            try:
                with transaction.atomic():
                    result = _revert(old, user=user, source="", note=clean_note, now=now)
            except NothingToRevert as error:
                report.skipped.extend(error.skipped)
                continue
            except EditError as error:
                report.skipped.append(Skipped(old.pk, "*", error.detail))
                continue
            report.reverted.append(result)
            report.skipped.extend(result.skipped)
    return report


def _revert(edit: Edit, *, user: Any, source: str, note: str, now: dt.datetime,
            client: ClientFingerprint = UNKNOWN) -> Reverted:
    if edit.status != Edit.APPLIED:
        raise EditClosed(f"Edit #{edit.pk} is {edit.status}: only applied edits are reverted.",
                         code="not_applied")
    if edit.kind == Edit.NEW_CARD:
        raise EditError(f"Edit #{edit.pk} added the card {edit.card_slug}; a new card is not "
                        "reverted by an edit (staff delete it in the admin).",
                        code="new_card_not_revertible")
    if edit.reverted_by.filter(status__in=[Edit.APPLIED, Edit.OPEN]).exists():
        raise EditClosed(f"Edit #{edit.pk} is already reverted, or a revert of it is open.",
                         code="already_reverted")
    card = Card.objects.select_for_update(of=("self",)).select_related("set") \
        .filter(id=edit.card_slug).first()
    if card is None:
        raise EditConflict(f"The card {edit.card_slug!r} is no longer in the catalogue.", [])
    now_values = current_values(card, list(edit.changes))
    setters = {p.field: p for p in CardProvenance.objects.filter(card=card)}
    changes: dict[str, Any] = {}
    skipped: list[Skipped] = []
    for key, value in edit.changes.items():
        if key in NOT_REVERTED or edit.before.get(key) == value:
            continue
        if now_values.get(key) != value:
            skipped.append(Skipped(edit.pk, key, _changed_since(key, now_values.get(key),
                                                                setters.get(key))))
        else:
            changes[key] = edit.before.get(key)
    if not changes:
        conflicts = [{"field": s.field, "proposed_against": edit.changes[s.field],
                      "current": now_values.get(s.field), "proposed": edit.before.get(s.field)}
                     for s in skipped]
        raise NothingToRevert(
            f"Nothing of edit #{edit.pk} is left to revert: "
            + "; ".join(s.reason for s in skipped) if skipped else
            f"Edit #{edit.pk} changed nothing that a revert could put back.", conflicts, skipped)
    errors: Errors = {}
    check_changes(card, changes, errors)
    if errors:
        raise EditInvalid(errors)
    text = note.strip()
    if skipped:
        text = (text + "\n" if text else "") + "Not reverted: " + "; ".join(
            f"{s.field} ({s.reason})" for s in skipped) + "."
    revert = Edit.objects.create(
        kind=Edit.CHANGE, card=card, card_slug=card.id, set_code=card.set.code,
        changes=changes, before=current_values(card, list(changes)),
        source=source.strip() or f"Revert of edit #{edit.pk}", note=text, editor=user,
        reverts=edit, address_hash=client.address, network_hash=client.network,
    )
    _apply_if_trusted(revert, user, review_rules(), now)
    return Reverted(edit=revert, skipped=skipped)


def _changed_since(key: str, value: Any, setter: CardProvenance | None) -> str:
    by = ""
    if setter is not None:
        by = f" by edit #{setter.edit}" if setter.edit else f" by {setter.source}"
        if setter.editor:
            by += f" ({setter.editor})"
    shown = "unknown" if value is None else repr(value)
    return f"{key} was changed since{by}, to {shown}"


# Competing edits.

def edit_competitors(edit: Edit) -> list[Edit]:
    """The other open edits of the same card that change any of the same fields (for a new
    card: the other open proposals of a card with the same id), oldest first."""
    others = (Edit.objects.filter(card_slug=edit.card_slug, status=Edit.OPEN, kind=edit.kind)
              .exclude(pk=edit.pk).order_by("created_at", "id"))
    if edit.kind == Edit.NEW_CARD:
        return list(others)
    keys = set(edit.changes)
    return [other for other in others if keys & set(other.changes)]


# Scans.

def edit_attach_scan(*, edit: Edit, user: Any, data: bytes) -> EditScan:
    """Attach a photo or scan of the card to an edit (replacing an earlier one): checked and
    re-encoded as the admin's scans are. The editor or staff may, while the edit is open."""
    errors: Errors = {}
    renditions = _checked_scan(data, errors)
    if errors or renditions is None:
        raise EditInvalid(errors or {"file": ["is empty."]})
    with transaction.atomic():
        locked = _locked(edit)
        if locked.editor_id != getattr(user, "pk", None) and not getattr(user, "is_staff", False):
            raise EditForbidden("Only the edit's editor (or staff) may attach a scan.",
                                code="not_editor")
        _refuse_unless_open(locked)
        return _store_scan(locked, data, renditions, user=user)


def _checked_scan(data: bytes | None, errors: Errors) -> dict[str, bytes] | None:
    if data is None:
        return None
    try:
        return scans.make_renditions(data)
    except scans.ScanError as error:
        errors.setdefault("file", []).append(f"{error}.")
        return None


def _store_scan(edit: Edit, data: bytes, renditions: dict[str, bytes], *, user: Any
                ) -> EditScan:
    picture = EditScan.objects.filter(edit=edit).first() or EditScan(edit=edit)
    picture.uploaded_by = user
    stale = renditions_store(picture, hashlib.sha256(data).hexdigest(), renditions)
    storage = picture.large.storage

    def delete_stale() -> None:
        for name in stale:
            storage.delete(name)

    transaction.on_commit(delete_stale)
    return picture
