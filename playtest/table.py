"""The table of a game as the rulebook's "Game Layout" describes it, and the moves of the moment.

Pure Python (no Django): plain dicts that the page templates and the API share. The layout
follows the rulebook: the private holdings row (structures, with the citizens residing on each
and the troops guarding it), the defensive holdings row (troops and the wall), the wanderer row,
the three draw piles with their discard piles, the hand, the personal influence pool by token
kind and the city's pool, the dead pile; the battlefield when a combat is on. Items and
invocations are shown on the personality that carries them.

Card images come from ``links`` (the page knows the URLs; this module does not).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from playtest.play import outcome_sentence
from playtest.table_play import (
    PLAYER,
    TableGame,
    distinct_texts,
    player_outcome,
    seat_name,
    table_outcome,
)
from rules.game import engine, rulings, seats
from rules.game.actions import Action, describe
from rules.game.narrate import PHASES
from rules.game.state import Combat, GameState
from rules.game.vocabulary import TOKEN_KINDS, Phase, Step

STEPS: Final = {
    "arrange": "Move troops to guard structures and items between personalities",
    "draw": "Draw to seven cards, one at a time",
    "act": "Use an ability, bring a card into play, or pass",
    "military": "Declare a hunt against your wanderer row, or pass",
    "fine": "Pay a fine for each un-exhausted wanderer",
    "discard": "Discard up to 3 cards, then say you are done",
}
COMBAT_STEPS: Final = {
    "engage": "Choose the wanderers to hunt",
    "bribe": "Bribes: the defender may pay attackers to go home",
    "bribe_back": "Bribes: the attacker may bribe a defender to go home",
    "muster": "Send troops to the battlefield",
    "assign": "Assignments: each side assigns one card in turn",
    "modify": "Modification: abilities and battle events",
    "berserk": "The berserk round: new targets",
    "resolve": "Combat resolution",
    "over": "The combat is over",  # its aftermath: a homeless citizen's fate, say
}
PILES: Final = (
    ("structures", "Structure Pile", "structure_pile", "structure_discard"),
    ("personalities", "Personality Pile", "personality_pile", "personality_discard"),
    ("wanderers", "Wanderer Pile", "wanderer_pile", "wanderer_discard"),
)
SEAT_TARGETED: Final = ("attack", "hunt_row", "use_on")
TABLE_STEPS: Final = {
    "action": "Use an ability, bring a card into play, use one on another player, or pass",
    "military": "Hunt your row or another player's, attack another player, or pass",
}
TABLE_STAGES: Final = {
    "maintenance": "City Maintenance", "action": "Action and Development",
    "military": "Military", "wanderer": "Wanderer", "discard": "Discard", "over": "Game over",
}


@dataclass(frozen=True)
class Links:
    """How to reach a card: its image (small rendition) and its page."""

    image: Callable[[str], str]
    page: Callable[[str], str]


def tokens(counts: list[int]) -> list[dict[str, Any]]:
    return [{"kind": kind, "count": counts[k]} for k, kind in enumerate(TOKEN_KINDS)]


def card_entry(state: GameState, instance: int, links: Links) -> dict[str, Any]:
    """One card on the table: what it is and what is on it (wounds, tokens, exhaustion)."""
    card = state.card(instance)
    wounds = state.wounds.get(instance, 0)
    exhausted = instance in state.exhausted
    on_card = state.on_card.get(instance)
    notes = []
    if exhausted:
        notes.append("exhausted")
    if wounds:
        notes.append(f"{wounds} wound{'s' if wounds != 1 else ''} of {card.vitality} vitality"
                     if card.vitality else f"{wounds} wound{'s' if wounds != 1 else ''}")
    if on_card and any(on_card):
        notes.append("holds " + ", ".join(f"{n} {TOKEN_KINDS[k]}"
                                          for k, n in enumerate(on_card) if n))
    bonus = state.bounty_bonus.get(instance, 0)
    if bonus:
        notes.append(f"bounty +{bonus}")
    return {
        "instance": instance, "id": card.id, "name": card.name, "type": card.type,
        "subtype": card.subtype or "", "faction": card.faction or "",
        "offense": card.offense, "defense": card.defense, "influence": card.influence,
        "vitality": card.vitality, "residencies": card.residencies, "bounty": card.bounty,
        "aggression": card.aggression, "exhausted": exhausted, "wounds": wounds,
        "tokens": list(on_card) if on_card else [0, 0, 0], "bounty_bonus": bonus,
        "notes": notes, "label": ", ".join([card.name, *notes]),
        "image": links.image(card.id), "page": links.page(card.id),
    }


def _hosted(state: GameState, zone: str, host: int) -> list[int]:
    return [i for i in state.seat_of(host).zones[zone] if state.host.get(i) == host]


def _away(entry: dict[str, Any], state: GameState, seat: int, viewer: int) -> dict[str, Any]:
    """``entry`` of ``seat``'s troop marked ``away`` while it fights in another seat's combat
    (his attack on that seat): it is on that battlefield, not at home to defend; "attacking
    you" when that seat is ``viewer``'s."""
    fight = state.combat
    if seat >= 0 and fight is not None and state.player != seat \
            and entry["instance"] in fight.wild:
        entry["away"] = True
        entry["notes"].append("attacking you" if state.player == viewer
                              else f"attacking seat {state.player + 1}")
        entry["label"] = ", ".join([entry["name"], *entry["notes"]])
    return entry


