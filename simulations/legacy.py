"""Runs stored by the two apps the simulations app replaced, ``goldfish`` (``GoldfishRun``,
``GoldfishChunk``) and ``matchups`` (``MatchupRun``), as rows of ``SimulationRun`` and
``SimulationChunk``. Pure: no Django. Used by migration 0002 (rows read from the old tables)
and by backups made before the merge (rows read from an archive: backup.archive).

A row is a mapping of field names to values; what is not converted (the id, the owner, the
deck, the times, the options, the report) passes through as it is, whether it names a
foreign key by its column (``owner_id``: the migration) or by its field (``owner``: an
archive).

A goldfish run keeps its chunks. A matchup run had no chunks: one lease for the whole run, and
the tallies of the games played so far, one per pairing begun. A finished one needs none; one
under way gets its chunks here: the games it had played, one done chunk per pairing begun (its
tally as it was stored), and the rest in chunks to play, so nothing played is played again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rules.game.gauntlet import pairings
from rules.game.matchup import CHUNK
from rules.game.runner import chunks

GOLDFISH_TASK = "goldfish.tasks.goldfish_work"
MATCHUP_TASK = "matchups.tasks.matchup_work"
#: The old apps' tasks (queued, or a goldfish run's watchdog) take the run's id, as this does.
TASK = "simulations.tasks.simulation_work"
#: What queued tasks of the old apps run now (with the goldfish task of before issue 16).
TASKS = {"decks.tasks.goldfish_work": TASK, GOLDFISH_TASK: TASK, MATCHUP_TASK: TASK}
#: Model labels of the old apps and of the goldfish models before they left the decks app.
GOLDFISH_RUN = ("goldfish.goldfishrun", "decks.goldfishrun")
GOLDFISH_CHUNK = ("goldfish.goldfishchunk", "decks.goldfishchunk")
MATCHUP_RUN = ("matchups.matchuprun",)
#: What each old model is now.
MERGED_MODELS = {**dict.fromkeys(GOLDFISH_RUN + MATCHUP_RUN, "simulations.simulationrun"),
                 **dict.fromkeys(GOLDFISH_CHUNK, "simulations.simulationchunk")}
ACTIVE = ("queued", "running")


def goldfish_run(row: Mapping[str, Any], games_done: int) -> dict[str, Any]:
    """A goldfish run; ``games_done``: the games of its done chunks."""
    run = dict(row)
    run["kind"] = "goldfish"
    run["deck_names"] = [run.pop("deck_name")]
    run["decklists"] = [run.pop("decklist")]
    run["card_facts"] = [run.pop("card_facts")]
    run["games_done"] = games_done
    return run


def goldfish_chunk(row: Mapping[str, Any]) -> dict[str, Any]:
    """A goldfish chunk, without its own id (the new table numbers it)."""
    chunk = {k: v for k, v in row.items() if k not in ("id", "pk")}
    tally = chunk.pop("tally")
    chunk["tally_json"] = "" if tally is None else json.dumps(tally, ensure_ascii=False)
    chunk["pairing"] = 0
    return chunk


def matchup_run(row: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A matchup (gauntlet, matrix) run and its chunks (without their run)."""
    run = dict(row)
    run["kind"] = mode = run.pop("mode", "matchup")
    played = run.pop("played_json", "")
    lease_expires = run.pop("lease_expires", None)
    decks = len(run["decklists"])
    run["players"] = decks if mode == "matchup" else 2
    run.setdefault("deck_version", None)
    new_chunks: list[dict[str, Any]] = []
    if run["status"] in ACTIVE:
        new_chunks = _chunks_under_way(run, mode, decks, json.loads(played) if played else [])
    done = [c for c in new_chunks if c["status"] == "done"]
    run["chunks_total"] = len(new_chunks)
    run["chunks_done"] = len(done)
    if run["status"] in ACTIVE:
        run["games_done"] = sum(c["last"] - c["first"] + 1 for c in done)
        # Due already: the first look at the run (or the queued task) plays it on.
        run["watch_at"] = lease_expires or run["created_at"]
    else:
        run["watch_at"] = None
    return run, new_chunks


def _chunks_under_way(run: Mapping[str, Any], mode: str, decks: int,
                      tallies: list[Any]) -> list[dict[str, Any]]:
    games = int(run["games"])
    tables = 1 if mode == "matchup" else len(pairings(decks, mode))
    done_games = int(run.get("games_done") or 0)
    planned: list[dict[str, Any]] = []
    for pairing in range(tables):
        played = min(games, max(0, done_games - pairing * games)) if pairing < len(tallies) else 0
        if played:
            planned.append(_chunk(pairing, 1, played, "done",
                                  json.dumps(tallies[pairing], ensure_ascii=False)))
        planned.extend(_chunk(pairing, played + first, played + last, "queued", "")
                       for first, last in chunks(games - played, CHUNK))
    for index, chunk in enumerate(planned):
        chunk["index"] = index
    return planned


def _chunk(pairing: int, first: int, last: int, status: str, tally: str) -> dict[str, Any]:
    return {"pairing": pairing, "first": first, "last": last, "status": status,
            "lease_owner": "", "lease_expires": None, "attempts": 0, "tally_json": tally,
            "finished_at": None}


def goldfish_run_back(row: Mapping[str, Any]) -> dict[str, Any]:
    """A goldfish run as the goldfish app stored it (migration 0002 unapplied)."""
    run = {k: v for k, v in row.items()
           if k not in ("kind", "deck_names", "decklists", "card_facts", "games_done")}
    run["deck_name"] = row["deck_names"][0] if row["deck_names"] else ""
    run["decklist"] = row["decklists"][0]
    run["card_facts"] = row["card_facts"][0]
    return run


def goldfish_chunk_back(row: Mapping[str, Any]) -> dict[str, Any]:
    chunk = {k: v for k, v in row.items() if k not in ("id", "pairing", "tally_json")}
    chunk["tally"] = json.loads(row["tally_json"]) if row["tally_json"] else None
    return chunk


def upgrade_archive_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of a backup archive made before the merge (backup.archive), with the old
    apps' runs and chunks as the simulations app's; other rows as they are."""
    done: dict[Any, int] = {}
    for row in rows:
        fields = row.get("fields", {})
        if row.get("model") in GOLDFISH_CHUNK and fields.get("status") == "done":
            done[fields["run"]] = done.get(fields["run"], 0) + fields["last"] - fields["first"] + 1
    upgraded: list[dict[str, Any]] = []
    for row in rows:
        label, fields = row.get("model"), row.get("fields", {})
        if label in GOLDFISH_RUN:
            upgraded.append({"model": "simulations.simulationrun", "pk": row["pk"],
                             "fields": goldfish_run(fields, done.get(row["pk"], 0))})
        elif label in GOLDFISH_CHUNK:
            upgraded.append({"model": "simulations.simulationchunk",
                             "fields": goldfish_chunk(fields)})
        elif label in MATCHUP_RUN:
            run, new_chunks = matchup_run(fields)
            upgraded.append({"model": "simulations.simulationrun", "pk": row["pk"],
                             "fields": run})
            upgraded.extend({"model": "simulations.simulationchunk",
                             "fields": {**chunk, "run": row["pk"]}} for chunk in new_chunks)
        else:
            upgraded.append(row)
    return upgraded
