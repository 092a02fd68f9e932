"""Every effect a card of the catalogue can use has one place that offers, resolves and values
it (docs/engine.md, "Effects"): an entry of battle_effects.KINDS when it is used in a combat's
modification step, of phase_effects.KINDS when it is used as an action or played as a general
event, of static_effects.KINDS when it is always on; the other kinds are named here with the
module that carries them out."""

from __future__ import annotations

from rules.game import battle_effects, phase_effects, static_effects
from rules.game.profile import build_profile
from tests.rules.game.engine_helpers import catalogue

# Used as an action but carried out elsewhere: on another player's personality, a rival
# ability of the table (rules/game/rivalry.py).
ELSEWHERE = {"exhaust_personality": "rivalry"}


def test_every_used_effect_of_the_catalogue_has_one_entry() -> None:
    placed: dict[str, str] = {}
    for facts in catalogue().values():
        try:
            profile = build_profile(facts)
        except ValueError:  # a card whose numbers are not known yet is never played
            continue
        for ability in profile.abilities:
            effect = ability.effect
            if effect.combat:
                assert effect.kind in battle_effects.KINDS, (profile.name, effect.kind)
                placed[effect.kind] = "battle"
            elif effect.kind in ELSEWHERE:
                placed[effect.kind] = ELSEWHERE[effect.kind]
            else:
                assert effect.kind in phase_effects.KINDS, (profile.name, effect.kind)
                placed[effect.kind] = "phase"
    assert not set(battle_effects.KINDS) & set(phase_effects.KINDS)
    # The catalogue uses every entry of both registries (none is dead code).
    assert set(battle_effects.KINDS) | set(phase_effects.KINDS) <= set(placed), placed


def test_every_static_effect_of_the_catalogue_is_a_known_static_kind() -> None:
    found: set[str] = set()
    for facts in catalogue().values():
        try:
            profile = build_profile(facts)
        except ValueError:
            continue
        for effect in profile.statics:
            assert effect.static and effect.kind in static_effects.KINDS, (profile.name, effect)
            found.add(effect.kind)
    assert found == static_effects.KINDS