def _with_attachments(state: GameState, instance: int, links: Links) -> dict[str, Any]:
    entry = card_entry(state, instance, links)
    entry["attached"] = [card_entry(state, i, links) for i in _hosted(state, "attached", instance)]
    return entry


def table_layout(state: GameState, links: Links, seat: int = -1,
                 standing: tuple[Phase, Step, Combat | None] | None = None,
                 viewer: int = -1) -> dict[str, Any]:
    """The whole table of ``seat`` (-1: the player of ``state``, whose phase or combat it
    is), row by row (see the module docstring); ``standing``: where ``seat`` stands at a
    table (seats.standing: phase, step, his combat), when not the state's own; ``viewer``:
    the seat reading it (the troops attacking him are "attacking you")."""
    me = state.seats[seat] if seat >= 0 else state.player_seat()
    phase, step, fight = (state.phase, state.step, state.combat) if standing is None \
        else standing
    zones = me.zones
    private = []
    for structure in zones["private"]:
        entry = card_entry(state, structure, links)
        entry["residents"] = [_with_attachments(state, c, links)
                              for c in _hosted(state, "residents", structure)]
        entry["guards"] = [_with_attachments(state, g, links)
                           for g in _hosted(state, "guards", structure)]
        private.append(entry)
    piles = [{
        "key": key, "title": title, "count": len(zones[pile]),
        "discard_count": len(zones[discard]),
        "discard": [card_entry(state, i, links) for i in reversed(zones[discard])],
    } for key, title, pile, discard in PILES]
    return {
        "round": state.round, "phase": phase,
        "phase_title": PHASES.get(phase, phase.title()),
        "step": step, "step_title": _step_title(state.over, step, fight),
        "decision": state.decisions, "over": state.over, "outcome": state.outcome,
        "outcome_title": outcome_sentence(state.outcome, state.round),
        "influence": rulings.influence_total(state, seat), "target": state.config.target,
        "round_cap": state.config.round_cap,
        "wanderer_limit": state.config.overrun_limit,
        "personal": tokens(me.personal), "personal_total": sum(me.personal),
        "city": tokens(state.city), "city_total": sum(state.city),
        "fines_due": me.fines_due, "discards_left": me.discards_left,
        "private": private,
        # Citizens who lost their residence, their fate the player's decision now.
        "homeless": [card_entry(state, i, links) for i in me.homeless],
        "defensive": [_away(_with_attachments(state, i, links), state, seat, viewer)
                      for i in zones["defensive"]],
        "wanderers": [card_entry(state, i, links) for i in zones["wanderers"]],
        "hand": [card_entry(state, i, links) for i in zones["hand"]],
        "piles": piles,
        "dead": [card_entry(state, i, links) for i in zones["dead"]],
        "combat": combat_layout(state, links) if fight is not None else None,
    }


