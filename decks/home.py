"""What the home page (the catalogue's, cards.extensions) shows of the decks: the visitor's
latest decks, to come back to, and a sample deck to try the draws, goldfish and playtest on."""

from __future__ import annotations

from typing import Any

from decks.models import Deck

LATEST = 5
SAMPLE_OWNER = "samples"  # load_sample_decks's account
SAMPLE = "Kalim Faithful"  # the one to try first, when it is there


def home_decks(request: Any) -> dict[str, Any]:
    user = request.user
    mine = (list(Deck.objects.filter(owner=user).order_by("-updated_at")[:LATEST])
            if user.is_authenticated else [])
    samples = Deck.objects.filter(owner__username=SAMPLE_OWNER, visibility=Deck.PUBLIC)
    sample = samples.filter(name=SAMPLE).first() or samples.order_by("name").first()
    return {"my_decks": mine, "sample_deck": sample}
