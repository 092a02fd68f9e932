"""What a proposal may say, checked by the card data contract (cards.card_data): one row per
way to get it wrong, each refused naming its key, with nothing stored."""

from __future__ import annotations

from typing import Any

import pytest

from edits.errors import EditInvalid
from edits.models import Edit
from edits.services import edit_propose
from tests.edits.makers import make_user

LAMP = "tst-lamplighter"
NEW = {"id": "tst-new", "name": "New", "set": "TST"}


@pytest.mark.parametrize("proposal, key", [
    # What the edit is about.
    ({}, "card"),
    ({"card": LAMP, "changes": {"defense": 3}, "new_card": NEW}, "card"),
    ({"card": "tst-missing", "changes": {"defense": 3}}, "card"),
    ({"card": LAMP}, "changes"),
    ({"card": LAMP, "changes": {}}, "changes"),
    ({"card": LAMP, "changes": ["defense", 3]}, "changes"),
    ({"card": LAMP, "changes": {"defense": 2}}, "changes"),  # changes nothing
    # Keys.
    ({"card": LAMP, "changes": {"colour": "red"}}, "changes.colour"),
    ({"card": LAMP, "changes": {"id": "tst-other"}}, "changes.id"),
    ({"card": LAMP, "changes": {"set": "DEMO"}}, "changes.set"),
    ({"card": LAMP, "changes": {"official": True}}, "changes.official"),
    ({"card": LAMP, "changes": {"image": None}}, "changes.image"),
    ({"card": LAMP, "changes": {"provenance": {}}}, "changes.provenance"),
    # Types, ranges and lists.
    ({"card": LAMP, "changes": {"defense": "3"}}, "changes.defense"),
    ({"card": LAMP, "changes": {"defense": 3.5}}, "changes.defense"),
    ({"card": LAMP, "changes": {"defense": True}}, "changes.defense"),
    ({"card": LAMP, "changes": {"defense": 100}}, "changes.defense"),
    # Whole numbers: never below zero (issue 34, finding 11).
    ({"card": LAMP, "changes": {"offense": -1}}, "changes.offense"),
    ({"card": LAMP, "changes": {"cost_generic": -20}}, "changes.cost_generic"),
    ({"new_card": {**NEW, "bounty": -1}}, "new_card.bounty"),
    ({"card": LAMP, "changes": {"unique": "yes"}}, "changes.unique"),
    ({"card": LAMP, "changes": {"name": None}}, "changes.name"),
    ({"card": LAMP, "changes": {"name": "  "}}, "changes.name"),
    ({"card": LAMP, "changes": {"abilities": "x" * 4001}}, "changes.abilities"),
    ({"card": LAMP, "changes": {"rarity": "mythic"}}, "changes.rarity"),
    ({"card": LAMP, "changes": {"faction": "elves"}}, "changes.faction"),
    ({"card": LAMP, "changes": {"type": "spell"}}, "changes.type"),
    ({"card": LAMP, "changes": {"subtype": "wall"}}, "changes.subtype"),
    ({"card": LAMP, "changes": {"type": "event"}}, "changes.subtype"),  # citizen is no event
    ({"card": LAMP, "changes": {"sources": "my copy"}}, "changes.sources"),
    # A new card.
    ({"new_card": "tst-new"}, "new_card"),
    ({"new_card": {**NEW, "name": None}}, "new_card.name"),
    ({"new_card": {**NEW, "id": "Not A Slug"}}, "new_card.id"),
    ({"new_card": {**NEW, "id": LAMP}}, "new_card.id"),
    ({"new_card": {**NEW, "set": "NOPE"}}, "new_card.set"),
    ({"new_card": {**NEW, "official": True}}, "new_card.official"),
    ({"new_card": {**NEW, "image": "scan.png"}}, "new_card.image"),
    ({"new_card": {**NEW, "provenance": {}}}, "new_card.provenance"),
    ({"new_card": {**NEW, "offense": "2"}}, "new_card.offense"),
    ({"new_card": {**NEW, "wings": 2}}, "new_card.wings"),
    ({"new_card": NEW, "changes": {"defense": 3}}, "changes"),
    # Source and note.
    ({"card": LAMP, "changes": {"defense": 3}, "source": ""}, "source"),
    ({"card": LAMP, "changes": {"defense": 3}, "source": "   "}, "source"),
    ({"card": LAMP, "changes": {"defense": 3}, "source": None}, "source"),
    ({"card": LAMP, "changes": {"defense": 3}, "source": "x" * 4001}, "source"),
    ({"card": LAMP, "changes": {"defense": 3}, "note": 7}, "note"),
    ({"card": LAMP, "changes": {"defense": 3}, "note": "x" * 4001}, "note"),
])
def test_a_bad_proposal_is_refused_naming_its_key_and_nothing_is_stored(
        proposal: dict[str, Any], key: str) -> None:
    arguments = {"source": "my own copy", **proposal}
    with pytest.raises(EditInvalid) as refused:
        edit_propose(editor=make_user("ada"), **arguments)
    assert key in refused.value.errors, refused.value.errors
    assert refused.value.status == 400 and key in refused.value.detail
    assert not Edit.objects.exists()


def test_every_problem_of_a_proposal_is_named_at_once() -> None:
    with pytest.raises(EditInvalid) as refused:
        edit_propose(editor=make_user("ada"), card=LAMP, source="",
                     changes={"defense": "3", "rarity": "mythic", "id": "x"})
    assert set(refused.value.errors) == {"source", "changes.defense", "changes.rarity",
                                         "changes.id"}


@pytest.mark.parametrize("changes", [
    {"defense": None},  # back to unknown
    {"abilities": ""},  # the card has no ability text
    {"type": "structure", "subtype": "wall"},  # a type and the subtype that fits it, together
    {"sources": ["a trade list"]},
    {"unique": False, "rarity": "common_starter", "number": "A1"},
])
def test_values_the_contract_allows_are_accepted(changes: dict[str, Any]) -> None:
    edit = edit_propose(editor=make_user("ada"), card=LAMP, changes=changes, source="copy")
    assert edit.changes == changes and edit.status == Edit.OPEN
