"""The fictional Demo set (fixtures/cards/demo.json) and the sample decklists.

Pure Python, no Django: the card file is checked against the card data contract and the
coverage the project needs from it, and each sample decklist is read with the small reader
below and checked against the deck construction rules (rulebook, "Deck Building Rules" and
"Initial Holdings"; docs/design.md §5 and §6).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO_JSON = ROOT / "fixtures" / "cards" / "demo.json"
DECKLIST_DIR = ROOT / "fixtures" / "decklists"

Card = dict[str, Any]

KEYS = (
    "id", "name", "set", "number", "rarity", "type", "subtype", "faction", "abilities",
    "quotation", "race", "gender", "profession", "offense", "defense", "cost_economic",
    "cost_religious", "cost_political", "faction_influence", "vitality", "strength_economic",
    "strength_religious", "strength_political", "unique", "aggression", "residencies",
    "cost_generic", "bounty", "artist", "image", "official", "sources",
)
NUMERIC_KEYS = (
    "offense", "defense", "cost_economic", "cost_religious", "cost_political",
    "faction_influence", "vitality", "strength_economic", "strength_religious",
    "strength_political", "aggression", "residencies", "cost_generic", "bounty",
)
RARITIES = {"common", "common_starter", "uncommon", "rare", "promo"}
FACTIONS = ("kalim", "mosfin", "guild")
SUBTYPES: dict[str, set[str | None]] = {
    "structure": {"general", "wall", "stronghold"},
    "personality": {"citizen", "troop"},
    "item": {"weapon", "armor", "shield", "other"},
    "invocation": {"general", "kalim"},
    "event": {"general", "battle", "interrupt"},
    "wanderer": {None},
}
INFLUENCE = ("economic", "religious", "political")
PRIMARY = {"kalim": "religious", "mosfin": "political", "guild": "economic"}

# The rulebook's "Common Abilities Defined", exactly as printed.
COMMON_ABILITIES = (
    "Armor", "Berserk", "Bribery", "Campaign", "Charge", "Climb", "Crusade", "Debate",
    "Defender", "Discredit", "Endurance", "Extort", "Fear", "Fervor", "Fierce", "Fleetfoot",
    "Flight", "Follower", "Giant Size", "Hoarding", "Influence", "Oppress", "Persuade", "Pray",
    "Protection", "Ranged", "Raze", "Retain", "Sap", "Support", "Tithe", "Worship",
)
# Income abilities and the strength that limits how much they collect.
INCOME = {"Campaign": "strength_political", "Worship": "strength_religious",
          "Oppress": "strength_religious"}

COSTS = {"cost_economic": (0, 5), "cost_religious": (0, 5), "cost_political": (0, 5)}
STRENGTHS = {"strength_economic": (0, 5), "strength_religious": (0, 5),
             "strength_political": (0, 5)}
# For each (type, subtype): the numeric fields that apply, with their allowed range.
# Every numeric field not listed must be null.
FIELD_RANGES: dict[tuple[str, str | None], dict[str, tuple[int, int]]] = {
    ("structure", "general"): {"cost_generic": (0, 8), "residencies": (0, 3)},
    ("structure", "wall"): {"cost_generic": (0, 8), "residencies": (1, 3), "defense": (2, 6),
                            "offense": (0, 2)},
    ("structure", "stronghold"): {"cost_generic": (0, 8), "residencies": (1, 3),
                                  "vitality": (6, 12), "defense": (2, 6), "offense": (0, 2)},
    ("personality", "citizen"): {"offense": (0, 0), "defense": (0, 0), **COSTS,
                                 "faction_influence": (1, 5), "vitality": (1, 4), **STRENGTHS},
    ("personality", "troop"): {"offense": (1, 6), "defense": (1, 6), **COSTS,
                               "faction_influence": (1, 5), "vitality": (1, 4), **STRENGTHS},
    **{("item", sub): {**COSTS, "offense": (0, 3), "defense": (0, 3)}
       for sub in ("weapon", "armor", "shield", "other")},
    **{("invocation", sub): {**COSTS, "strength_religious": (1, 5)}
       for sub in ("general", "kalim")},
    ("event", "general"): {**COSTS, "strength_economic": (0, 4)},
    ("event", "interrupt"): {**COSTS, "strength_economic": (0, 4)},
    ("event", "battle"): {**COSTS, "strength_economic": (1, 4)},
    ("wanderer", None): {"offense": (0, 8), "defense": (0, 6), "vitality": (1, 5),
                         "aggression": (1, 6), "bounty": (1, 5)},
}


# --------------------------------------------------------------------------- card file


@cache
def demo_file() -> dict[str, Any]:
    with DEMO_JSON.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def all_cards() -> list[Card]:
    cards: list[Card] = demo_file()["cards"]
    return cards


def cards_where(**conditions: Any) -> list[Card]:
    return [c for c in all_cards() if all(c[k] == v for k, v in conditions.items())]


def total_cost(card: Card) -> int:
    return sum(card[f"cost_{kind}"] for kind in INFLUENCE)


# --------------------------------------------------------------------------- abilities


@dataclass(frozen=True)
class Clause:
    text: str
    exhausts: bool
    threshold: int | None
    ability: str | None  # the common ability, or None for custom text


CLAUSE = re.compile(r"(?P<e>E )?(?:\(F\)(?P<f>[2-6]) )?(?P<body>[A-Z+\-][^.]*)\.")


def parse_abilities(text: str) -> list[Clause]:
    """Split an abilities string into clauses; raise ValueError on a malformed one."""
    if text == "":
        return []
    if text != " ".join(text.split()):
        raise ValueError(f"stray whitespace in {text!r}")
    folded = {name.casefold(): name for name in COMMON_ABILITIES}
    clauses = []
    for raw in text.split(". "):
        piece = raw if raw.endswith(".") else raw + "."
        match = CLAUSE.fullmatch(piece)
        if match is None:
            raise ValueError(f"malformed clause {piece!r} in {text!r}")
        body = match["body"]
        ability = body if body in COMMON_ABILITIES else None
        if ability is None and body.casefold() in folded:
            raise ValueError(f"{body!r} should be written {folded[body.casefold()]!r}")
        if match["f"] and ability is None:
            raise ValueError(f"faction threshold on custom text {piece!r}")
        clauses.append(Clause(piece, bool(match["e"]),
                              int(match["f"]) if match["f"] else None, ability))
    if " ".join(c.text for c in clauses) != text:
        raise ValueError(f"clauses do not rebuild {text!r}")
    return clauses


def common_abilities(card: Card) -> set[str]:
    return {c.ability for c in parse_abilities(card["abilities"]) if c.ability}


def has_custom_text(card: Card) -> bool:
    return any(c.ability is None for c in parse_abilities(card["abilities"]))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("E Worship. (F)3 Campaign. Ranged.",
         [(True, None, "Worship"), (False, 3, "Campaign"), (False, None, "Ranged")]),
        ("E (F)2 Oppress.", [(True, 2, "Oppress")]),
        ("Giant Size. E Pay 2 economic tokens: this troop gains +2 defense.",
         [(False, None, "Giant Size"), (True, None, None)]),
    ],
)
def test_the_ability_reader_splits_common_abilities_from_custom_text(text, expected):
    assert [(c.exhausts, c.threshold, c.ability) for c in parse_abilities(text)] == expected


@pytest.mark.parametrize(
    "text", ["Worship", "E  Worship.", "(F)7 Campaign.", "(F)3 Dance.", "Giant size.", "Ranged. "]
)
def test_the_ability_reader_rejects_malformed_text(text):
    with pytest.raises(ValueError):
        parse_abilities(text)


# --------------------------------------------------------------------------- file shape


def test_the_file_declares_the_unofficial_demo_set():
    assert demo_file()["set"] == {"code": "DEMO", "name": "Demo Set (fictional)",
                                  "official": False, "released": None,
                                  "size": len(demo_file()["cards"])}
    assert set(demo_file()) == {"set", "cards"}


def test_every_card_has_exactly_the_contract_keys():
    wrong = [c.get("id") for c in all_cards() if set(c) != set(KEYS)]
    assert wrong == []


def test_ids_are_unique_demo_slugs():
    ids = [c["id"] for c in all_cards()]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"demo-[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids)


def test_collector_numbers_run_from_001_in_order():
    assert [c["number"] for c in all_cards()] == [
        f"{n:03d}" for n in range(1, len(all_cards()) + 1)
    ]


def test_every_card_is_a_fictional_demo_card_with_an_invented_artist_and_no_image():
    for card in all_cards():
        assert card["set"] == "DEMO", card["id"]
        assert card["official"] is False, card["id"]
        assert card["image"] is None, card["id"]
        assert card["sources"] == ["Demo set: fictional card written for this project"]
        assert card["artist"].startswith("Demo Artist "), card["id"]
        assert isinstance(card["quotation"], str) and card["quotation"].strip(), card["id"]
        assert isinstance(card["unique"], bool), card["id"]


def test_enumerated_fields_hold_allowed_values():
    for card in all_cards():
        assert card["rarity"] in RARITIES, card["id"]
        assert card["type"] in SUBTYPES, card["id"]
        assert card["subtype"] in SUBTYPES[card["type"]], card["id"]
        assert card["faction"] in (*FACTIONS, None), card["id"]


def test_personalities_belong_to_a_faction_and_wanderers_to_none():
    assert all(c["faction"] for c in cards_where(type="personality"))
    assert not any(c["faction"] for c in cards_where(type="wanderer"))


@pytest.mark.parametrize("kind", sorted(FIELD_RANGES, key=str), ids=lambda k: f"{k[0]}-{k[1]}")
def test_numeric_fields_apply_by_card_kind_and_stay_in_range(kind):
    card_type, subtype = kind
    ranges = FIELD_RANGES[kind]
    cards = cards_where(type=card_type, subtype=subtype)
    assert cards, f"no {card_type}/{subtype} cards"
    for card in cards:
        for key in NUMERIC_KEYS:
            value = card[key]
            if key in ranges:
                low, high = ranges[key]
                assert type(value) is int and low <= value <= high, (card["id"], key, value)
            else:
                assert value is None, (card["id"], key, value)


def test_people_and_wanderers_have_race_and_gender_and_other_cards_do_not():
    for card in all_cards():
        described = card["type"] in ("personality", "wanderer")
        for key in ("race", "gender"):
            assert isinstance(card[key], str) is described, (card["id"], key)
        if card["type"] == "personality":
            assert isinstance(card["profession"], str), card["id"]
        elif card["type"] != "wanderer":
            assert card["profession"] is None, card["id"]


def test_names_are_unique_but_for_one_name_shared_across_factions():
    counts = Counter(c["name"] for c in all_cards())
    shared = [name for name, n in counts.items() if n > 1]
    assert len(shared) <= 1
    for name in shared:
        factions = [c["faction"] for c in cards_where(name=name)]
        assert counts[name] == 2 and None not in factions and len(set(factions)) == 2


# --------------------------------------------------------------------------- abilities


def test_every_ability_text_follows_the_clause_convention():
    for card in all_cards():
        parse_abilities(card["abilities"])


@pytest.mark.parametrize("ability", COMMON_ABILITIES)
def test_every_common_ability_appears_on_at_least_two_cards(ability):
    assert len([c for c in all_cards() if ability in common_abilities(c)]) >= 2


def test_custom_text_stays_on_about_a_third_of_the_cards():
    custom = [c for c in all_cards() if has_custom_text(c)]
    assert len(custom) <= 0.36 * len(all_cards())


def test_events_invocations_and_most_items_describe_their_effect():
    assert all(c["abilities"] for c in all_cards() if c["type"] in ("event", "invocation"))
    items = cards_where(type="item")
    assert all(c["abilities"] for c in items)
    spells = [c for c in all_cards() if c["type"] in ("event", "invocation", "item")]
    assert sum(has_custom_text(c) for c in spells) > len(spells) / 2


def test_income_abilities_are_backed_by_the_strength_they_collect_with():
    for card in all_cards():
        for ability in common_abilities(card) & INCOME.keys():
            assert (card[INCOME[ability]] or 0) >= 1, (card["id"], ability)


# --------------------------------------------------------------------------- coverage


def test_the_set_has_at_least_120_cards_of_every_type_and_subtype():
    assert len(all_cards()) >= 120
    present = {(c["type"], c["subtype"]) for c in all_cards()}
    assert present == {(t, s) for t, subs in SUBTYPES.items() for s in subs}


@pytest.mark.parametrize(
    ("what", "conditions", "at_least"),
    [
        ("strongholds", {"type": "structure", "subtype": "stronghold"}, 6),
        ("walls", {"type": "structure", "subtype": "wall"}, 3),
        ("wanderers", {"type": "wanderer"}, 16),
        ("zero-cost general structures", {"subtype": "general", "cost_generic": 0}, 3),
        ("unique structures", {"type": "structure", "unique": True}, 3),
        ("unique general structures", {"type": "structure", "subtype": "general",
                                       "unique": True}, 1),
        ("non-unique strongholds", {"subtype": "stronghold", "unique": False}, 2),
        ("unique wanderers", {"type": "wanderer", "unique": True}, 1),
    ],
)
def test_the_set_has_enough_cards_of_each_kind(what, conditions, at_least):
    assert len(cards_where(**conditions)) >= at_least, what


@pytest.mark.parametrize("faction", FACTIONS)
def test_each_faction_has_a_dozen_personalities_of_every_kind(faction):
    people = cards_where(type="personality", faction=faction)
    assert len(people) >= 12
    kinds = {(c["subtype"], c["unique"]) for c in people}
    assert kinds == {("citizen", True), ("citizen", False), ("troop", True), ("troop", False)}


def test_wanderers_cover_every_aggression_and_carry_bounties():
    wanderers = cards_where(type="wanderer")
    assert {c["aggression"] for c in wanderers} == set(range(1, 7))
    assert all(c["bounty"] >= 1 for c in wanderers)


def test_citizens_have_no_combat_values_and_troops_do():
    assert all(c["offense"] == c["defense"] == 0 for c in cards_where(subtype="citizen"))
    assert all(c["offense"] > 0 and c["defense"] > 0 for c in cards_where(subtype="troop"))


# --------------------------------------------------------------------------- balance


def test_personality_faction_influence_is_about_half_the_total_cost():
    for card in cards_where(type="personality"):
        cost, influence = total_cost(card), card["faction_influence"]
        assert 2 <= cost <= 7, card["id"]
        if card["unique"]:
            assert cost / 2 - 0.5 <= influence <= cost / 2 + 1.5, card["id"]
        else:
            assert abs(influence - cost / 2) <= 1, card["id"]


@pytest.mark.parametrize("faction", FACTIONS)
def test_each_faction_leans_on_its_primary_influence(faction):
    people = cards_where(type="personality", faction=faction)
    primary = PRIMARY[faction]
    for prefix in ("cost", "strength"):
        totals = {kind: sum(c[f"{prefix}_{kind}"] for c in people) for kind in INFLUENCE}
        assert max(totals, key=totals.__getitem__) == primary, (prefix, totals)


@pytest.mark.parametrize("faction", FACTIONS)
def test_a_good_share_of_each_faction_collects_influence(faction):
    people = cards_where(type="personality", faction=faction)
    earners = [c for c in people if common_abilities(c) & INCOME.keys()]
    assert len(earners) >= len(people) / 3
    assert any(clause.exhausts for c in earners for clause in parse_abilities(c["abilities"]))


def test_some_structures_produce_influence():
    producers = [c for c in cards_where(type="structure")
                 if re.search(r"\bCollect \d", c["abilities"])]
    assert len(producers) >= 5


def test_structures_offer_more_residencies_than_there_are_citizens():
    residencies = sum(c["residencies"] for c in cards_where(type="structure")
                      if c["subtype"] != "wall")
    assert residencies >= 2 * len(cards_where(subtype="citizen"))


# --------------------------------------------------------------------------- decklists

SECTIONS = ("Initial Holdings", "Structure Pile", "Personality Pile", "Wanderer Pile")
PILE_TYPES = {
    "Initial Holdings": {"structure"},
    "Structure Pile": {"structure"},
    "Personality Pile": {"personality", "item", "invocation", "event"},
    "Wanderer Pile": {"wanderer"},
}
ENTRY = re.compile(r"(?P<count>[1-9]\d*) (?P<name>.+?)(?: \((?P<faction>kalim|mosfin|guild)\))?")


@dataclass
class Deck:
    name: str
    players: int
    description: str | None
    parts: dict[str, list[tuple[int, Card]]] = field(default_factory=dict)

    def cards(self, *sections: str) -> list[Card]:
        """Every copy, one list entry per copy, of the named parts (all parts by default)."""
        return [card for section in sections or SECTIONS
                for count, card in self.parts[section] for _ in range(count)]


def find_card(name: str, faction: str | None) -> Card:
    matches = cards_where(name=name)
    if len(matches) > 1:
        if faction is None:
            raise ValueError(f"{name!r} is shared: write it with its faction")
        matches = [c for c in matches if c["faction"] == faction]
    elif faction is not None:
        raise ValueError(f"{name!r} is not shared: write it without a faction")
    if len(matches) != 1:
        raise ValueError(f"unknown card {name!r} ({faction})")
    return matches[0]


def read_decklist(text: str) -> Deck:
    """Read the canonical plain-text decklist strictly (docs/design.md §5)."""
    lines = text.splitlines()
    heading = re.fullmatch(r"# (.+)", lines[0])
    players = re.fullmatch(r"# players: ([2-6])", lines[1])
    if heading is None or players is None:
        raise ValueError("a decklist starts with '# <name>' and '# players: <n>'")
    body = lines[2:]
    description = None
    if body and body[0].startswith("# "):
        description = body.pop(0)[2:]
    deck = Deck(heading[1], int(players[1]), description)
    section = None
    for number, line in enumerate(body, start=3 + (description is not None)):
        if line in SECTIONS:
            if SECTIONS.index(line) != len(deck.parts):
                raise ValueError(f"line {number}: section {line!r} out of order")
            section = line
            deck.parts[section] = []
            continue
        entry = ENTRY.fullmatch(line)
        if section is None or entry is None:
            raise ValueError(f"line {number}: expected '<count> <card name>', got {line!r}")
        card = find_card(entry["name"], entry["faction"])
        if any(card is seen for _, seen in deck.parts[section]):
            raise ValueError(f"line {number}: {line!r} repeats a card of {section}")
        deck.parts[section].append((int(entry["count"]), card))
    if tuple(deck.parts) != SECTIONS:
        raise ValueError(f"sections {list(deck.parts)} instead of {list(SECTIONS)}")
    return deck


def deck_problems(deck: Deck) -> list[str]:
    """Every construction problem of a deck (rulebook rules plus the sensibility checks)."""
    problems = []
    structures, personalities = deck.cards("Structure Pile"), deck.cards("Personality Pile")
    holdings, wanderers = deck.cards("Initial Holdings"), deck.cards("Wanderer Pile")
    everything = deck.cards()

    for size, pile, minimum in ((len(structures), "Structure Pile", 15),
                                (len(personalities), "Personality Pile", 15),
                                (len(wanderers), "Wanderer Pile", 3 * deck.players)):
        if size < minimum:
            problems.append(f"{pile} has {size} cards, fewer than {minimum}")
    for section in SECTIONS:
        for card in deck.cards(section):
            if card["type"] not in PILE_TYPES[section]:
                problems.append(f"{card['name']} ({card['type']}) cannot be in {section}")
    for card_id, copies in Counter(c["id"] for c in everything).items():
        if copies > 2:
            problems.append(f"{copies} copies of {card_id}")

    strongholds = [c for c in holdings if c["subtype"] == "stronghold"]
    others = [c for c in holdings if c["subtype"] != "stronghold"]
    if len(strongholds) != 1:
        problems.append(f"{len(strongholds)} strongholds in the Initial Holdings")
    if sum(c["cost_generic"] == 0 for c in others) > 2:
        problems.append("more than two zero-cost structures in the Initial Holdings")
    if any(c["unique"] for c in others):
        problems.append("a unique structure other than the stronghold in the Initial Holdings")
    if sum(c["subtype"] == "wall" for c in holdings) > 1:
        problems.append("more than one wall in the Initial Holdings")
    if sum(c["cost_generic"] or 0 for c in holdings) > 12:
        problems.append("the Initial Holdings cost more than the 12 starting tokens")
    if any(c["subtype"] == "stronghold" for c in structures):
        problems.append("a stronghold in the Structure Pile can never be played")

    people = [c for c in personalities if c["type"] == "personality"]
    for card in personalities:
        if card["type"] == "invocation":
            bearers = [p for p in people if p["strength_religious"] >= card["strength_religious"]
                       and (card["subtype"] != "kalim" or p["faction"] == "kalim")]
            if not bearers:
                problems.append(f"no personality can bear the invocation {card['name']}")
        if card["subtype"] == "battle" and not any(
            p["subtype"] == "troop" and p["strength_economic"] >= card["strength_economic"]
            for p in people
        ):
            problems.append(f"no troop can use the battle event {card['name']}")
        if card["type"] == "item" and not people:
            problems.append(f"no personality can carry {card['name']}")
    homes = sum(c["residencies"] for c in holdings + structures if c["subtype"] != "wall")
    citizens = sum(c["subtype"] == "citizen" for c in people)
    if citizens > homes:
        problems.append(f"{citizens} citizens but only {homes} residencies")
    factions = Counter(p["faction"] for p in people)
    if people and factions.most_common(1)[0][1] < 0.8 * len(people):
        problems.append(f"no faction holds 80% of the personalities: {dict(factions)}")
    return problems


DECK_FILES = sorted(DECKLIST_DIR.glob("*.txt"))


@cache
def sample_deck(path: Path) -> Deck:
    return read_decklist(path.read_text(encoding="utf-8"))


def test_there_are_two_sample_decks_per_faction():
    prefixes = Counter(path.stem.split("-")[0] for path in DECK_FILES)
    assert prefixes == dict.fromkeys(FACTIONS, 2)
    assert len({sample_deck(p).name for p in DECK_FILES}) == len(DECK_FILES)


@pytest.mark.parametrize("path", DECK_FILES, ids=lambda p: p.stem)
def test_each_sample_deck_is_legal_and_sensible_for_four_players(path):
    deck = sample_deck(path)
    assert deck.players == 4
    assert deck_problems(deck) == []


@pytest.mark.parametrize("path", DECK_FILES, ids=lambda p: p.stem)
def test_each_sample_deck_is_built_around_the_faction_in_its_file_name(path):
    faction = path.stem.split("-")[0]
    people = [c for c in sample_deck(path).cards("Personality Pile")
              if c["type"] == "personality"]
    assert Counter(c["faction"] for c in people).most_common(1)[0][0] == faction


@pytest.mark.parametrize("faction", FACTIONS)
def test_each_faction_has_a_citizen_economy_deck_and_a_troop_heavy_deck(faction):
    leanings = set()
    for path in DECK_FILES:
        if path.stem.startswith(f"{faction}-"):
            kinds = Counter(c["subtype"] for c in sample_deck(path).cards("Personality Pile"))
            leanings.add("economy" if kinds["citizen"] > kinds["troop"] else "combat")
    assert leanings == {"economy", "combat"}


def test_the_sample_decks_use_the_shared_name_with_its_faction():
    shared = [n for n, k in Counter(c["name"] for c in all_cards()).items() if k > 1]
    text = "\n".join(p.read_text(encoding="utf-8") for p in DECK_FILES)
    for name in shared:
        assert re.search(rf"^\d+ {re.escape(name)} \((kalim|mosfin|guild)\)$", text, re.M)


# A minimal legal deck, and edits that each break exactly one rule: the checker must see them.
MINIMAL_DECK = """\
# Minimal
# players: 4
Initial Holdings
1 Hillside Redoubt
1 Ragpicker's Hovel
Structure Pile
2 Riverside Tenement
2 Lantern Row Houses
2 Cobbler's Lane
2 Almshouse of the Ember
2 Pilgrims' Hostel
2 Noble Townhouses
2 Walled Manor
1 The Drowned Lantern Inn
Personality Pile
2 Acolyte of the Ember Rite
2 Lamplighter Deacon
2 Ember Templar
2 Cathedral Warden
2 Pilgrim Archer
2 Ashgate Spearman (kalim)
2 Flamebrand Zealot
1 Shield Wall
Wanderer Pile
2 Sewer Rat Swarm
2 Goblin Slinger
2 Goblin Skulkers
2 Marsh Gloomhound
2 Tomb Ghoul
2 Rabid Boar
"""


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("1 The Drowned Lantern Inn\n", "", "Structure Pile has 14 cards"),
        ("1 Shield Wall\n", "", "Personality Pile has 14 cards"),
        ("2 Rabid Boar\n", "1 Rabid Boar\n", "Wanderer Pile has 11 cards"),
        ("2 Riverside Tenement\n", "3 Riverside Tenement\n",
         "3 copies of demo-riverside-tenement"),
        ("1 Hillside Redoubt\n", "1 Hillside Redoubt\n1 Old Toll Castle\n", "2 strongholds"),
        ("1 Hillside Redoubt\n", "", "0 strongholds"),
        ("1 Ragpicker's Hovel\n",
         "1 Ragpicker's Hovel\n1 Empty Market Stall\n1 Beggars' Arch\n", "zero-cost"),
        ("1 Ragpicker's Hovel\n", "1 Senate Rotunda\n", "a unique structure"),
        ("1 Ragpicker's Hovel\n", "1 Timber Palisade\n1 Fieldstone Wall\n", "one wall"),
        ("1 Hillside Redoubt\n", "1 Old Toll Castle\n1 Hall of Whispers\n1 Toll Shack\n",
         "12 starting tokens"),
        ("1 The Drowned Lantern Inn\n", "1 Villa Delmont\n", "stronghold in the Structure"),
        ("1 Shield Wall\n", "1 Stoneback Troll\n", "cannot be in Personality Pile"),
        ("1 Shield Wall\n", "1 Holy Immolation\n", "invocation Holy Immolation"),
        ("1 Shield Wall\n", "1 Rally the Veterans\n", "battle event Rally the Veterans"),
        ("2 Flamebrand Zealot\n", "2 House Duelist\n2 Sellsword\n", "80%"),
    ],
)
def test_the_deck_checker_reports_each_broken_rule(old, new, problem):
    assert deck_problems(read_decklist(MINIMAL_DECK)) == []
    assert MINIMAL_DECK.count(old) == 1
    problems = deck_problems(read_decklist(MINIMAL_DECK.replace(old, new)))
    assert len(problems) == 1 and problem in problems[0], problems


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("2 Ashgate Spearman (kalim)\n", "2 Ashgate Spearman\n"),
        ("2 Ember Templar\n", "2 Ember Templar (kalim)\n"),
        ("2 Ember Templar\n", "2 Ember Templars\n"),
        ("2 Ember Templar\n", "two Ember Templar\n"),
        ("Wanderer Pile\n", "Wanderers\n"),
        ("# players: 4\n", ""),
        ("Structure Pile\n", "Personality Pile\n2 Ember Templar\nStructure Pile\n"),
    ],
)
def test_the_decklist_reader_rejects_malformed_lines(old, new):
    with pytest.raises(ValueError):
        read_decklist(MINIMAL_DECK.replace(old, new))