def _step_title(over: bool, step: str, fight: Combat | None) -> str:
    if over:
        return "The game is over"
    if fight is not None:
        return COMBAT_STEPS.get(fight.step, fight.step)
    return STEPS.get(step, step)


def item_strength(state: GameState, instance: int) -> tuple[int, int]:
    """The offense and defense the items ``instance`` uses add to its printed numbers."""
    items = [state.card(i) for i in rulings.items_used(state, instance)]
    return sum(c.offense or 0 for c in items), sum(c.defense or 0 for c in items)


def combat_layout(state: GameState, links: Links, side: int = 0,
                  title: str = "", owner: str = "", attacker: str = "") -> dict[str, Any] | None:
    """The battlefield: both sides and every attack group (a separate attack has one attacker,
    a joint attack several; "strikes back" groups are the defenders' answers). ``side``: the
    viewer's (0, the player's cards; 1, the attacking troops: a lord's own attack on
    another player, fought in the defender's ``state``), with its ``title``; ``owner``: the
    seat whose side 0 is when it is not the player's (another seat's hunt, in which the
    player may only crusade), named where the player's own side says "you"; ``attacker``:
    the seat whose troops are the other side of side 0 (an attack of his on the player's
    holdings, or on ``owner``'s), named where the wanderers would be."""
    combat = state.combat
    if combat is None:
        return None
    alive = {"defensive", "wanderers", "private", "guards"}

    def entry(instance: int) -> dict[str, Any]:
        data = card_entry(state, instance, links)
        data["gone"] = state.where[instance] not in alive
        # Printed numbers, the items in use and this combat's bonuses; before the die and
        # target-specific riders (Giant-size, Raze...), which the log shows per attack.
        offense, defense = item_strength(state, instance)
        charged = combat.charged.get(instance, 0)
        data["offense_now"] = (data["offense"] + offense
                               + combat.bonus_off.get(instance, 0) + charged)
        data["defense_now"] = (data["defense"] + defense
                               + combat.bonus_def.get(instance, 0) - charged)
        return data

    groups = [{
        "side": "you" if group_side == side else "wanderers",
        "target": entry(target), "attackers": [entry(m) for m in members],
        "joint": len(members) > 1,
    } for group_side, target, *members in combat.groups]
    mine, theirs = (combat.player, combat.wild) if side == 0 else (combat.wild, combat.player)
    them = [entry(i) for i in theirs]
    if side != 0 and combat.wall >= 0:
        them.insert(0, entry(combat.wall))  # the defender's wall, on his side
    if not title:
        title = "The hunt" if combat.kind == "hunt" else \
            f"{attacker} attacks you" if attacker else "The wanderers attack"
    # The other side of side 0: the wanderers, or the troops of the seat attacking.
    foe = attacker if side == 0 and attacker else ""
    return {
        "kind": combat.kind, "title": title,
        "step": combat.step, "step_title": COMBAT_STEPS.get(combat.step, combat.step),
        "turn": (owner or "you") if combat.turn == side
        else ((foe or "wanderers") if side == 0 else "defender"),
        "us": f"{owner}'s side" if owner else "Your side",
        "our": owner or "Yours",
        "yours": [entry(i) for i in mine],
        "wall": entry(combat.wall) if combat.wall >= 0 and side == 0 else None,
        "wall_left": combat.wall_left if side == 0 else 0,
        "wanderers": them,
        "them": foe or ("Wanderers" if side == 0 else "Defenders"),
        "their": f"{foe}'s" if foe else ("Wanderers'" if side == 0 else "Defender's"),
        "none_yet": "No attacking troop left." if foe
        else ("No wanderer engaged yet." if side == 0 else "No defender yet."),
        "groups": groups, "berserk": combat.berserk,
    }


def _related(state: GameState, action: Action) -> list[int]:
    """The cards a click can focus this action by: its card and target, and for a card in
    hand every copy of it (the engine offers to play the first copy only)."""
    # At a table, attack, hunt_row and use_on target a seat, not a card.
    targets_card = action.kind not in SEAT_TARGETED
    found = [i for i in (action.card, action.target if targets_card else -1) if i >= 0]
    if action.card >= 0 and state.where[action.card] == "hand":
        same = state.cards[action.card]
        found += [i for i in state.seat_of(action.card).hand
                  if state.cards[i] == same and i != action.card]
    if action.kind == "joint" and action.option.isdigit():
        found.append(int(action.option))
    return found


