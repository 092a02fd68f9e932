"""The battle of the moment at a table, as one seat may see it (docs/tables.md, "combat" in
a seat's view): who attacks whom, the cards on each side with their offense, defense and
wounds, and the assignments made so far.

Pure Python (no Django). The numbers and the assignments are the playtest's battlefield
(:func:`playtest.table.combat_layout`, which tells it from the state's player's side); this
module says it from no side, naming the seats as ``viewer`` reads them. Everything in a
battle is public (troops and wanderers in play, a wall, the structures attacked), but a card
may leave the battlefield: only cards in the zones ``shown`` (those the view names) are
listed, so a card killed into the dead pile or sent back to a hand is never named here.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Final

from playtest.table import COMBAT_STEPS, Links, card_entry, combat_layout, item_strength
from playtest.table_play import seat_name, whose
from rules.game import seats
from rules.game.state import GameState

# combat_layout asks where a card's image and page are: a view names cards by id only.
NO_LINKS: Final = Links(image=lambda _: "", page=lambda _: "")
STEP_TITLES: Final = {**COMBAT_STEPS, "declare": "The attacker chooses the troops to send"}


def _who(seat: int, names: Sequence[str], viewer: int, *, start: bool = False) -> str:
    """A seat as the subject or object of a sentence: "Seat 2 (bob)", "you" ("You" first)."""
    said = seat_name(seat, names, viewer)
    return said if start or seat != viewer else "you"


def _whose(seat: int, names: Sequence[str], viewer: int) -> str:
    said = whose(seat, names, viewer)
    return said[:1].upper() + said[1:]


def _verb(seat: int, viewer: int, verb: str) -> str:
    """``verb`` agreeing with the seat: "you attack", "Seat 1 (ada) attacks"."""
    return verb if seat == viewer else f"{verb}s"


def _raid_title(owner: int, host: int, controller: int, names: Sequence[str],
                viewer: int) -> str:
    """"Seat 1 (ada)'s wanderers attack you"; a seat's own wanderers, "Wanderers attack
    Seat 2 (bob) (you control them)"."""
    if owner != host:
        return f"{_whose(owner, names, viewer)} wanderers attack {_who(host, names, viewer)}"
    said = f"Wanderers attack {_who(host, names, viewer)}"
    if controller < 0:
        return said
    return (f"{said} ({_who(controller, names, viewer)} "
            f"{_verb(controller, viewer, 'control')} them)")


def _troop(state: GameState, instance: int) -> dict[str, Any]:
    """A troop being sent (no combat yet): its printed numbers and its items'."""
    entry = card_entry(state, instance, NO_LINKS)
    offense, defense = item_strength(state, instance)
    return {**entry, "gone": False, "offense_now": (entry["offense"] or 0) + offense,
            "defense_now": (entry["defense"] or 0) + defense}


def _card(entry: dict[str, Any]) -> dict[str, Any]:
    """One card of the battle as the view carries it (no instance: instances follow the
    decklist's order, which would tell how a seat's hidden piles are made up)."""
    return {"id": entry["id"], "name": entry["name"], "offense": entry["offense_now"],
            "defense": entry["defense_now"], "vitality": entry["vitality"],
            "wounds": entry["wounds"], "exhausted": entry["exhausted"],
            "gone": entry["gone"]}


def _cards(state: GameState, entries: Sequence[dict[str, Any]],
           shown: Collection[str]) -> list[dict[str, Any]]:
    return [_card(e) for e in entries if state.where[e["instance"]] in shown]


