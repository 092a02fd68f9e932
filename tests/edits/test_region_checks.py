"""One "I checked these" per region of the card (issue 36): it confirms the values read there,
but a doubtful value is ticked alone."""

from __future__ import annotations

import pytest

from edits.card_form import NEW_CARD, blank_card, form_from_post

READ = {"name": ("Old Mill", 0.95), "type": ("structure", 0.9), "cost_generic": ("2", 0.92),
        "defense": ("3", 0.4), "residencies": ("1", 0.9)}


def posted(**extra: str) -> dict[str, str]:
    post = {"set": "TST"}
    for key, (value, confidence) in READ.items():
        post.update({key: value, f"read_{key}": value, f"confidence_{key}": str(confidence)})
    post.update(extra)
    return post


@pytest.mark.parametrize(("ticks", "unconfirmed"), [
    ({}, {"name", "type", "cost_generic", "defense", "residencies"}),
    ({"checked_name": "1"}, {"type", "defense", "residencies"}),
    ({"checked_name": "1", "checked_type": "1", "checked_stats": "1"}, {"defense"}),
    ({"checked_name": "1", "checked_type": "1", "checked_stats": "1", "confirm_defense": "1"},
     set()),
    ({"checked_nonsense": "1"}, {"name", "type", "cost_generic", "defense", "residencies"}),
], ids=["none", "name bar", "all regions: the doubtful one left", "and the doubtful one",
        "an unknown region"])
def test_a_region_tick_confirms_its_values_read_but_the_doubtful_ones(
        ticks: dict[str, str], unconfirmed: set[str]) -> None:
    form = form_from_post(blank_card("TST", False), posted(**ticks), mode=NEW_CARD)
    assert {state.key for state in form.unconfirmed()} == unconfirmed


def test_the_form_counts_the_values_each_region_tick_confirms() -> None:
    form = form_from_post(blank_card("TST", False), posted(), mode=NEW_CARD)
    counts = form.read_groups
    assert (counts["name"], counts["type"], counts["stats"], counts["text"]) == (2, 1, 1, 0)
