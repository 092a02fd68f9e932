"""The custom ability texts the engine understands, as a table of sentence patterns.

Pure Python. Cards print their own rules in plain English. The engine reads the sentences that
follow the patterns below (written for the Demo set's wording, and general enough for similar
cards) into an :class:`Effect`; a sentence matching none is *unmodelled*: the card is still
played for its numbers, and reports list the text that was ignored (see rules/COVERAGE.md).

Patterns are matched against one clause with its leading ``E``/``(F)n`` markers removed, ignoring
case. Numbers may be digits or the words one to five.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rules.game.vocabulary import KIND_INDEX

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_NUM = r"(\d+|one|two|three|four|five)"
_KIND = r"(economic|religious|political)"


@dataclass(frozen=True, slots=True)
class Effect:
    """What a clause does. ``kind`` names the behaviour; the other fields are its numbers.

    ``static`` effects are always on (guard bonuses, item riders); the others are used as an
    action (an ability, an invocation, an event) and may cost ``pay`` tokens (economic,
    religious, political) when used.
    """

    kind: str
    gains: tuple[int, int, int] = (0, 0, 0)
    pay: tuple[int, int, int] = (0, 0, 0)
    amount: int = 0
    keyword: str = ""
    static: bool = False
    label: str = ""
    combat: bool = False  # used in the combat's modification step


def _n(text: str) -> int:
    return _WORDS.get(text.lower()) or int(text)


def _gains(text: str) -> tuple[int, int, int]:
    gains = [0, 0, 0]
    for number, kind in re.findall(rf"{_NUM} {_KIND}", text, re.IGNORECASE):
        gains[KIND_INDEX[kind.lower()]] += _n(number)
    return gains[0], gains[1], gains[2]


def _pay(match: re.Match[str]) -> tuple[int, int, int]:
    pay = [0, 0, 0]
    pay[KIND_INDEX[match["pkind"].lower()]] = _n(match["pay"])
    return pay[0], pay[1], pay[2]


_PAY = rf"pay (?P<pay>{_NUM}) (?P<pkind>{_KIND}) influence: "
_AMOUNT = rf"{_NUM} {_KIND}(?: influence)?"
_COLLECT = (rf"collect (?P<gains>{_AMOUNT}(?:(?:,| and|, and) {_AMOUNT})*) influence "
            r"from the city's influence pool")

type Builder = Callable[[re.Match[str]], Effect]

# (pattern, builder) in order; the first match wins.
_TABLE: list[tuple[re.Pattern[str], Builder]] = []


def _rule(pattern: str) -> Callable[[Builder], Builder]:
    compiled = re.compile(rf"^{pattern}\.?$", re.IGNORECASE)

    def register(build: Builder) -> Builder:
        _TABLE.append((compiled, build))
        return build

    return register


@_rule(_COLLECT)
def _collect(m: re.Match[str]) -> Effect:
    return Effect("collect", gains=_gains(m["gains"]), label="collect")


@_rule(_PAY + _COLLECT)
def _pay_collect(m: re.Match[str]) -> Effect:
    return Effect("collect", gains=_gains(m["gains"]), pay=_pay(m), label="collect")


@_rule(_PAY + r"bearer gains (?P<kw>fleetfoot|flight|ranged|armor|endurance) "
       r"until the end of the combat")
def _pay_keyword(m: re.Match[str]) -> Effect:
    return Effect("grant", pay=_pay(m), keyword=m["kw"].lower(), combat=True, label="grant")


@_rule(_PAY + rf"bearer gains \+(?P<n>{_NUM}) defense until the end of the combat")
def _pay_defense(m: re.Match[str]) -> Effect:
    return Effect("self_defense", pay=_pay(m), amount=_n(m["n"]), combat=True)


@_rule(_PAY + rf"target troop gains \+(?P<n>{_NUM}) offense until the end of the combat")
def _pay_target_offense(m: re.Match[str]) -> Effect:
    return Effect("troop_offense", pay=_pay(m), amount=_n(m["n"]), combat=True)


@_rule(_PAY + r"target wanderer takes one wound")
def _pay_wound_wanderer(m: re.Match[str]) -> Effect:
    return Effect("wound_wanderer", pay=_pay(m), amount=1)


@_rule(_PAY + r"exhaust target personality")
def _pay_exhaust_personality(m: re.Match[str]) -> Effect:
    return Effect("no_solo_effect")


@_rule(rf"troops guarding this structure gain \+(?P<n>{_NUM}) (?P<stat>offense|defense)")
def _guard_bonus(m: re.Match[str]) -> Effect:
    return Effect(f"guard_{m['stat'].lower()}", amount=_n(m["n"]), static=True)


@_rule(rf"bearer gains \+(?P<n>{_NUM}) (?:additional )?offense against wanderers")
def _offense_vs_wanderers(m: re.Match[str]) -> Effect:
    return Effect("offense_vs_wanderers", amount=_n(m["n"]), static=True)


@_rule(r"bearer may ignore the first wound from a wanderer each round")
def _ignore_first_wound(m: re.Match[str]) -> Effect:
    return Effect("ignore_wanderer_wound", static=True)


@_rule(r"bearer cannot use fleetfoot while using this shield")
def _no_fleetfoot(m: re.Match[str]) -> Effect:
    return Effect("no_fleetfoot", static=True)


@_rule(rf"troops defending against this wanderer get -(?P<n>{_NUM}) defense")
def _defense_malus(m: re.Match[str]) -> Effect:
    return Effect("defense_malus", amount=_n(m["n"]), static=True)


@_rule(rf"draw (?P<n>{_NUM}) cards? from your (?P<pile>personality|structure) draw pile")
def _draw_cards(m: re.Match[str]) -> Effect:
    pile = "personalities" if m["pile"].lower() == "personality" else "structures"
    return Effect("draw", amount=_n(m["n"]), keyword=pile)


@_rule(r"search your structure draw pile for a structure with residencies and put it in your hand")
def _search_residence(m: re.Match[str]) -> Effect:
    return Effect("search_residence")


@_rule(rf"target wanderer gains \+(?P<n>{_NUM}) bounty until the end of the round")
def _bounty_bonus(m: re.Match[str]) -> Effect:
    return Effect("bounty_bonus", amount=_n(m["n"]))


@_rule(r"target structure other than a stronghold takes one wound")
def _wound_structure(m: re.Match[str]) -> Effect:
    return Effect("wound_structure")


@_rule(r"each player exhausts one of his citizens")
def _exhaust_citizen(m: re.Match[str]) -> Effect:
    return Effect("exhaust_citizens")


@_rule(rf"each of your troops in this combat gains \+(?P<n>{_NUM}) defense")
def _all_defense(m: re.Match[str]) -> Effect:
    return Effect("all_defense", amount=_n(m["n"]), combat=True)


@_rule(rf"target troop of yours gains \+(?P<n>{_NUM}) offense until the end of the combat")
def _own_troop_offense(m: re.Match[str]) -> Effect:
    return Effect("troop_offense", amount=_n(m["n"]), combat=True)


@_rule(rf"target troop of yours with ranged gains \+(?P<n>{_NUM}) offense "
       r"until the end of the combat")
def _ranged_troop_offense(m: re.Match[str]) -> Effect:
    return Effect("troop_offense", amount=_n(m["n"]), keyword="ranged", combat=True)


@_rule(r"your troops in this combat do not become exhausted for taking a wound")
def _hold_the_line(m: re.Match[str]) -> Effect:
    return Effect("no_wound_exhaustion", combat=True)


@_rule(r"remove one wound counter from each of your troops in this combat")
def _rally(m: re.Match[str]) -> Effect:
    return Effect("heal_troops", amount=1, combat=True)


@_rule(r"cancel target (?:general |battle )?event just played; its costs are still paid")
def _cancel_event(m: re.Match[str]) -> Effect:
    return Effect("no_solo_effect")


_MARKERS = re.compile(r"^(?:E\s+)?(?:\([fF]\)\s*\d+\s*)?(?:E\s+)?")


def strip_markers(clause: str) -> str:
    """The clause without its leading "E" and "(F)n" markers, whitespace runs made one."""
    return _MARKERS.sub("", " ".join(clause.split()))


def read_effect(clause: str) -> Effect | None:
    """The effect of one custom clause, or None when the engine does not model its text."""
    text = strip_markers(clause)
    for pattern, build in _TABLE:
        match = pattern.match(text)
        if match:
            return build(match)
    return None
