"""Forgiving card names (rules/names.py)."""

from __future__ import annotations

import pytest

from rules.names import fold_name


@pytest.mark.parametrize(("a", "b"), [
    ("Cobbler's Lane", "cobblers lane"),
    ("Cobbler's Lane", "COBBLER\u2019S-LANE"),
    ("Cobbler's Lane", "  cobbler   lane "),
    ("Bowman", "bowmen"),
    ("Goblin Skulkers", "goblin skulker"),
    ("Battle-Abbess Ruun Kaeth", "battle abbess ruun kaeth"),
    ("Café des Épées", "cafe des epees"),
    ("Sewer Rat Swarm", "sewer rats swarms"),
    ("Reliquary Keeper", "reliquary keepers"),
    ("Canticle of Plenty", "canticles of plenty"),
    ("Frost Giant Harrag", "frost-giant harrag"),
])
def test_spellings_that_fold_alike(a: str, b: str) -> None:
    assert fold_name(a) == fold_name(b)


@pytest.mark.parametrize(("a", "b"), [
    ("Bog Hag", "Bog Hog"),
    ("Boss", "Bos"),  # a double s is no plural
    ("Wall", "Walls Tower"),
])
def test_spellings_that_do_not(a: str, b: str) -> None:
    assert fold_name(a) != fold_name(b)


@pytest.mark.parametrize(("text", "folded"), [
    ("Cobbler's Lane", "cobbler lane"), ("bowmen", "bowman"), ("Abbess", "abbess"),
    ("Wolves", "wolve"), ("", ""), ("'-'", ""), ("Hovels", "hovel"), ("Ashes", "ash"),
])
def test_the_folded_form(text: str, folded: str) -> None:
    assert fold_name(text) == folded
