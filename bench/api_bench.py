"""The card list endpoint against the smallest endpoint, both through the whole Django stack."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import partial
from pathlib import Path

from django.core.management import call_command
from django.test import Client

from bench.search_bench import ROUND, first_request, paired, side_by_side


def run(best_of: Callable[..., float], report: Callable[..., None], root: Path) -> None:
    call_command("migrate", verbosity=0)
    catalogues = [str(root / "fixtures" / "cards" / n) for n in ("wof.json", "demo.json")]
    call_command("import_cards", *catalogues, "--no-images", stderr=io.StringIO())
    client = Client()

    def get(url: str) -> Callable[[], None]:
        def call() -> None:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
        return call

    trivial = best_of(get("/api/sets/"))
    # A first request computes its answer; a repeated one comes from the card list cache. Each
    # is paired with GET /api/sets/ timed right after it, round by round (search_bench).
    for url, name in (("/api/cards/", "(60 cards)"), ("/api/cards/?page_size=250", "(250)")):
        client.get(url)
        paired(f"GET /api/cards/ {name}, first", side_by_side(
            client, partial(first_request, client, url, repeat=1, number=ROUND),
            baseline="/api/sets/"), "GET /api/sets/")
        paired(f"GET /api/cards/ {name}, repeated", side_by_side(
            client, partial(best_of, get(url), repeat=1, number=ROUND), baseline="/api/sets/"),
            "GET /api/sets/")
    report("GET /api/cards/{id}/", best_of(get("/api/cards/wof-bishop-ospin/")), trivial,
           "GET /api/sets/")
    report("GET /api/abilities/", best_of(get("/api/abilities/")), trivial, "GET /api/sets/")

    health = best_of(get("/api/health/"), number=100)
    text = (root / "fixtures" / "decklists" / "guild-veterans.txt").read_text(encoding="utf-8")

    def validate() -> None:
        response = client.post("/api/decks/validate/", {"text": text},
                               content_type="application/json")
        assert response.status_code == 200, response.content[:300]

    validate()  # the first call reads the catalogue's facts; later ones reuse them
    seconds = best_of(validate, number=20)
    report("POST /api/decks/validate/ (60-card text)", seconds, health,
           f"GET /api/health/ (goal p50 <= 15 ms: {seconds * 1000:.1f} ms)")
