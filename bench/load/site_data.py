"""The load run's data in the database: its accounts and the plan the users follow, before the
run; each of their decks with every saved version, after it. Needs Django set up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from bench.load.lost_writes import Stored
from bench.load.records import deck_content
from cards.models import Card
from decks.formats.json_format import deck_to_dict
from decks.models import Deck
from decks.services import SAMPLE_OWNER, deck_data

ACCOUNT_PREFIX = "load-"
# Searches people make: a type and faction, ranges, a regular expression, keywords, a name.
QUERIES = [
    "t:troop f:kalim off>=2", "o:/exhaust(s)? target/", "kw:fleetfoot or kw:ranged",
    "-is:unknown order:cost", "ember", "t:structure f:guild", "f:mosfin cost<=2",
    "t:personality order:name", "set:demo t:troop", "r:rare",
]


def make_accounts(count: int) -> list[dict[str, str]]:
    """Accounts with API tokens (no password: scripts sign in with the token)."""
    accounts = []
    for n in range(1, count + 1):
        user, created = get_user_model().objects.get_or_create(username=f"{ACCOUNT_PREFIX}{n:02}")
        if created:
            user.set_unusable_password()
            user.save()
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
    return {"seed": seed, "accounts": accounts, "queries": QUERIES,
            "cards": list(Card.objects.order_by("id").values_list("id", flat=True)),
            "decks": sample_decklists(decklists)}


def stored_decks() -> dict[int, Stored]:
    """Every deck of the load accounts, with each version's content as it was saved."""
    found = {}
    decks = Deck.objects.filter(owner__username__startswith=ACCOUNT_PREFIX).prefetch_related(
        "versions")
    for deck in decks:
        versions = {v.number: deck_content(v.snapshot) for v in deck.versions.all()}
        found[deck.pk] = Stored(versions, deck.version, deck_content(deck_to_dict(deck_data(deck))))
    return found
