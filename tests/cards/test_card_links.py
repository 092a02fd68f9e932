"""Card names in a narrated log as links to their pages (the playtest and goldfish logs)."""

from __future__ import annotations

import pytest

from cards.card_links import CardNames

FACTS = {"demo-bog-hag": {"name": "Bog Hag"}, "demo-bog-hag-elder": {"name": "Bog Hag Elder"},
         "demo-ragpickers-hovel": {"name": "Ragpicker's Hovel"}, "x-nameless": {}}


@pytest.mark.parametrize(("text", "html"), [
    ("Drew Bog Hag.", 'Drew <a href="/cards/demo-bog-hag/" class="card-ref">Bog Hag</a>.'),
    ("Bog Hag Elder attacks", '<a href="/cards/demo-bog-hag-elder/" class="card-ref">'
                              "Bog Hag Elder</a> attacks"),  # the longest name wins
    ("Built Ragpicker's Hovel & more",
     'Built <a href="/cards/demo-ragpickers-hovel/" class="card-ref">Ragpicker&#x27;s Hovel</a>'
     " &amp; more"),
    ("Bog Hags everywhere", "Bog Hags everywhere"),  # not inside a longer word
    ("<script>", "&lt;script&gt;"),
])
def test_card_names_become_links_and_the_rest_is_escaped(text: str, html: str) -> None:
    assert CardNames(FACTS).link(text) == html


def test_a_game_without_named_cards_links_nothing() -> None:
    assert CardNames({}).link("a & b") == "a &amp; b"
