"""What the load run writes down: one record per request and one per deck write, as JSON lines.

Standard library only: the locust process (gevent) writes these, the harness reads them back.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# How a response counts. "refused" is a deck edit turned down by the version check (409/412):
# the answer the API promises, not an error. "throttled" (429) is a refusal of the rate limits
# or of too many goldfish runs at once, reported apart and never counted as an error.
OK, REFUSED, THROTTLED, SERVER_ERROR, FAILED = "ok", "refused", "throttled", "5xx", "failed"
VERSION_REFUSALS = (409, 412)


def outcome(status: int, *, refusals: Iterable[int] = (), problem: str = "") -> str:
    """The class of one answer: status 0 means no answer (connection error, time-out);
    ``problem`` is a fault the client found in a 2xx answer (a wrong body)."""
    if 500 <= status:
        return SERVER_ERROR
    if status == 429:
        return THROTTLED
    if status in refusals:
        return REFUSED
    if 200 <= status < 400 and not problem:
        return OK
    return FAILED


@dataclass
class Request:
    name: str  # the endpoint, ids replaced by [id]: "PUT /api/decks/[id]/"
    status: int  # 0: no answer
    ms: float
    started: float  # time.time() when sent
    outcome: str
    detail: str = ""  # what was wrong, for failures


@dataclass
class Write:
    """A deck write: a creation (method POST, ``based_on`` None) or an edit with its version.

    ``status`` stays None when the run ended before the answer came: the write may or may not
    have happened, and the check allows either.
    """

    deck: int | None
    method: str
    mode: str  # "version" (body field, 409 when stale), "if-match" (header, 412), "create"
    based_on: int | None
    deliberately_stale: bool
    sent: dict[str, Any]  # what the deck must now hold: {"name", "sections": {section: [[id, n]]}}
    status: int | None = None
    new_version: int | None = None  # from the body of a 2xx
    etag_version: int | None = None  # from its ETag header
    answered: dict[str, Any] | None = None  # the deck's content in the 2xx body
    current_version: int | None = None  # from a refusal's problem document
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class EditWrite:
    """A card edit proposed (``make chaos``). ``nonce`` is unique to the proposal and sent in
    its note and source, so the edit is found in the database whatever its answer was."""

    nonce: str
    editor: str
    card: str
    changes: dict[str, Any]
    source: str
    status: int | None = None  # None: no answer before the run ended
    edit: int | None = None  # the id in a 201's body
    answered_status: str | None = None  # the edit's status in that body ("open", "applied")


@dataclass
class VoteWrite:
    """A vote on a card edit (``make chaos``); ``nonce`` is its note (a rejection's too)."""

    nonce: str
    edit: int
    voter: str
    vote: str
    started: float  # time.time() when sent
    finished: float | None = None  # when answered
    status: int | None = None
    answered_status: str | None = None  # the edit's status in a 200's body


@dataclass
class RunStart:
    """A goldfish run asked for (``make chaos``): the run the answer named, and what it plays,
    to compare its report with the goldfish command's."""

    deck: str  # the sample deck's name (bench.load.site_data.sample_decklists)
    games: int
    seed: int
    status: int | None = None
    run: str | None = None  # the run's id in a 2xx answer


def write_lines(path: Path, rows: Iterable[Any]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(asdict(row)) + "\n")


def read_requests(path: Path) -> Iterator[Request]:
    for line in path.read_text(encoding="utf-8").splitlines():
        yield Request(**json.loads(line))


def read_writes(path: Path) -> Iterator[Write]:
    for line in path.read_text(encoding="utf-8").splitlines():
        yield Write(**json.loads(line))


def read_rows[R](path: Path, kind: type[R]) -> list[R]:
    """The records of one kind (EditWrite, VoteWrite, RunStart); none when the file is missing
    (a load run writes only deck records)."""
    if not path.exists():
        return []
    return [kind(**json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()]


SECTIONS = ("holdings", "structures", "personalities", "wanderers")


def deck_content(document: dict[str, Any]) -> dict[str, Any]:
    """The part of a deck a write sets, from an API deck or a stored version's snapshot (both
    have the name and each section as a list of {id, count})."""
    return {"name": document["name"], "sections": {
        section: [[entry["id"], entry["count"]] for entry in document.get(section, [])]
        for section in SECTIONS}}


def etag_version(etag: str | None) -> int | None:
    """The version in a deck's ETag, '"<id>.<version>"' (decks.api.views.deck_etag)."""
    try:
        return int((etag or "").strip('"').rsplit(".", 1)[1])
    except (IndexError, ValueError):
        return None
