"""Search queries against the loaded catalogue (cards/search/compile.py).

Every query's result is compared with an oracle written here, independently, over the fixture
files (fixtures/cards/wof.json and demo.json): a few lambdas per query. A null (untranscribed)
value never satisfies a comparison, and a negated term is the exact complement.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.api.search_cache import SELECT_IDS, ordering_sql
from cards.models import Card, CardImage
from cards.search.compile import compile_query, filter_cards, where_sql
from cards.search.fields import FIELDS
from cards.search.parser import check_regex, parse
from cards.services import card_sync_keywords
from rules import card_anatomy
from rules.abilities import parse_abilities

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = [ROOT / "fixtures" / "cards" / "wof.json", ROOT / "fixtures" / "cards" / "demo.json"]

type Data = dict[str, Any]
type Predicate = Callable[[Data], bool]


@cache
def catalogue() -> tuple[Data, ...]:
    """Every card of the fixtures, with the facts the database derives on import."""
    cards: list[Data] = []
    for path in CATALOGUES:
        document = json.loads(path.read_text(encoding="utf-8"))
        for card in document["cards"]:
            clauses = parse_abilities(card["abilities"])
            cards.append({
                **card,
                "keywords": {c.ability.slug for c in clauses if c.ability},
                "exhausting": any(c.exhausts for c in clauses),
                "reaction": any(c.ability and c.ability.reaction for c in clauses)
                or "(reaction)" in (card["abilities"] or "").lower(),
                "unknown": bool(card_anatomy.unknown_fields(card)),
                "cost": card_anatomy.total_cost(card),
            })
    return tuple(cards)


def ids_where(predicate: Predicate) -> set[str]:
    return {c["id"] for c in catalogue() if predicate(c)}


WRITTEN: set[str] = set()  # the queries where_sql wrote


def search(query: str) -> list[str]:
    """The cards compile_query's filter finds, in order; where_sql, when it writes the query,
    must find the same ones in the same order (the card list runs its SQL)."""
    parsed = parse(query)
    found = list(filter_cards(parsed).values_list("id", flat=True))
    where = where_sql(parsed)
    if where is not None:
        sql, params = where
        order, order_params = ordering_sql(parsed.order)
        with connection.cursor() as cursor:
            cursor.execute(f"{SELECT_IDS}{' WHERE ' + sql if sql else ''} ORDER BY {order}",
                           [*params, *order_params])
            assert [card_id for (card_id,) in cursor.fetchall()] == found, (query, sql)
        WRITTEN.add(query)
    return found


# Small helpers for the oracle: None never satisfies anything.
def contains(value: str | None, needle: str) -> bool:
    return value is not None and needle.casefold() in value.casefold()


def at_least(value: int | None, n: int) -> bool:
    return value is not None and value >= n


def at_most(value: int | None, n: int) -> bool:
    return value is not None and value <= n


def matches(value: str | None, pattern: str) -> bool:
    return value is not None and re.search(pattern, value, re.IGNORECASE | re.DOTALL) is not None


def troop(c: Data) -> bool:
    derived = c["type"] == "personality" and c["subtype"] is None and (
        at_least(c["offense"], 1) and at_least(c["defense"], 1))
    return c["subtype"] == "troop" or derived


def citizen(c: Data) -> bool:
    derived = c["type"] == "personality" and c["subtype"] is None and (
        c["offense"] == 0 and c["defense"] == 0)
    return c["subtype"] == "citizen" or derived


ORACLE: list[tuple[str, Predicate]] = [
    ("t:troop f:kalim off>=2", lambda c: troop(c) and c["faction"] == "kalim"
     and at_least(c["offense"], 2)),
    ("o:/exhaust(s)? target/", lambda c: matches(c["abilities"], r"exhaust(s)? target")),
    ("-off>=3", lambda c: not at_least(c["offense"], 3)),
    ("off<3", lambda c: c["offense"] is not None and c["offense"] < 3),
    ("is:unknown", lambda c: c["unknown"]),
    ("is:complete", lambda c: not c["unknown"]),
    ("kw:fleetfoot or kw:ranged", lambda c: bool({"fleetfoot", "ranged"} & c["keywords"])),
    ("kw:\"giant size\"", lambda c: "giant-size" in c["keywords"]),
    ("kw:giant-size -kw:armor", lambda c: "giant-size" in c["keywords"]
     and "armor" not in c["keywords"]),
    ("cost<=4 -t:structure", lambda c: at_most(c["cost"], 4) and c["type"] != "structure"),
    ("f:none t:structure", lambda c: c["faction"] is None and c["type"] == "structure"),
    ("-f:none", lambda c: c["faction"] is not None),
    ("f:glory or f:\"house mosfin\"", lambda c: c["faction"] in ("kalim", "mosfin")),
    ("f!=kalim", lambda c: c["faction"] is not None and c["faction"] != "kalim"),
    ('"ashgate spearman"', lambda c: contains(c["name"], "ashgate spearman")),
    ('!"Ashgate Spearman"', lambda c: c["name"].lower() == "ashgate spearman"),
    ("!bowman", lambda c: c["name"].lower() == "bowman"),
    ("ashgate -spearman", lambda c: contains(c["name"], "ashgate")
     and not contains(c["name"], "spearman")),
    ("set:wof is:unknown", lambda c: c["set"] == "WOF" and c["unknown"]),
    ("set!=demo", lambda c: c["set"] != "DEMO"),
    ("e:DEMO t:wanderer agg>=4", lambda c: c["set"] == "DEMO" and c["type"] == "wanderer"
     and at_least(c["aggression"], 4)),
    ("has:offense", lambda c: c["offense"] is not None),
    ("-has:race t:personality", lambda c: c["race"] is None and c["type"] == "personality"),
    ("has:faction", lambda c: c["faction"] is not None),
    ("t:citizen", citizen),
    ("is:troop", troop),
    ("st:troop", lambda c: c["subtype"] == "troop"),
    ("t:general", lambda c: c["subtype"] == "general"),
    ("t:pers", lambda c: c["type"] == "personality"),
    ("t!=personality", lambda c: c["type"] is not None and c["type"] != "personality"),
    ("-t:personality", lambda c: c["type"] != "personality"),
    ("-f:kalim t:personality cost<=3", lambda c: c["faction"] != "kalim"
     and c["type"] == "personality" and at_most(c["cost"], 3)),
    ("r:cs", lambda c: c["rarity"] == "common_starter"),
    ("r!=rare", lambda c: c["rarity"] is not None and c["rarity"] != "rare"),
    ("is:unique", lambda c: c["unique"] is True),
    ("-is:unique", lambda c: c["unique"] is not True),
    ("is:exhausting", lambda c: c["exhausting"]),
    ("is:reaction", lambda c: c["reaction"]),
    ("is:official", lambda c: c["official"]),
    ("is:demo", lambda c: not c["official"]),
    ("off>def", lambda c: c["offense"] is not None and c["defense"] is not None
     and c["offense"] > c["defense"]),
    ("off!=def", lambda c: c["offense"] is not None and c["defense"] is not None
     and c["offense"] != c["defense"]),
    ("-off!=def", lambda c: not (c["offense"] is not None and c["defense"] is not None
                                 and c["offense"] != c["defense"])),
    ("off!=0", lambda c: c["offense"] is not None and c["offense"] != 0),
    ("-(off>=2 or def>=2)", lambda c: not (at_least(c["offense"], 2)
                                           or at_least(c["defense"], 2))),
    ("-(-off>=3)", lambda c: at_least(c["offense"], 3)),
    ("--t:troop", troop),
    ("o:worship", lambda c: contains(c["abilities"], "worship")),
    ("-o:worship", lambda c: not contains(c["abilities"], "worship")),
    ('o=""', lambda c: c["abilities"] == ""),
    ("o:/^E /", lambda c: matches(c["abilities"], "^E ")),
    ("race=human", lambda c: (c["race"] or "").lower() == "human"),
    ("race!=human", lambda c: c["race"] is not None and c["race"].lower() != "human"),
    ("-race=human", lambda c: (c["race"] or "").lower() != "human"),
    ("a:varga", lambda c: contains(c["artist"], "varga")),
    ("ft:siege", lambda c: contains(c["quotation"], "siege")),
    ("cn:04", lambda c: contains(c["number"], "04")),
    ("prof:/^k/", lambda c: matches(c["profession"], "^k")),
    ("name=/ash.*/", lambda c: re.fullmatch("ash.*", c["name"], re.I) is not None),
    ("n:/gate (spear|bar)/", lambda c: matches(c["name"], "gate (spear|bar)")),
    ("gender:female", lambda c: contains(c["gender"], "female")),
    ("vit>=10 or agg>=4", lambda c: at_least(c["vitality"], 10)
     or at_least(c["aggression"], 4)),
    ("econ>=2 relig>=2", lambda c: at_least(c["strength_economic"], 2)
     and at_least(c["strength_religious"], 2)),
    ("polit:0", lambda c: c["strength_political"] == 0),
    ("gcost>=5", lambda c: at_least(c["cost_generic"], 5)),
    ("ecost=0 rcost=0 pcost>0", lambda c: c["cost_economic"] == 0 and c["cost_religious"] == 0
     and at_least(c["cost_political"], 1)),
    ("fi>=3 t:personality", lambda c: at_least(c["faction_influence"], 3)
     and c["type"] == "personality"),
    ("res>=3 or bounty>=3", lambda c: at_least(c["residencies"], 3)
     or at_least(c["bounty"], 3)),
    ("-(t:troop f:kalim)", lambda c: not (troop(c) and c["faction"] == "kalim")),
    ("has:image", lambda c: False),
    ("-has:scan", lambda c: True),
    ("", lambda c: True),
    ("order:cost", lambda c: True),
]


def test_the_database_holds_exactly_the_fixture_catalogue() -> None:
    assert set(Card.objects.values_list("id", flat=True)) == {c["id"] for c in catalogue()}


@pytest.mark.parametrize(("query", "predicate"), ORACLE, ids=[q or "empty" for q, _ in ORACLE])
def test_a_query_finds_exactly_the_cards_the_oracle_finds(
    query: str, predicate: Predicate
) -> None:
    found = search(query)
    assert len(found) == len(set(found)), "a card came back twice"
    assert set(found) == ids_where(predicate)


TERMS = [q for q, _ in ORACLE[:40] if q and "order:" not in q]


@pytest.mark.parametrize("query", TERMS)
def test_a_negated_query_is_the_exact_complement(query: str) -> None:
    everything = set(Card.objects.values_list("id", flat=True))
    found, negated = set(search(query)), set(search(f"-({query})"))
    assert not found & negated
    assert found | negated == everything


@pytest.mark.parametrize(("query", "written"), [
    ("t:troop f:kalim off>=2", True), ("-(off>=2 or def>=2)", True), ("off!=def", True),
    ("race!=human", True), ("ashgate -spearman", True), ('!"Ashgate Spearman"', True),
    ("kw:giant-size -kw:armor", True), ("-has:race t:personality", True), ("is:unique", True),
    ("f:none t:structure", True), ("", True), ("is:demo r!=rare", True),
    ("set:wof", False), ("o:/^E /", False), ("is:exhausting", False), ("is:reaction", False),
    ("is:unknown", False), ("has:image", False), ("t:troop -set:demo", False),
])
def test_plain_comparisons_are_written_without_django_lookups(query: str, written: bool) -> None:
    assert (where_sql(parse(query)) is not None) is written


def test_a_negation_of_written_sql_keeps_the_unknowns() -> None:
    sql, params = where_sql(parse("-off>=3")) or ("", [])
    assert sql == 'NOT (("cards_card"."offense" >= %s AND "cards_card"."offense" IS NOT NULL))'
    assert params == [3]
    assert "tst" not in search("off>=3")
    make_card("tst-unknown", type="personality")
    assert "tst-unknown" in search("-off>=3") and "tst-unknown" not in search("off<3")


def test_queries_that_find_cards_do_find_some() -> None:
    # Guards the oracle table: most queries must find something for the test to mean much.
    empty = [q for q, p in ORACLE if not ids_where(p)]
    assert empty == ["has:image"]


def sort_key_nulls_last(value: Any, descending: bool) -> tuple[int, Any]:
    if value is None:
        return (1, 0)
    return (0, -value if descending else value)


def oracle_order(key: Callable[[Data], Any], descending: bool = False) -> list[str]:
    cards = sorted(catalogue(), key=lambda c: (c["name"], c["id"]))
    return [c["id"] for c in sorted(cards, key=lambda c: sort_key_nulls_last(key(c), descending))]


RARITY_RANK = {r: i for i, r in enumerate(card_anatomy.RARITIES)}
TYPE_RANK = {t: i for i, t in enumerate(card_anatomy.CARD_TYPES)}
FACTION_RANK = {f: i for i, f in enumerate(card_anatomy.FACTIONS)}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        pytest.param("order:cost dir:desc", lambda: oracle_order(lambda c: c["cost"], True),
                     id="cost-desc"),
        pytest.param("order:cost", lambda: oracle_order(lambda c: c["cost"]), id="cost"),
        pytest.param("order:off", lambda: oracle_order(lambda c: c["offense"]), id="offense"),
        pytest.param("order:def dir:desc", lambda: oracle_order(lambda c: c["defense"], True),
                     id="defense-desc"),
        pytest.param("order:fi", lambda: oracle_order(lambda c: c["faction_influence"]),
                     id="fi"),
        pytest.param("order:bounty dir:desc", lambda: oracle_order(lambda c: c["bounty"], True),
                     id="bounty-desc"),
        pytest.param("order:rarity", lambda: oracle_order(lambda c: RARITY_RANK.get(c["rarity"])),
                     id="rarity"),
        pytest.param("order:rarity dir:desc",
                     lambda: oracle_order(lambda c: RARITY_RANK.get(c["rarity"]), True),
                     id="rarity-desc"),
        pytest.param("order:type", lambda: oracle_order(lambda c: TYPE_RANK.get(c["type"])),
                     id="type"),
        pytest.param("order:faction dir:desc",
                     lambda: oracle_order(lambda c: FACTION_RANK.get(c["faction"]), True),
                     id="faction-desc"),
        pytest.param("", lambda: oracle_order(lambda c: 0), id="default-name"),
    ],
)
def test_results_come_in_the_requested_order_unknowns_last_ties_by_name_then_id(
    query: str, expected: Callable[[], list[str]]
) -> None:
    assert search(query) == expected()


def test_ordering_by_name_descending_keeps_ties_by_id() -> None:
    cards = sorted(catalogue(), key=lambda c: c["id"])
    expected = [c["id"] for c in sorted(cards, key=lambda c: c["name"], reverse=True)]
    assert search("dir:desc") == expected
    spearmen = search('"ashgate spearman" dir:desc')
    assert len(spearmen) == 2 and spearmen == sorted(spearmen)


def test_ordering_by_set_follows_set_code_then_collector_number() -> None:
    def key(c: Data) -> tuple[Any, ...]:
        return (c["set"], c["number"] is None, c["number"] or "", c["name"], c["id"])

    assert search("order:set") == [c["id"] for c in sorted(catalogue(), key=key)]


def test_every_ordering_ends_with_id() -> None:
    for spec in ("", "order:name", "order:cost", "order:set dir:desc", "order:rarity"):
        _, ordering = compile_query(parse(spec))
        assert ordering[-1] == "id"


# Collection keys need a collection: tests/search/test_collection_keys.py runs their examples.
@pytest.mark.parametrize("f", [f for f in FIELDS if f.kind != "personal"],
                         ids=lambda f: f.name)
def test_every_registry_example_finds_cards(f: Any) -> None:
    for example in f.examples:
        assert search(example), example


def test_compiling_runs_no_query(django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        compile_query(parse("kw:armor has:scan is:reaction t:troop order:rarity"))


def test_a_search_of_the_whole_catalogue_is_one_query(django_assert_num_queries: Any) -> None:
    parsed = parse("(kw:armor or has:scan or is:reaction or t:troop or -set:wof) order:rarity")
    with django_assert_num_queries(1):
        cards = list(filter_cards(parsed))
    assert len(cards) == len({c.id for c in cards}) > 0


def test_an_empty_query_is_every_card() -> None:
    condition, ordering = compile_query(parse(""))
    assert condition == Q() and ordering == ["name", "id"]
    assert len(search("")) == len(catalogue())


# --- facts the fixtures do not exercise: made-up cards, rolled back after each test ----------


def make_card(card_id: str, **fields: Any) -> Card:
    demo = Card.objects.get(id="demo-emberhold-keep")
    return Card.objects.create(id=card_id, name=card_id.title(), set=demo.set, **fields)


@pytest.mark.parametrize(
    ("fields", "troop_", "citizen_"),
    [
        pytest.param({"offense": 2, "defense": 1}, True, False, id="both-above-zero"),
        pytest.param({"offense": 0, "defense": 0}, False, True, id="both-zero"),
        pytest.param({"offense": 2, "defense": 0}, False, False, id="mixed"),
        pytest.param({"offense": None, "defense": 3}, False, False, id="unknown"),
        pytest.param({"subtype": "citizen", "offense": 2, "defense": 2}, False, True,
                     id="printed-subtype-wins"),
    ],
)
def test_troops_and_citizens_follow_offense_and_defense_when_the_subtype_is_not_printed(
    fields: dict[str, Any], troop_: bool, citizen_: bool
) -> None:
    make_card("tst-person", type="personality", **fields)
    assert ("tst-person" in search("t:troop")) is troop_
    assert ("tst-person" in search("is:troop")) is troop_
    assert ("tst-person" in search("t:citizen")) is citizen_
    assert "tst-person" not in search("st:troop")


@pytest.mark.parametrize(
    ("abilities", "exhausting", "reaction"),
    [
        pytest.param("Armor. E Pay 1: gain +1 offense.", True, False, id="custom-exhausting"),
        pytest.param("(F)2 E Pay 1 religious influence: heal.", True, False,
                     id="threshold-then-e"),
        pytest.param("Pay 1: cancel an event (Reaction).", False, True, id="custom-reaction"),
        pytest.param("E Debate.", True, True, id="reaction-keyword"),
        pytest.param("Pay E tokens.", False, False, id="e-inside-a-sentence"),
        pytest.param("e pay 1.", False, False, id="lower-case-e"),
    ],
)
def test_exhausting_and_reaction_read_custom_clauses_too(
    abilities: str, exhausting: bool, reaction: bool
) -> None:
    card = make_card("tst-ability", type="event", abilities=abilities)
    card_sync_keywords(card)
    assert ("tst-ability" in search("is:exhausting")) is exhausting
    assert ("tst-ability" in search("is:reaction")) is reaction
    assert ("tst-ability" in search("-is:exhausting")) is not exhausting


def test_only_scans_count_as_images() -> None:
    scanned = Card.objects.get(id="demo-emberhold-keep")
    rendered = Card.objects.get(id="demo-bog-hag")
    for card, status in ((scanned, CardImage.SCAN), (rendered, CardImage.RENDERED)):
        CardImage.objects.create(card=card, status=status, source_hash="x", small="s.webp",
                                 normal="n.webp", large="l.webp")
    assert search("has:image") == ["demo-emberhold-keep"]
    assert search("has:scan") == ["demo-emberhold-keep"]
    assert "demo-bog-hag" in search("-has:image")


def test_a_regex_can_match_across_a_line_break_and_ignores_case() -> None:
    make_card("tst-lines", type="event", abilities="First line.\nSECOND line.")
    assert search("o:/line.\\s+second/") == ["tst-lines"]
    assert search("o=/first.*line\\./") == ["tst-lines"]
    assert search("o=/first/") == []


def test_text_search_treats_like_wildcards_as_plain_characters() -> None:
    make_card("tst-percent", type="event", abilities="Gain 100% of it_all.")
    assert search("o:100%") == ["tst-percent"]
    assert search("o:it_all") == ["tst-percent"]
    assert "tst-percent" not in search("o:itxall")


# --- random combinations, against the same oracle ----------------------------------------------

LEAVES = [(q, p) for q, p in ORACLE if q and " " not in q and "order:" not in q][:30]


def combine(draw: Any, depth: int) -> tuple[str, Predicate]:
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(LEAVES))
    kind = draw(st.sampled_from(["and", "or", "not"]))
    left = combine(draw, depth - 1)
    if kind == "not":
        return f"-({left[0]})", lambda c, p=left[1]: not p(c)
    right = combine(draw, depth - 1)
    if kind == "and":
        return f"({left[0]} {right[0]})", lambda c, a=left[1], b=right[1]: a(c) and b(c)
    return f"({left[0]} or {right[0]})", lambda c, a=left[1], b=right[1]: a(c) or b(c)


@st.composite
def combinations(draw: Any) -> tuple[str, Predicate]:
    return combine(draw, 3)


@given(combinations())
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_any_combination_of_terms_finds_what_the_oracle_finds(
    combination: tuple[str, Predicate],
) -> None:
    query, predicate = combination
    assert set(search(query)) == ids_where(predicate), query


# --- regular expressions read the same on SQLite and PostgreSQL ------------------------------

PORTABLE = [
    "exhaust(s)? target", "^E ", "\\.$", "\\d+ religious", "[a-z]+gate", "(north|south)+",
    "gain \\+\\d", "a.*b", "(?:ab)+c", "colou?r", "e{2}", "\\Atemple", "worship\\.\\Z",
    "\\w+ of \\w+", "[^a-z ]", "[\\d]", "\\s\\S", "influence\\.?$", "a|b|c", "\\(f\\)",
]


@pytest.mark.parametrize("pattern", PORTABLE)
def test_a_portable_pattern_finds_what_python_finds(pattern: str) -> None:
    assert set(search(f"o:/{pattern}/")) == ids_where(lambda c: matches(c["abilities"], pattern))
    whole = ids_where(lambda c: re.fullmatch(pattern, c["name"], re.I | re.S) is not None)
    assert set(search(f"n=/{pattern}/")) == whole


REGEX_PIECES = st.sampled_from([
    *"aeiorst .?*+|()[]^$-", "\\d", "\\w", "\\s", "\\.", "[a-e]", "[^ ]", "{2}", "{1,3}", "(?:",
    "E ", "worship", "target",
])


@given(st.lists(REGEX_PIECES, min_size=1, max_size=10).map("".join))
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_any_accepted_pattern_finds_what_python_finds(pattern: str) -> None:
    if check_regex(pattern) is not None or "/" in pattern:
        return
    assert set(search(f"o:/{pattern}/")) == ids_where(lambda c: matches(c["abilities"], pattern))


@pytest.mark.parametrize(("query", "first", "later"), [
    ("o:worship off>=2", '"offense"', '"abilities"'),
    ("kw:fleetfoot f:kalim", '"faction"', "EXISTS"),
    ("(t:troop or t:wanderer) off>=4", '"offense" >=', '"subtype"'),
    ("bowman -cost<=4", '"total_cost"', '"name"'),
])
def test_cheap_comparisons_come_first_in_an_and(query: str, first: str, later: str) -> None:
    sql = str(filter_cards(parse(query)).order_by().query)
    where = sql[sql.index(" WHERE "):]
    assert where.index(first) < where.index(later), where


def test_a_count_of_compared_columns_reads_the_covering_index_on_sqlite() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's plan depends on a vacuum: see the next test")
    assert "COVERING INDEX cards_card_search_covering" in count_plan(
        "(t:troop or t:wanderer) cost<=4 -f:kalim")


def test_a_count_of_an_offense_range_reads_the_offense_index_alone_on_sqlite() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's plan depends on a vacuum: see the next test")
    # cards/migrations/0009: the cards in the range only, their kind and faction in the index.
    plan = count_plan("(t:troop or t:wanderer) off>=4 -f:kalim")
    assert "COVERING INDEX cards_card_offense_5a2d63_idx (offense>?)" in plan, plan


def count_plan(query: str) -> str:
    """SQLite's plan of the count of ``query``'s cards."""
    sql, params = filter_cards(parse(query)).order_by().values("id").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN SELECT COUNT(*) FROM ({sql}) matches", params)
        return " ".join(str(row[-1]) for row in cursor.fetchall())


def test_the_covering_index_holds_every_compared_column_on_both_databases() -> None:
    # cards/migrations 0006 (SQLite) and 0007 (PostgreSQL, read without the table once a
    # vacuum has marked the pages all-visible, which a test's transaction cannot do).
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, "cards_card")
    columns = indexes["cards_card_search_covering"]["columns"]
    assert {"type", "subtype", "faction", "offense", "defense", "total_cost",
            "aggression", "bounty", "residencies", "set_id"} <= set(columns), columns
