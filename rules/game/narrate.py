"""A recorded game told round by round, in sentences a player reads like a game report.

Pure Python: :func:`narrate` turns the events of a recorded game into lines of text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.game.actions import Action, describe
from rules.game.state import GameState
from rules.game.vocabulary import TOKEN_KINDS

PHASES = {"maintenance": "City Maintenance", "action": "Action and Development",
          "military": "Military", "wanderer": "Wanderer", "discard": "Discard"}


def tokens_text(tokens: list[int]) -> str:
    parts = [f"{n} {TOKEN_KINDS[k]}" for k, n in enumerate(tokens) if n]
    return ", ".join(parts) if parts else "nothing"


def counted(count: int, noun: str) -> str:
    """"1 wound", "2 wounds"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


# Where a card goes, as a sentence names it (the zones' own names otherwise, "_" as spaces).
_PLACES = {"dead": "dead pile"}


def narrate(state: GameState, events: Sequence[dict[str, Any]] | None = None) -> list[str]:
    """The lines of the game's story (the state must have been recorded), or of ``events``,
    some of its events (one move's)."""
    if events is None:
        events = state.events
    if events is None:
        raise ValueError("this game was not recorded")
    name: Callable[[int], str] = lambda i: state.card(i).name if i >= 0 else "a wanderer"  # noqa: E731
    lines: list[str] = []
    phase = ""
    for event in events:
        kind = event["type"]
        if kind == "round":
            lines.append("")
            lines.append(f"== Round {event['round']} ==")
            phase = ""
            continue
        if event["phase"] != phase and event["phase"] in PHASES:
            phase = event["phase"]
            lines.append(f"-- {PHASES[phase]} Phase")
        text = sentence(state, event, name)
        if text:
            lines.append(("   " if kind != "action" else " > ") + text)
    return lines


def sentence(state: GameState, e: dict[str, Any], name: Callable[[int], str]) -> str:
    """One event in words ("" for the events a reader does not need)."""
    kind = e["type"]
    if kind == "setup":
        return (f"Setup: seed {e['seed']}, target {e['target']} influence; personal pool "
                f"{tokens_text(e['personal'])}; the city's pool {tokens_text(e['city'])}.")
    if kind == "holding":
        return f"Initial Holdings: {name(e['card'])}."
    if kind == "shuffle":
        return f"The {e['pile'].replace('_', ' ')} is shuffled ({len(e['order'])} cards)."
    if kind == "action":
        return describe(state, Action.from_dict(e["action"])) + "."
    simple: dict[str, Callable[[], str]] = {
        "victory_check": lambda: f"Victory check: {e['influence']} influence of "
                                 f"{e['target']} needed.",
        "unexhaust": lambda: f"Un-exhaust {len(e['cards'])} cards.",
        "draw": lambda: f"Drew {name(e['card'])}.",
        "play": lambda: f"{name(e['card'])} comes into play; personal pool now "
                        f"{tokens_text(e['personal']) if any(e['personal']) else 'empty'}.",
        "collect": lambda: f"{name(e['card'])} collects {tokens_text(e['tokens'])} from the "
                           "city's pool.",
        "aggression_roll": lambda: f"{name(e['card'])} rolls {e['roll']} against aggression "
                                   f"{e['rating']}: "
                                   + ("aggressive!" if e["aggressive"] else "stays calm."),
        "wanderers_attack": lambda: "The wanderers attack: "
                                    + ", ".join(name(c) for c in e["cards"]) + ".",
        "die": lambda: f"Die for {name(e['lead'])}'s attack on {name(e['target'])}: "
                       f"{e['roll']} ({e['effect']}).",
        "attack": lambda: f"[{e['step']} attacks] " + (
                          " + ".join(name(a) for a in e["attackers"])
                          + f" cannot hit {name(e['target'])}, a ranged flyer."
                          ) if e.get("out_of_reach") else f"[{e['step']} attacks] "
                          + " + ".join(name(a) for a in e["attackers"])
                          + (" attack " if len(e["attackers"]) > 1 else " attacks ")
                          + f"{name(e['target'])}: offense {e['offense']} against "
                            f"defense {e['defense']}: "
                          + (f"{counted(e['wounds'], 'wound')}." if e["wounds"] else
                             "no wound (offense must be greater than defense)."),
        "wound": lambda: f"{name(e['card'])} has {counted(e['wounds'], 'wound')}.",
        "leaves_play": lambda: f"{name(e['card'])} goes to the "
                               f"{_PLACES.get(e['to'], e['to'].replace('_', ' '))} "
                               f"({e['reason'].replace('_', ' ')}).",
        "bounty": lambda: f"Bounty for {name(e['card'])}: {counted(e['due'], 'token')} of any "
                          "kinds "
                          "from the city's pool"
                          + (f", and {tokens_text(e['tokens'])} lying on it." if any(e["tokens"])
                             else "."),
        "bounty_short": lambda: f"The city's pool is empty: "
                                f"{counted(e['count'], 'bounty token')} cannot be taken.",
        "fine_token": lambda: f"Fine paid: 1 {TOKEN_KINDS[e['kind']]} token to the city.",
        "fines_waived": lambda: f"{counted(e['count'], 'fine')} cannot be paid.",
        "new_wanderer": lambda: f"A new wanderer arrives: {name(e['card'])}.",
        "recycle": lambda: f"The {e['pile']} discard pile is recycled"
                           + (" for free." if e["free"] else " for 5 tokens."),
        "overrun": lambda: f"{e['wanderers']} wanderers in play: the city is overrun.",
        "stronghold_destroyed": lambda: f"{name(e['card'])} is destroyed.",
        "game_over": lambda: f"Game over in round {e['round']}: {e['outcome'].upper()}.",
        "hoard": lambda: f"{name(e['card'])} hoards 1 {TOKEN_KINDS[e['kind']]} token.",
        "followers_join": lambda: "Followers join: " + ", ".join(name(c) for c in e["cards"]),
        "wall_moves": lambda: f"{name(e['card'])} blocks {counted(e['blocks'], 'attacker')}.",
        "strikes_back": lambda: f"{name(e['card'])} strikes back at {name(e['target'])}.",
        "climbs": lambda: f"{name(e['card'])} climbs past the wall.",
        "wound_ignored": lambda: f"{name(e['card'])} ignores the wound.",
        "bribe": lambda: f"{name(e['card'])} is bribed with {tokens_text(e['tokens'])}.",
        "fear": lambda: f"{name(e['target'])} is afraid (-3 offense).",
        "rehoused": lambda: f"{name(e['card'])} moves to {name(e['structure'])}.",
        "homeless": lambda: f"{name(e['card'])} has lost his residence and none is open.",
    }
    maker = simple.get(kind)
    return maker() if maker else ""
