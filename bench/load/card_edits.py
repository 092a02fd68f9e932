"""The card edits' check after ``make chaos``: every proposal and vote the site acknowledged is
in the database as it was sent, nothing refused was stored, and no edit is half applied (an
applied edit's card values, source, provenance and revision all present, a not-applied edit's
none of them).

Pure: it compares the records of what was sent (bench.load.records) with what the database
holds (:class:`StoredEdit`, :class:`StoredVote`, :class:`StoredCard`), so the test feeds it
tables of cases.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench.load.records import EditWrite, VoteWrite

APPLIED = "applied"
OPEN = "open"


@dataclass
class StoredEdit:
    id: int
    nonce: str  # from its note
    editor: str
    card: str
    changes: dict[str, Any]
    source: str
    status: str
    decided: float | None  # when it was applied (a timestamp), for the order of edits


@dataclass
class StoredVote:
    edit: int
    voter: str
    vote: str
    nonce: str  # its note


@dataclass
class StoredCard:
    """What an edit leaves on a card: its values (of the fields the run edits), its sources,
    the edit that set each field (provenance; None for an import) and the edits that recorded
    a revision of it."""

    values: dict[str, Any]
    sources: list[str]
    provenance: dict[str, int | None]
    revised_by: set[int] = field(default_factory=set)


@dataclass
class EditVerdict:
    proposed: int = 0  # acknowledged proposals
    unknown: int = 0  # no answer, or a 5xx: stored or not, either is right
    refused: Counter[int] = field(default_factory=Counter)
    applied: int = 0  # edits applied in the database
    votes: int = 0  # acknowledged votes
    votes_unknown: int = 0
    votes_refused: Counter[int] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)  # lost or wrong writes
    half_applied: list[str] = field(default_factory=list)

    @property
    def lost(self) -> int:
        return len(self.problems)


def _answered(status: int | None) -> bool:
    """A definite answer: the write happened (2xx) or did not (4xx)."""
    return status is not None and 200 <= status < 500


def check_card_edits(sent: list[EditWrite], votes_sent: list[VoteWrite],
                     edits: list[StoredEdit], votes: list[StoredVote],
                     cards: dict[str, StoredCard]) -> EditVerdict:
    verdict = EditVerdict()
    _check_proposals(sent, edits, verdict)
    _check_votes(votes_sent, votes, {e.id: e for e in edits}, verdict)
    _check_applied_whole(edits, cards, verdict)
    verdict.applied = sum(e.status == APPLIED for e in edits)
    return verdict


def _check_proposals(sent: list[EditWrite], edits: list[StoredEdit], verdict: EditVerdict
                     ) -> None:
    stored: dict[str, list[StoredEdit]] = defaultdict(list)
    for edit in edits:
        stored[edit.nonce].append(edit)
    for write in sent:
        found = stored.get(write.nonce, [])
        what = f"proposal {write.nonce} ({write.card} {write.changes})"
        if len(found) > 1:
            verdict.problems.append(f"{what}: stored {len(found)} times")
        if not _answered(write.status):
            verdict.unknown += 1
            continue
        assert write.status is not None
        if write.status >= 300:
            verdict.refused[write.status] += 1
            if found:
                verdict.problems.append(f"{what}: refused with {write.status}, yet stored as "
                                        f"edit #{found[0].id}")
            continue
        verdict.proposed += 1
        if not found:
            verdict.problems.append(f"{what}: acknowledged as edit #{write.edit}, which the "
                                    "database does not have (a lost write)")
            continue
        edit = found[0]
        if (edit.id, edit.card, edit.changes, edit.source, edit.editor) != (
                write.edit, write.card, write.changes, write.source, write.editor):
            verdict.problems.append(f"{what}: edit #{edit.id} in the database is not what was "
                                    f"sent and acknowledged as edit #{write.edit}")
        if write.answered_status == APPLIED and edit.status != APPLIED:
            verdict.problems.append(f"{what}: answered applied, but edit #{edit.id} is "
                                    f"{edit.status} in the database")
    nonces = {w.nonce for w in sent}
    for edit in edits:
        if edit.nonce not in nonces:
            verdict.problems.append(f"edit #{edit.id} ({edit.nonce!r}): in the database, but "
                                    "nobody proposed it")


def _check_votes(sent: list[VoteWrite], votes: list[StoredVote], edits: dict[int, StoredEdit],
                 verdict: EditVerdict) -> None:
    stored = {(v.edit, v.voter): v for v in votes}
    by_pair: dict[tuple[int, str], list[VoteWrite]] = defaultdict(list)
    for write in sent:
        by_pair[write.edit, write.voter].append(write)
    for pair, writes in sorted(by_pair.items()):
        held = stored.get(pair)
        acked = [w for w in writes if _answered(w.status) and w.status is not None
                 and w.status < 300]
        maybe = [w for w in writes if not _answered(w.status)]
        verdict.votes += len(acked)
        verdict.votes_unknown += len(maybe)
        what = f"vote of {pair[1]} on edit #{pair[0]}"
        for write in writes:
            if write.status is not None and 300 <= write.status < 500:
                verdict.votes_refused[write.status] += 1
                if write.status == 409 and edits.get(pair[0]) and edits[pair[0]].status == OPEN:
                    verdict.problems.append(f"{what} ({write.nonce}): refused as closed, but the "
                                            "edit is open")
        for write in acked:
            edit = edits.get(pair[0])
            if write.answered_status == APPLIED and (edit is None or edit.status != APPLIED):
                verdict.problems.append(f"{what} ({write.nonce}): answered applied, but the "
                                        "edit is not applied in the database")
        if held is None:
            if acked:
                verdict.problems.append(f"{what}: acknowledged ({acked[-1].nonce}), not in the "
                                        "database (a lost write)")
            continue
        source = next((w for w in acked + maybe if w.nonce == held.nonce), None)
        if source is None:
            verdict.problems.append(f"{what}: the database holds {held.nonce!r}, which was "
                                    "never sent or was refused")
            continue
        if held.vote != source.vote:
            verdict.problems.append(f"{what} ({held.nonce}): stored as {held.vote}, sent as "
                                    f"{source.vote}")
        if source in acked and source.finished is not None:
            later = [w for w in acked if w.started > source.finished]
            if later:
                verdict.problems.append(f"{what}: {later[-1].nonce} was acknowledged after "
                                        f"{held.nonce}, which the database still holds (a lost "
                                        "write)")
    for pair, held in sorted(stored.items()):
        if pair not in by_pair:
            verdict.problems.append(f"vote of {pair[1]} on edit #{pair[0]} ({held.nonce}): in "
                                    "the database, but nobody sent it")


def _check_applied_whole(edits: list[StoredEdit], cards: dict[str, StoredCard],
                         verdict: EditVerdict) -> None:
    """Applying is one transaction: all of its traces or none."""
    latest: dict[tuple[str, str], StoredEdit] = {}
    for edit in sorted((e for e in edits if e.status == APPLIED),
                       key=lambda e: (e.decided or 0.0, e.id)):
        for key in edit.changes:
            latest[edit.card, key] = edit
    half = verdict.half_applied
    for edit in edits:
        card = cards.get(edit.card)
        what = f"edit #{edit.id} ({edit.status}) of {edit.card}"
        if card is None:
            half.append(f"{what}: the card is not in the database")
            continue
        applied = edit.status == APPLIED
        if applied != (edit.id in card.revised_by):
            half.append(f"{what}: {'no' if applied else 'a'} revision of the card records it")
        if applied != (edit.source in card.sources):
            half.append(f"{what}: its source is {'missing from' if applied else 'in'} the "
                        "card's sources")
        for key, value in edit.changes.items():
            setter = card.provenance.get(key)
            if not applied:
                if setter == edit.id:
                    half.append(f"{what}: the provenance of {key} names it")
                continue
            if latest.get((edit.card, key)) is not edit:
                continue  # a later applied edit set the field again
            if setter != edit.id:
                half.append(f"{what}: the provenance of {key} names edit #{setter}, not it")
            if card.values.get(key) != value:
                half.append(f"{what}: {key} is {card.values.get(key)!r}, not the {value!r} it "
                            "set last")
