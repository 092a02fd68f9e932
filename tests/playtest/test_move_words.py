"""Moves that would read alike name which copy of a card they mean
(playtest.table_play.distinct_texts): a person must be able to choose the card he means."""

from __future__ import annotations

from playtest.table_play import distinct_texts
from rules.game.actions import Action, describe
from tests.rules.game.scenario_helpers import battle_game, troop, wanderer


def test_two_copies_of_a_wanderer_are_told_apart_by_their_place_in_the_row() -> None:
    state, _, (first, second, wolf) = battle_game(
        [troop("t")], [wanderer("ghoul"), wanderer("ghoul"), wanderer("wolf")])
    actions = [Action("engage", first), Action("engage", second), Action("engage", wolf),
               Action("pass")]
    texts = distinct_texts(state, actions, [describe(state, a) for a in actions])
    name = state.card(first).name
    assert texts == [f"Hunt {name} (the first {name} in the wanderer row)",
                     f"Hunt {name} (the second {name} in the wanderer row)",
                     describe(state, actions[2]), "Pass"]


def test_two_attacks_on_copies_name_the_target_copy_not_the_attacker() -> None:
    state, (soldier,), (first, second) = battle_game(
        [troop("t")], [wanderer("ghoul"), wanderer("ghoul")])
    actions = [Action("separate", soldier, first), Action("separate", soldier, second)]
    texts = distinct_texts(state, actions, [describe(state, a) for a in actions])
    assert [t.rpartition("(")[2] for t in texts] == [
        f"the first {state.card(first).name} in the wanderer row)",
        f"the second {state.card(first).name} in the wanderer row)"]


def test_moves_that_differ_keep_their_words() -> None:
    state, _, row = battle_game([troop("t")], [wanderer("ghoul"), wanderer("wolf")])
    actions = [Action("engage", i) for i in row]
    texts = [describe(state, a) for a in actions]
    assert distinct_texts(state, actions, texts) == texts


def test_joining_one_of_two_attacks_on_one_card_names_the_attack_s_lead() -> None:
    # Two troops attack the same wanderer separately; a third may join either attack: the
    # same card, the same target, two moves told apart by the attack's lead.
    state, (spear, sword, axe), (ghoul,) = battle_game(
        [troop("spear"), troop("sword"), troop("axe")], [wanderer("ghoul")])
    actions = [Action("joint", axe, ghoul, str(spear)), Action("joint", axe, ghoul, str(sword))]
    texts = distinct_texts(state, actions, [describe(state, a) for a in actions])
    assert texts == [f"{describe(state, actions[0])} (the attack led by "
                     f"{state.card(spear).name})",
                     f"{describe(state, actions[1])} (the attack led by "
                     f"{state.card(sword).name})"]
