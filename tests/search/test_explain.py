"""Queries explained in plain English (cards/search/explain.py). Pure: no database.

The style: "cards where CONDITION, sorted by KEY[, direction]" ("all cards, sorted by name"
for the empty query); a negated term reads as its negative clause, a negated group as
"not (...)", and an and-group inside an or (or the reverse) is parenthesised.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.search.explain import explain
from cards.search.parser import SearchError, parse

BY_NAME = ", sorted by name"

CASES = [
    ("", "all cards, sorted by name"),
    ("t:troop f:kalim off>=2",
     "cards where the card is a troop and the faction is The Glory of Kalim and the offense is "
     "at least 2" + BY_NAME),
    ("t:personality", "cards where the type is personality" + BY_NAME),
    ("t:wall", "cards where the subtype is wall" + BY_NAME),
    ("st:troop", "cards where the subtype is troop" + BY_NAME),
    ("t!=structure", "cards where the type is not structure" + BY_NAME),
    ("f:none t:structure", "cards where the card has no faction and the type is structure"
     + BY_NAME),
    ("-f:none", "cards where the card has a faction" + BY_NAME),
    ("f:\"veteran's guild\"", "cards where the faction is The Veteran's Guild" + BY_NAME),
    ("r:cs or r:p", "cards where the rarity is common starter or the rarity is promo" + BY_NAME),
    ("-off>=3", "cards where the offense is not at least 3" + BY_NAME),
    ("cost<=4 -t:structure",
     "cards where the total cost is at most 4 and the type is not structure" + BY_NAME),
    ("off:0 def!=0 fi<2 vit>9",
     "cards where the offense is 0 and the defense is not 0 and the faction influence is less "
     "than 2 and the vitality is greater than 9" + BY_NAME),
    ("off>def", "cards where the offense is greater than the defense" + BY_NAME),
    ("-off!=3", "cards where not (the offense is not 3)" + BY_NAME),
    ("o:worship", 'cards where the abilities text contains "worship"' + BY_NAME),
    ("-o:worship", 'cards where the abilities text does not contain "worship"' + BY_NAME),
    ("race=human", 'cards where the race is "human"' + BY_NAME),
    ("race!=human", 'cards where the race is not "human"' + BY_NAME),
    ('o=""', "cards where the abilities text is empty" + BY_NAME),
    ("o:/exhaust(s)? target/",
     "cards where the abilities text matches the pattern /exhaust(s)? target/" + BY_NAME),
    ("-name=/a\\/b/", "cards where the whole name does not match the pattern /a\\/b/" + BY_NAME),
    ('ft:"say \\"no\\""', 'cards where the quotation contains "say \\"no\\""' + BY_NAME),
    ("ashgate spearman",
     'cards where the name contains "ashgate" and the name contains "spearman"' + BY_NAME),
    ('"ashgate spearman"', 'cards where the name contains "ashgate spearman"' + BY_NAME),
    ('!"Ashgate Spearman"', 'cards where the name is exactly "Ashgate Spearman"' + BY_NAME),
    ("kw:fleetfoot or kw:ranged",
     "cards where the card has the ability Fleetfoot or the card has the ability Ranged"
     + BY_NAME),
    ("-kw:giant-size", "cards where the card does not have the ability Giant Size" + BY_NAME),
    ("set:wof is:unknown", "cards where the set is WOF and the card has untranscribed fields"
     + BY_NAME),
    ("is:exhausting -is:reaction",
     "cards where the card has an exhausting ability and the card has no reaction ability"
     + BY_NAME),
    ("has:offense -has:race",
     "cards where the offense is transcribed and the race is not yet transcribed" + BY_NAME),
    ("has:scan", "cards where the card has a scan" + BY_NAME),
    ("a or b c",
     'cards where the name contains "a" or (the name contains "b" and the name contains "c")'
     + BY_NAME),
    ("(a or b) c",
     'cards where (the name contains "a" or the name contains "b") and the name contains "c"'
     + BY_NAME),
    ("-(t:troop or f:kalim cost<=2)",
     "cards where not (the card is a troop or (the faction is The Glory of Kalim and the total "
     "cost is at most 2))" + BY_NAME),
    ("--is:unique", "cards where not (the card is not unique)" + BY_NAME),
    ("order:cost dir:desc", "all cards, sorted by total cost, highest first"),
    ("t:troop order:offense", "cards where the card is a troop, sorted by offense, lowest first"),
    ("dir:desc", "all cards, sorted by name, Z to A"),
    ("order:rarity dir:desc", "all cards, sorted by rarity, rarest first"),
    ("order:set", "all cards, sorted by set and collector number"),
    ("order:type dir:desc", "all cards, sorted by type, in reverse order"),
]


@pytest.mark.parametrize(("query", "english"), CASES, ids=[q or "empty" for q, _ in CASES])
def test_a_query_reads_as_one_english_phrase(query: str, english: str) -> None:
    assert explain(parse(query)) == english


def test_ignored_sort_terms_are_not_explained() -> None:
    assert explain(parse("t:troop or order:cost")) == (
        "cards where the card is a troop" + BY_NAME
    )


PIECES = st.sampled_from([*"tfo:!=<>-() \"/", "troop", "off", "kalim", "or", "and", "is:unique",
                          "has:off", "order:cost", "dir:desc", "x", "kw:armor", "set:wof",
                          "r:rare", "f:none", "o:/a+/", "def", "3", "name=/b/", "race!=elf"])


@given(st.lists(PIECES, max_size=25).map("".join))
@settings(max_examples=400)
def test_every_query_that_parses_can_be_explained(text: str) -> None:
    try:
        parsed = parse(text)
    except SearchError:
        return
    english = explain(parsed)
    assert english.startswith(("cards where ", "all cards, ")) and ", sorted by " in english