def _zone_word(state: GameState, instance: int) -> str:
    zone = state.where[instance]
    if zone == "residents" and instance not in state.host:
        return "homeless"
    return {"hand": "in hand", "private": "private holdings", "residents": "citizen",
            "guards": "guard", "defensive": "defensive holdings", "wanderers": "wanderer row",
            "attached": "attached"}.get(zone, zone.replace("_", " "))


def action_menu(state: GameState, *, policy: int | None = None, focus: int | None = None,
                legal: Sequence[Action] | None = None,
                words: Callable[[Action], str] | None = None) -> dict[str, Any]:
    """The legal actions of the moment, each numbered (number = index + 1) and worded by
    :func:`describe`, grouped by the card that acts (general moves such as Pass or Done in
    their own group); ``policy`` marks the greedy policy's choice, ``focus`` a clicked card.
    At a table, ``legal`` are the seat's legal actions and ``words`` says them."""
    legal = engine.legal_actions(state) if legal is None else list(legal)
    say = words or (lambda action: describe(state, action))
    texts = distinct_texts(state, legal, [say(action) for action in legal])
    rows = []
    groups: dict[int, dict[str, Any]] = {}
    for index, action in enumerate(legal):
        related = _related(state, action)
        row = {
            "index": index, "number": index + 1, "text": texts[index],
            "action": action.to_dict(), "kind": action.kind, "related": related,
            "policy": index == policy,
            "focused": focus is not None and focus in related,
        }
        rows.append(row)
        key = action.card
        if key not in groups:
            groups[key] = {
                "card": action.card, "title": state.card(key).name if key >= 0 else "General",
                "where": _zone_word(state, key) if key >= 0 else "",
                "actions": [],
            }
        groups[key]["actions"].append(row)
    for group in groups.values():
        group["focused"] = any(row["focused"] for row in group["actions"])
    # The cards that can act now (and every copy in hand of a card that can be played).
    movable = sorted({i for a in legal if a.card >= 0
                      for i in _related(state, Action("play", a.card))})
    return {"decision": state.decisions, "count": len(legal), "actions": rows,
            "groups": list(groups.values()), "policy": policy, "focus": focus,
            "focus_matches": sum(1 for row in rows if row["focused"]), "movable": movable}


# --- at a table of AI opponents ------------------------------------------------------------


def controlled_fight(played: TableGame, names: Sequence[str]
                     ) -> tuple[GameState, str, str] | None:
    """Another seat's combat whose attacking side the player decides: his attack on that
    seat, his wanderers attacking it, or its own wanderers attacking it with the player on
    its left in control. (The state, the battle's title, the step title's prefix.)"""
    table = played.table
    hosting = table.hosting
    state = table.state
    fight, other = state.combat, state.player
    if other != PLAYER and fight is not None and fight.asks_wild and fight.modifiers \
            and fight.modifiers[0] == PLAYER:
        them = seat_name(other, names)
        if hosting is not None and hosting.host == other and hosting.kind == "attack":
            return state, f"Your attack on {them}", "Your attack"
        if hosting is not None and hosting.host == other:
            return state, f"Your wanderers attack {them}", "Your wanderers"
        return state, f"The wanderers of {them} attack them: you control them", \
            "You control the wanderers"
    return None


def attacking_seat(table: seats.Table) -> int:
    """The seat whose troops attack the holdings of the state's player in its combat now (an
    attack between players, fought in the defender's state), -1 when none: a hunt, or a
    wanderers' raid, whose wanderers are "the wanderers" whoever controls them."""
    hosting = table.hosting
    state = table.state
    if hosting is not None and hosting.kind == "attack" and state.combat is not None \
            and state.player == hosting.host:
        return hosting.origin
    return -1


def fight_elsewhere(played: TableGame) -> GameState | None:
    """The state of another seat's combat in which the player decides now (not one whose
    attacking side he controls: :func:`controlled_fight`), None when he decides in his own
    state. Its ``player`` is that seat."""
    table = played.table
    if seats.to_move(table) != PLAYER:
        return None
    there = table.state
    if there.player == PLAYER or there.combat is None:
        return None
    return there


