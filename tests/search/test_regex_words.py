"""The words every match of a search regex contains (cards/search/regex_words.py), which SQLite
tests with LIKE before running the regex. Pure: no database."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.search.parser import check_regex
from cards.search.regex_words import required_words


@pytest.mark.parametrize(("pattern", "words"), [
    ("worship", (("wor",),)),  # cut at the s: it also matches the long s
    ("exhaust(s)? target", ((" target",), ("exhau",))),
    ("fleet[- ]?foot", (("fleet",), ("foot",))),
    ("Pay \\d+ gold", ((" gold",), ("Pay ",))),
    ("x{2,3}yyy", (("yyy",),)),
    ("ab\\.cde?f", (("ab.cd",),)),
    ("Kingdom", (("ngdom",),)),  # the Kelvin sign is a k
    ("déjà vu here", ((" vu here",),)),  # letters outside ASCII match their capitals
    ("^E (collect|pay)", (("collect", "pay"),)),  # one of a group's plain alternatives
    ("(?:draw|discard) a card", ((" a card",), ("draw", "card"))),
    ("(collect|pay)?", ()),  # an optional group
    ("(ab|cde)x", ()),  # an alternative too short to test
    ("(a.c|def)x", ()),  # not plain
    ("draw|discard", ()),  # a top-level alternative
    ("ab", ()),  # too short to pay for a LIKE
    ("one.two.three", (("three",), ("one",))),
])
def test_required_words(pattern: str, words: tuple[tuple[str, ...], ...]) -> None:
    assert check_regex(pattern) is None
    assert required_words(pattern) == words


PIECES = st.sampled_from([
    *"aeiorstk .?*+|()[]^$-", "\\d", "\\w", "\\s", "\\.", "[a-e]", "[^ ]", "{2}", "{1,3}", "(?:",
    "(draw|pay)", "(?:sea|ship)",
    "E ", "worship", "target", "\u017f", "\u212a", "\u00c9", "{0}",
])
# The long s, the Kelvin sign, É, é, the dotless i and the dotted capital I.
TEXTS = st.text(alphabet="aeiorstkEWT .-\u017f\u212a\u00c9\u00e9\u0131\u01300123", max_size=40)


@given(st.lists(PIECES, min_size=1, max_size=10).map("".join), st.lists(TEXTS, max_size=8))
@settings(max_examples=300, deadline=None)
def test_a_text_the_regex_matches_has_every_word_as_sqlite_like_sees_it(
    pattern: str, texts: list[str],
) -> None:
    if check_regex(pattern) is not None:
        return
    words = required_words(pattern)
    regex = re.compile("(?is)" + pattern)
    flat = [w for test in words for w in test]
    for text in [*texts, *(w.upper() for w in flat), " ".join(flat).swapcase()]:
        if regex.search(text):
            # SQLite's LIKE folds ASCII letters only.
            assert all(any(_ascii_lower(w) in _ascii_lower(text) for w in test)
                       for test in words), (pattern, text)


def _ascii_lower(text: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in text)