def battle(table: seats.Table, names: Sequence[str], viewer: int,
           shown: Collection[str]) -> dict[str, Any] | None:
    """The battle at ``table`` as ``viewer`` (a seat, -1 for a spectator) reads it, None when
    no combat is on: ``kind`` (``attack``: a lord's troops attack another seat; ``raid``:
    wanderers attack a seat; ``hunt``: a seat hunts a wanderer row, his own or another's),
    ``title``, ``step`` and ``step_title``, ``attacker`` and ``defender`` (seats; -1 for
    wanderers nobody controls), ``sides`` (the attacking side first: each ``role``,
    ``title``, ``cards``, and for the defenders the ``wall`` and how many attackers it still
    blocks, ``wall_left``), the ``assignments`` so far (each ``side``, ``attackers``,
    ``target``, ``joint``) and ``berserk``. An attack whose lord is still choosing the troops
    to send is a battle at the step ``declare``."""
    state = table.state
    declaring = table.declaring
    if state.combat is None:
        if declaring is None:
            return None
        sent = _cards(state, [_troop(state, i) for i in declaring.sent], shown)
        attacker, defender = declaring.seat, declaring.target
        return {
            "kind": "attack", "step": "declare", "step_title": STEP_TITLES["declare"],
            "title": f"{_who(attacker, names, viewer, start=True)} "
                     f"{_verb(attacker, viewer, 'attack')} {_who(defender, names, viewer)}",
            "attacker": attacker, "defender": defender,
            "sides": [{"role": "attack", "title": f"{_whose(attacker, names, viewer)} troops",
                       "cards": sent},
                      {"role": "defense",
                       "title": f"{_whose(defender, names, viewer)} defenders",
                       "cards": [], "wall": None, "wall_left": 0}],
            "assignments": [], "berserk": False,
        }
    fight = state.combat
    layout = combat_layout(state, NO_LINKS)
    assert layout is not None  # (a combat is on)
    hosting = table.hosting
    host = state.player  # the seat whose state holds the combat: the defender, or the hunter
    origin = hosting.origin if hosting is not None else -1
    ours = _cards(state, layout["yours"], shown)  # the host's troops
    theirs = _cards(state, layout["wanderers"], shown)  # attacking troops, or wanderers
    wall = layout["wall"]
    if fight.kind == "hunt":
        row = fight.row if fight.row >= 0 else host
        kind, attacker, defender = "hunt", host, row
        title = (f"{_who(host, names, viewer, start=True)} {_verb(host, viewer, 'hunt')} "
                 + ("the wanderer row of " + _who(row, names, viewer) if row != host
                    else f"{'your' if host == viewer else 'his'} own wanderer row"))
        sides = [{"role": "attack", "title": f"{_whose(host, names, viewer)} troops",
                  "cards": ours},
                 {"role": "defense", "title": "Wanderers of "
                  + ("your row" if row == viewer else f"{seat_name(row, names, viewer)}'s row"),
                  "cards": theirs, "wall": None, "wall_left": 0}]
    else:
        defender = host
        if hosting is not None and hosting.kind == "attack":
            kind, attacker = "attack", origin
            title = (f"{_who(origin, names, viewer, start=True)} "
                     f"{_verb(origin, viewer, 'attack')} {_who(host, names, viewer)}")
            side_title = f"{_whose(origin, names, viewer)} troops"
        else:
            # Raiding wanderers: another seat's, which he controls, or the defender's own,
            # controlled by the seat on his left (combat.modifiers[0] asks for them).
            kind = "raid"
            attacker = origin if hosting is not None else \
                (fight.modifiers[0] if fight.asks_wild and fight.modifiers else -1)
            owner = origin if hosting is not None else host
            title = _raid_title(owner, host, attacker, names, viewer)
            side_title = f"{_whose(owner, names, viewer)} wanderers"
        sides = [{"role": "attack", "title": side_title, "cards": theirs},
                 {"role": "defense", "title": f"{_whose(host, names, viewer)} defenders",
                  "cards": ours,
                  "wall": _card(wall) if wall is not None
                  and state.where[wall["instance"]] in shown else None,
                  "wall_left": layout["wall_left"]}]
    # A group's side "you" is the host's (combat_layout's side 0): the hunter attacking, or
    # the defenders striking back.
    host_role = "attack" if kind == "hunt" else "defense"
    other_role = "defense" if kind == "hunt" else "attack"
    assignments = []
    for group in layout["groups"]:
        members = [g for g in group["attackers"] if state.where[g["instance"]] in shown]
        if not members or state.where[group["target"]["instance"]] not in shown:
            continue
        assignments.append({"side": host_role if group["side"] == "you" else other_role,
                            "attackers": [_card(m) for m in members],
                            "target": _card(group["target"]), "joint": group["joint"]})
    return {
        "kind": kind, "step": fight.step,
        "step_title": STEP_TITLES.get(fight.step, fight.step),
        "title": title, "attacker": attacker, "defender": defender, "sides": sides,
        "assignments": assignments, "berserk": fight.berserk,
    }