def battle_title(there: GameState, names: Sequence[str]) -> str:
    """Another seat's combat named for the player: "Seat 2 (Guild Veterans)'s hunt"."""
    fight = there.combat
    battle = "hunt" if fight is not None and fight.kind == "hunt" else "combat"
    return f"{seat_name(there.player, names)}'s {battle}"


def table_status(played: TableGame, names: Sequence[str]) -> dict[str, Any]:
    """What :func:`table_layout` of the player's seat says differently at a table: the
    table's round, phase and end, whose turn it is, the lead player."""
    table = played.table
    status: dict[str, Any] = {
        "round": table.round, "over": played.over, "outcome": player_outcome(table),
        "outcome_title": table_outcome(table, names),
        "to_move": seats.to_move(table), "winner": table.winner,
        "lead": table.lead, "lead_name": seat_name(table.lead, names),
        "stage": table.stage, "stage_title": TABLE_STAGES.get(table.stage, table.stage),
    }
    if played.over:
        status["step_title"] = "The game is over"
    elif table.stage in PHASES:
        # The table's phase, not the seat's: a seat waiting for the others is parked in a
        # step of its own ("wait"), which says nothing to the player.
        status["phase_title"] = PHASES[table.stage]
        _, step, own_fight = played.standing()
        if table.declaring is not None and table.declaring.seat == PLAYER:
            status["step_title"] = "Your attack: send your troops, then done"
        elif (controlled := controlled_fight(played, names)) is not None:
            fight = controlled[0].combat  # fought as the other seat's combat
            assert fight is not None
            status["step_title"] = f"{controlled[2]}: " + COMBAT_STEPS.get(fight.step,
                                                                           fight.step)
        elif (elsewhere := fight_elsewhere(played)) is not None:
            # His turn of the modification step of another seat's combat (Crusade on one of
            # its troops): the title is that combat's, not his own phase's.
            fight = elsewhere.combat
            assert fight is not None
            status["step_title"] = f"{battle_title(elsewhere, names)}: " \
                + COMBAT_STEPS.get(fight.step, fight.step)
        elif own_fight is not None and (attacker := attacking_seat(table)) >= 0:
            # Another seat's troops attack the player: who, first (the one-line announcement
            # that says it may be cut short on a phone).
            status["step_title"] = f"{seat_name(attacker, names)} attacks you: " \
                + COMBAT_STEPS.get(own_fight.step, own_fight.step)
        elif own_fight is None and step in (engine.WAIT, engine.HOSTING, "act", "military"):
            status["step_title"] = TABLE_STEPS.get(table.stage, status.get("step_title", ""))
    return status


def seat_side(played: TableGame, seat: int, links: Links,
              names: Sequence[str]) -> dict[str, Any]:
    """One opponent's visible side, compactly: influence and tokens, hand size, the
    stronghold, holdings, wanderers; and whether he is knocked out."""
    table = played.table
    layout = table_layout(table.state, links, seat, seats.standing(table, seat), PLAYER)
    stronghold = next((s for s in layout["private"] if s["subtype"] == "stronghold"), None)
    out = table.out.get(seat)
    return {
        "seat": seat, "number": seat + 1, "name": names[seat] if seat < len(names) else "",
        "title": seat_name(seat, names), "lead": table.lead == seat,
        "winner": table.winner == seat,
        "out": {"round": out[0], "how": out[1]} if out else None,
        "influence": layout["influence"], "target": layout["target"],
        "personal": layout["personal"], "personal_total": layout["personal_total"],
        "hand": len(table.seat(seat).hand), "stronghold": stronghold,
        "private": layout["private"], "defensive": layout["defensive"],
        # Anything in the holdings row besides the stronghold (its own chip is above).
        "holdings": any(s["subtype"] != "stronghold" or s["residents"] or s["guards"]
                        for s in layout["private"]),
        "wanderers": layout["wanderers"],
        "piles": [{"key": p["key"], "count": p["count"], "discard_count": p["discard_count"]}
                  for p in layout["piles"]],
        "dead": len(layout["dead"]),
    }
