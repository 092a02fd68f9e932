"""The lost-write check: every deck write the load was told succeeded is in the database as it
was sent, every refusal was a clean 409/412 and wrote nothing, and each deck's history explains
every one of its versions.

Pure: it compares the write records with what the database holds (:class:`Stored`), so the
test can feed it tables of cases.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench.load.records import VERSION_REFUSALS, Write

# The refusal each way of naming the version must get (api.preconditions).
REFUSAL_FOR_MODE = {"version": 409, "if-match": 412}


@dataclass
class Stored:
    """One deck as the database holds it: every version's snapshot content, and the deck row's
    own version and content (which must be those of its newest version)."""

    versions: dict[int, dict[str, Any]]
    version: int
    content: dict[str, Any]


@dataclass
class Verdict:
    accepted: int = 0
    refused: Counter[int] = field(default_factory=Counter)
    unanswered: int = 0  # cut off by the end of the run: either outcome is fine
    other: Counter[int] = field(default_factory=Counter)  # 5xx, 400, ...: counted as errors
    problems: list[str] = field(default_factory=list)

    @property
    def lost(self) -> int:
        return len(self.problems)


def check_writes(writes: list[Write], stored: dict[int, Stored]) -> Verdict:
    verdict = Verdict()
    # (deck, version) -> the accepted writes that claim it; unknown-outcome writes per deck.
    claims: dict[tuple[int, int], list[Write]] = defaultdict(list)
    maybe: dict[int | None, list[Write]] = defaultdict(list)  # None: creations
    for write in writes:
        if write.status is None or write.status == 0 or write.status >= 500:
            # No answer, or a server error: the write may have happened or not.
            if write.status is None:
                verdict.unanswered += 1
            else:
                verdict.other[write.status] += 1
            maybe[write.deck].append(write)
        elif 200 <= write.status < 300:
            verdict.accepted += 1
            _check_accepted(write, stored, verdict.problems)
            if write.deck is not None and write.new_version is not None:
                claims[write.deck, write.new_version].append(write)
        elif write.status in VERSION_REFUSALS:
            verdict.refused[write.status] += 1
            _check_refused(write, verdict.problems)
        else:
            verdict.other[write.status] += 1
    for (deck, version), claimants in sorted(claims.items()):
        if len(claimants) > 1:
            verdict.problems.append(
                f"deck {deck} version {version}: {len(claimants)} writes were all told they "
                "made it (a lost update)")
    for deck, held in sorted(stored.items()):
        _check_history(deck, held, claims, maybe[deck] + maybe[None], verdict.problems)
    return verdict


def _check_accepted(write: Write, stored: dict[int, Stored], problems: list[str]) -> None:
    what = f"{write.method} deck {write.deck} (based on version {write.based_on})"
    if write.deck is None or write.new_version is None:
        problems.append(f"{what}: accepted without a deck id or version in the answer")
        return
    if write.etag_version != write.new_version:
        problems.append(f"{what}: the answer says version {write.new_version} but its ETag "
                        f"says {write.etag_version}")
    if write.based_on is not None and write.new_version != write.based_on + 1:
        problems.append(f"{what}: accepted as version {write.new_version}, so it overwrote "
                        "versions it never saw")
    if write.answered is not None and write.answered != write.sent:
        problems.append(f"{what}: the answer shows other content than version "
                        f"{write.new_version} was saved with")
    held = stored.get(write.deck)
    snapshot = held.versions.get(write.new_version) if held else None
    if snapshot is None:
        problems.append(f"{what}: accepted as version {write.new_version}, which the database "
                        "does not have (a lost write)")
    elif snapshot != write.sent:
        problems.append(f"{what}: version {write.new_version} in the database is not what was "
                        "sent (a lost write)")


def _check_refused(write: Write, problems: list[str]) -> None:
    what = f"{write.method} deck {write.deck} (based on version {write.based_on})"
    expected = REFUSAL_FOR_MODE.get(write.mode)
    if expected is not None and write.status != expected:
        problems.append(f"{what}: refused with {write.status}, but a stale {write.mode} "
                        f"gets {expected}")
    if write.current_version is None or write.current_version == write.based_on:
        problems.append(f"{what}: refused as stale, yet the problem names version "
                        f"{write.current_version}")


def _check_history(deck: int, held: Stored, claims: dict[tuple[int, int], list[Write]],
                   maybe: list[Write], problems: list[str]) -> None:
    numbers = sorted(held.versions)
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"deck {deck}: versions {numbers} have gaps")
    if numbers and (held.version != numbers[-1] or held.content != held.versions[numbers[-1]]):
        problems.append(f"deck {deck}: the deck is at version {held.version} but its newest "
                        f"saved version is {numbers[-1]}, or their contents differ")
    unclaimed = [number for number in numbers if (deck, number) not in claims]
    possible = [w.sent for w in maybe]
    for number in unclaimed:
        if held.versions[number] in possible:
            possible.remove(held.versions[number])
        else:
            problems.append(f"deck {deck} version {number}: written, but no accepted write "
                            "made it (a refused edit was saved?)")
