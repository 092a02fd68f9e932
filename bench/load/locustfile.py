"""The users of a load run (locust -f bench/load/locustfile.py; `make load` starts it).

Each simulated person (:class:`Person`) searches, opens card pages, validates and deals
decklists, runs small goldfish runs, edits decks through the API with a token and opens the
compare pages with one of its private decks chosen (never showing its name). Two people
share each account, so their edits of the same decks race for real; some edits are sent stale
on purpose. A :class:`Contributor` (`make chaos`) also proposes card edits and votes on other
people's. Every request and every write is recorded (bench.load.records) and saved when locust
quits, for the harness's table and its lost-write checks. LOAD_PLAN names the plan (accounts,
card ids, queries, decklists) the harness wrote; LOAD_OUTPUT the folder for the records.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from locust import FastHttpUser, between, events, task

from bench.load.records import (
    FAILED,
    OK,
    SERVER_ERROR,
    VERSION_REFUSALS,
    EditWrite,
    Request,
    RunStart,
    VoteWrite,
    Write,
    deck_content,
    etag_version,
    outcome,
    write_lines,
)
from rules.rng import Rng

PLAN: dict[str, Any] = json.loads(Path(os.environ["LOAD_PLAN"]).read_text(encoding="utf-8"))
OUTPUT = Path(os.environ["LOAD_OUTPUT"])
GOLDFISH_GAMES = 20
GOLDFISH_PATIENCE = 90.0  # seconds a run may take under load before it counts as failed
STALE_SHARE = 0.15  # edits sent with an older version on purpose
MAX_DECKS = 6  # per person: enough to spread the edits, few enough that partners collide

# Card edits (Contributor): the fields changed are ones no game reads, so the goldfish runs'
# reports stay those of the catalogue as it was.
EDIT_FIELDS = ("artist", "quotation")
REJECT_SHARE = 0.1

REQUESTS: list[Request] = []
WRITES: list[Write] = []
EDITS: list[EditWrite] = []
VOTES: list[VoteWrite] = []
RUNS: list[RunStart] = []
people = itertools.count()
ASKED: set[str] = set()  # the card list queries asked so far in this run


@events.quitting.add_listener
def save_records(**_: Any) -> None:
    write_lines(OUTPUT / "requests.jsonl", REQUESTS)
    write_lines(OUTPUT / "writes.jsonl", WRITES)
    write_lines(OUTPUT / "edits.jsonl", EDITS)
    write_lines(OUTPUT / "votes.jsonl", VOTES)
    write_lines(OUTPUT / "runs.jsonl", RUNS)


def parts(sections: dict[str, list[list[Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {section: [{"id": card, "count": count} for card, count in entries]
            for section, entries in sections.items()}


class Person(FastHttpUser):
    wait_time = between(0.2, 1.5)
    network_timeout = 30.0
    connection_timeout = 10.0

    def on_start(self) -> None:
        self.number = next(people)
        self.rng = Rng(f"{PLAN['seed']}:{self.number}")
        account = PLAN["accounts"][(self.number // 2) % len(PLAN["accounts"])]
        self.token, self.username = account["token"], account["username"]
        self.seen: dict[int, tuple[int, dict[str, Any]]] = {}  # deck -> (version, content)
        self.edits = 0
        self.last_etag: str | None = None  # of the last answer
        self.create_deck()

    # --- requests, each recorded -------------------------------------------------------

    def call(self, method: str, path: str, name: str, *, signed_in: bool = True,
             refusals: tuple[int, ...] = (), body: Any = None,
             headers: dict[str, str] | None = None, hidden: str = "") -> tuple[int, Any]:
        """Send one request; the status (0: no answer) and the decoded JSON body (or None).
        ``hidden``: text the answer must not hold (a private deck's name), else it failed."""
        headers = dict(headers or {})
        if signed_in:
            headers["Authorization"] = f"Token {self.token}"
        started, clock = time.time(), time.perf_counter()
        with self.client.request(method, path, name=name, json=body, headers=headers,
                                 catch_response=True) as response:
            ms = (time.perf_counter() - clock) * 1000
            status = response.status_code or 0
            text = response.text or ""
            self.last_etag = response.headers.get("ETag")
            document = None
            problem = ""
            if "json" in (response.headers.get("Content-Type") or ""):
                try:
                    document = json.loads(text)
                except ValueError:
                    problem = "a body that is not JSON"
            if hidden and hidden in text:
                problem = "the name of a deck the visitor may not open"
            kind = outcome(status, refusals=refusals, problem=problem)
            detail = ""
            if kind in (SERVER_ERROR, FAILED):
                detail = problem or str(response.error or "") or text[:160].replace("\n", " ")
                response.failure(f"{status} {detail}")
            else:
                response.success()
        REQUESTS.append(Request(name, status, ms, started, kind, detail))
        return status, document

    # --- reading ---------------------------------------------------------------------------

    @task(6)
    def search_api(self) -> None:
        query = quote(self.rng.choice(PLAN["queries"]))
        # Apart: a query's first asking in the run (no kept answer) and the repeated ones,
        # answered from the card list cache (docs/search-speed.md).
        name = "GET /api/cards/?q= repeated" if query in ASKED else "GET /api/cards/?q= first"
        ASKED.add(query)
        self.call("GET", f"/api/cards/?q={query}", name, signed_in=False)

    @task(3)
    def search_page(self) -> None:
        query = quote(self.rng.choice(PLAN["queries"]))
        self.call("GET", f"/cards/?q={query}", "GET /cards/?q=", signed_in=False)

    @task(4)
    def card_page(self) -> None:
        card = self.rng.choice(PLAN["cards"])
        self.call("GET", f"/cards/{card}/", "GET /cards/[id]/", signed_in=False)

    @task(1)
    def card_api(self) -> None:
        card = self.rng.choice(PLAN["cards"])
        self.call("GET", f"/api/cards/{card}/", "GET /api/cards/[id]/", signed_in=False)

    # --- decklists without saving ----------------------------------------------------------

    @task(2)
    def validate(self) -> None:
        deck = self.rng.choice(PLAN["decks"])
        self.call("POST", "/api/decks/validate/", "POST /api/decks/validate/", signed_in=False,
                  body={"text": deck["text"], "players": deck["players"]})

    @task(2)
    def draw(self) -> None:
        deck = self.rng.choice(PLAN["decks"])
        self.call("POST", "/api/draws/", "POST /api/draws/", signed_in=self.rng.random() < 0.5,
                  body={"text": deck["text"], "seed": self.rng.randint(0, 2**31)})

    @task(1)
    def goldfish(self) -> None:
        """A small run, polled until it is done, as the report page does."""
        deck = self.rng.choice(PLAN["decks"])
        started, clock = time.time(), time.perf_counter()
        seed = self.rng.randint(0, 2**31)
        asked = RunStart(deck["name"], GOLDFISH_GAMES, seed)
        RUNS.append(asked)
        status, run = self.call("POST", "/api/goldfish/", "POST /api/goldfish/", body={
            "text": deck["text"], "games": GOLDFISH_GAMES, "seed": seed})
        asked.status = status
        if status not in (200, 202) or run is None:
            return
        asked.run = run["id"]
        while run["status"] in ("queued", "running"):
            if time.perf_counter() - clock > GOLDFISH_PATIENCE:
                break
            time.sleep(0.5)
            status, polled = self.call("GET", f"/api/goldfish/{run['id']}/",
                                       "GET /api/goldfish/[id]/")
            if status != 200 or polled is None:
                return
            run = polled
        done = run["status"] == "done" and run.get("report") is not None
        REQUESTS.append(Request(
            "goldfish run, start to done", 200, (time.perf_counter() - clock) * 1000, started,
            OK if done else FAILED, "" if done else f"run {run['id']} ended {run['status']}"))

    @task(1)
    def compare_pickers(self) -> None:
        """The compare pages' pickers, as a visitor, with one of this account's private decks
        chosen by its number (a version of it, or as it is): they answer, and never with the
        deck's name (decks/pickers.py: "Deck N", as for a deck that does not exist)."""
        if not self.seen:
            return
        deck = self.rng.choice(sorted(self.seen))
        name = self.seen[deck][1]["name"]
        path, label = self.rng.choice([
            (f"/decks/compare/?a={deck}:1", "GET /decks/compare/?a=[id]:1"),
            (f"/decks/compare/?a={deck}&b={deck}", "GET /decks/compare/?a=[id]&b=[id]"),
            (f"/goldfish/compare/?deck_a={deck}", "GET /goldfish/compare/?deck_a=[id]"),
        ])
        # Both sides chosen: the compare itself, a 404 for a deck the visitor may not open.
        self.call("GET", path, label, signed_in=False, refusals=(404,), hidden=name)

    # --- deck writes -----------------------------------------------------------------------

    @task(1)
    def list_decks(self) -> None:
        """The account's decks, the partner's new ones included, with their versions."""
        status, page = self.call("GET", "/api/decks/", "GET /api/decks/")
        if status == 200 and page is not None:
            for deck in page["results"]:
                self.seen[deck["id"]] = (deck["version"], deck_content(deck))

    @task(1)
    def create_deck(self) -> None:
        if len(self.seen) >= MAX_DECKS:
            return
        sample = self.rng.choice(PLAN["decks"])
        sent = {"name": f"{self.username} #{self.number} {sample['name']}",
                "sections": sample["sections"]}
        write = Write(None, "POST", "create", None, False, sent)
        WRITES.append(write)
        status, deck = self.call("POST", "/api/decks/", "POST /api/decks/", body={
            "name": sent["name"], "players": sample["players"], **parts(sample["sections"])})
        write.status = status
        if 200 <= status < 300 and deck is not None:
            write.deck, write.new_version = deck["id"], deck["version"]
            write.etag_version = etag_version(self.last_etag)
            write.answered = deck_content(deck)
            self.seen[deck["id"]] = (deck["version"], deck_content(deck))

    @task(6)
    def edit_deck(self) -> None:
        """Save a change based on the version last seen (or an older one, on purpose): by
        the `version` field (409 when stale) or an If-Match header (412)."""
        if not self.seen:
            return
        deck = self.rng.choice(sorted(self.seen))
        version, content = self.seen[deck]
        stale = version > 1 and self.rng.random() < STALE_SHARE
        based_on = version - 1 if stale else version
        self.edits += 1
        name = f"{self.username} #{self.number} edit {self.edits}"
        how = self.rng.choice(["put-version", "put-if-match", "patch-name", "patch-parts"])
        method = "PATCH" if how.startswith("patch") else "PUT"
        mode = "version" if how in ("put-version", "patch-parts") else "if-match"
        sections = content["sections"] if how == "patch-name" else self.changed(content)
        body: dict[str, Any] = {"name": name}
        if how != "patch-name":
            body.update(parts(sections))
        headers = {}
        if mode == "version":
            body["version"] = based_on
        else:
            headers["If-Match"] = f'"{deck}.{based_on}"'
        write = Write(deck, method, mode, based_on, stale, {"name": name, "sections": sections})
        WRITES.append(write)
        status, answer = self.call(method, f"/api/decks/{deck}/", f"{method} /api/decks/[id]/",
                                   refusals=VERSION_REFUSALS, body=body, headers=headers)
        write.status = status
        if 200 <= status < 300 and answer is not None:
            write.new_version = answer["version"]
            write.etag_version = etag_version(self.last_etag)
            write.answered = deck_content(answer)
            self.seen[deck] = (answer["version"], deck_content(answer))
        elif status in VERSION_REFUSALS and answer is not None:
            write.current_version = answer.get("current_version")
            self.refresh(deck)

    def refresh(self, deck: int) -> None:
        status, answer = self.call("GET", f"/api/decks/{deck}/", "GET /api/decks/[id]/")
        if status == 200 and answer is not None:
            self.seen[deck] = (answer["version"], deck_content(answer))

    def changed(self, content: dict[str, Any]) -> dict[str, list[list[Any]]]:
        """The sections with one entry's count changed (between 1 and 2)."""
        sections = {s: [list(e) for e in entries] for s, entries in content["sections"].items()}
        filled = [s for s in ("structures", "personalities", "wanderers") if sections.get(s)]
        if filled:
            entries = sections[self.rng.choice(filled)]
            entry = entries[self.rng.randint(0, len(entries) - 1)]
            entry[1] = 2 if entry[1] == 1 else 1
        return sections


class Contributor(Person):
    """A person who also improves the catalogue (`make chaos`): proposes changes to cards'
    text and votes on the open edits of other accounts. Every proposal and vote carries a
    nonce in its note (and the proposal in its source), so the harness finds it in the
    database whatever answer came back."""

    def on_start(self) -> None:
        super().on_start()
        self.proposals = 0
        self.voted: set[int] = set()

    @task(2)
    def propose_edit(self) -> None:
        self.proposals += 1
        nonce = f"{self.username}.{self.number}.{self.proposals}"
        card = self.rng.choice(PLAN["edit_cards"])
        key = self.rng.choice(EDIT_FIELDS)
        write = EditWrite(nonce=nonce, editor=self.username, card=card,
                          changes={key: f"Chaos {nonce}"}, source=f"chaos source {nonce}")
        EDITS.append(write)
        status, doc = self.call("POST", "/api/edits/", "POST /api/edits/", body={
            "card": card, "changes": write.changes, "source": write.source,
            "note": f"chaos {nonce}"})
        write.status = status
        if 200 <= status < 300 and doc is not None:
            write.edit, write.answered_status = doc["id"], doc["status"]

    @task(4)
    def vote_on_an_edit(self) -> None:
        status, page = self.call("GET", "/api/edits/?status=open&page_size=30",
                                 "GET /api/edits/?status=open")
        if status != 200 or page is None:
            return
        choices = [doc["id"] for doc in page["results"]
                   if doc["editor"] != self.username and doc["id"] not in self.voted]
        if not choices:
            return
        edit = self.rng.choice(choices)
        self.voted.add(edit)
        vote = "reject" if self.rng.random() < REJECT_SHARE else "approve"
        write = VoteWrite(nonce=f"chaos vote {self.username}.{self.number}.{len(self.voted)}",
                          edit=edit, voter=self.username, vote=vote, started=time.time())
        VOTES.append(write)
        # 409: the edit was decided meanwhile (applied by others' votes), an expected answer.
        status, doc = self.call("POST", f"/api/edits/{edit}/votes/",
                                "POST /api/edits/[id]/votes/", refusals=(409,),
                                body={"vote": vote, "note": write.nonce})
        write.status, write.finished = status, time.time()
        if status == 200 and doc is not None:
            write.answered_status = doc["status"]
