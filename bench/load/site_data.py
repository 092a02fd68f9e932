"""The load run's data in the database: its accounts and the plan the users follow, before the
run; each of their decks with every saved version, and (`make chaos`) their card edits, votes and
goldfish runs, after it. Needs Django set up."""

from __future__ import annotations

import datetime as dt
import io
import json
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import EmailVerification
from bench.load.card_edits import StoredCard, StoredEdit, StoredVote
from bench.load.goldfish_runs import Key, StoredRun
from bench.load.lost_writes import Stored
from bench.load.records import deck_content
from cards.models import Card, CardProvenance, CardRevision
from decks.formats.json_format import deck_to_dict
from decks.models import Deck
from decks.services import SAMPLE_OWNER, deck_data
from edits.models import Edit, Vote
from simulations.models import SimulationRun

ACCOUNT_PREFIX = "load-"
# Searches people make: a type and faction, ranges, a regular expression, keywords, a name.
QUERIES = [
    "t:troop f:kalim off>=2", "o:/exhaust(s)? target/", "kw:fleetfoot or kw:ranged",
    "-is:unknown order:cost", "ember", "t:structure f:guild", "f:mosfin cost<=2",
    "t:personality order:name", "set:demo t:troop", "r:rare",
]


def make_accounts(count: int) -> list[dict[str, str]]:
    """Accounts with API tokens (no password: scripts sign in with the token), a month old and
    with a verified e-mail address, so they may propose card edits and their votes count."""
    accounts = []
    joined = timezone.now() - dt.timedelta(days=30)
    for n in range(1, count + 1):
        name = f"{ACCOUNT_PREFIX}{n:02}"
        user, created = get_user_model().objects.get_or_create(username=name)
        if created:
            user.set_unusable_password()
            user.email, user.date_joined = f"{name}@example.org", joined
            user.save()
            EmailVerification.objects.create(user=user, email=user.email,
                                             verified_at=timezone.now())
        token, _ = Token.objects.get_or_create(user=user)
        accounts.append({"username": user.username, "token": token.key})
    return accounts


def sample_decklists(folder: Path) -> list[dict[str, Any]]:
    """Each sample deck as its decklist text and as the parts an API write sends."""
    texts = {}
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        texts[text.splitlines()[0].lstrip("# ").strip()] = text
    found = []
    for deck in Deck.objects.filter(owner__username=SAMPLE_OWNER, name__in=texts):
        data = deck_data(deck)
        found.append({"name": deck.name, "players": data.players, "text": texts[deck.name],
                      "sections": deck_content(deck_to_dict(data))["sections"]})
    if not found:
        raise SystemExit("no sample decks in the database: load them first")
    return sorted(found, key=lambda d: d["name"])


def make_plan(accounts: list[dict[str, str]], decklists: Path, seed: int) -> dict[str, Any]:
    decks = sample_decklists(decklists)
    cards = list(Card.objects.order_by("id").values_list("id", flat=True))
    in_decks = {card for deck in decks for entries in deck["sections"].values()
                for card, _ in entries}
    return {"seed": seed, "accounts": accounts, "queries": QUERIES, "cards": cards,
            "decks": decks,
            # Card edits go to cards that no sample deck holds: the goldfish reports stay put.
            "edit_cards": [card for card in cards if card not in in_decks]}


def stored_decks() -> dict[int, Stored]:
    """Every deck of the load accounts, with each version's content as it was saved."""
    found = {}
    decks = Deck.objects.filter(owner__username__startswith=ACCOUNT_PREFIX).prefetch_related(
        "versions")
    for deck in decks:
        versions = {v.number: deck_content(v.snapshot) for v in deck.versions.all()}
        found[deck.pk] = Stored(versions, deck.version, deck_content(deck_to_dict(deck_data(deck))))
    return found


# After a chaos run.

NONCE_PREFIX = "chaos "


def stored_edits() -> list[StoredEdit]:
    """The load accounts' card edits; each one's nonce is its note less "chaos "."""
    edits = Edit.objects.filter(editor__username__startswith=ACCOUNT_PREFIX).select_related(
        "editor")
    return [StoredEdit(id=e.pk, nonce=e.note.removeprefix(NONCE_PREFIX),
                       editor=e.editor.username if e.editor else "", card=e.card_slug,
                       changes=e.changes, source=e.source, status=e.status,
                       decided=e.decided_at.timestamp() if e.decided_at else None)
            for e in edits.order_by("id")]


def stored_votes() -> list[StoredVote]:
    votes = Vote.objects.filter(voter__username__startswith=ACCOUNT_PREFIX).select_related(
        "voter")
    return [StoredVote(edit=v.edit_id, voter=v.voter.username, vote=v.vote, nonce=v.note)
            for v in votes]


def stored_cards(card_ids: Iterable[str], keys: Iterable[str]) -> dict[str, StoredCard]:
    """What the edits may have left on these cards: the values of ``keys``, the sources, the
    provenance of each field and the edits that recorded a revision ("edit #N: ...")."""
    ids, wanted = sorted(set(card_ids)), list(keys)
    found = {card.id: StoredCard(values={k: getattr(card, k) for k in wanted},
                                 sources=list(card.sources or []), provenance={})
             for card in Card.objects.filter(id__in=ids)}
    for row in CardProvenance.objects.filter(card_id__in=ids):
        found[row.card_id].provenance[row.field] = row.edit
    for card_id, source in CardRevision.objects.filter(
            card_id__in=ids, source__startswith="edit #").values_list("card_id", "source"):
        number = source.removeprefix("edit #").split(":", 1)[0]
        if number.isdigit():
            found[card_id].revised_by.add(int(number))
    return found


def stored_runs(run_ids: Iterable[str]) -> dict[str, StoredRun]:
    return {str(run.pk): StoredRun(run.status, run.games, run.seed, run.report)
            for run in SimulationRun.objects.filter(pk__in=list(run_ids))}


def runs_active(run_ids: Iterable[str]) -> list[SimulationRun]:
    return list(SimulationRun.objects.filter(pk__in=list(run_ids),
                                             status__in=SimulationRun.ACTIVE))


def expected_reports(keys: Iterable[Key], decks: list[dict[str, Any]]) -> dict[Key, Any]:
    """The report of the ``goldfish`` command, run in this process as a person would run it on
    the sample deck's file, for each (deck, games, seed): what an undisturbed run prints."""
    texts = {deck["name"]: deck["text"] for deck in decks}
    expected: dict[Key, Any] = {}
    with tempfile.TemporaryDirectory(prefix="allegiance-chaos-") as folder:
        for key in sorted(set(keys)):
            name, games, seed = key
            path = Path(folder) / "deck.txt"
            path.write_text(texts[name], encoding="utf-8")
            out = io.StringIO()
            call_command("goldfish", str(path), "--games", str(games), "--seed", str(seed),
                         "--format", "json", stdout=out, stderr=io.StringIO())
            expected[key] = json.loads(out.getvalue())
    return expected
