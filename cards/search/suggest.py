"""Did-you-mean: the closest search keys, values and card names (difflib). Pure Python."""

from __future__ import annotations

from collections.abc import Iterable
from difflib import SequenceMatcher, get_close_matches
from typing import Final

from cards.search.fields import BY_NAME, Value, normalize

MAX_SUGGESTIONS: Final = 3


def closest_keys(typed: str) -> list[str]:
    """The keys closest to an unknown key, comparing every key and alias, one spelling per key:
    the one that was close (``oracel`` -> ``oracle``, ``factoin`` -> ``faction``)."""
    matches = get_close_matches(typed.casefold(), list(BY_NAME), n=8, cutoff=0.6)
    best: dict[str, str] = {}
    for match in matches:
        best.setdefault(BY_NAME[match].name, match)
    return list(best.values())[:MAX_SUGGESTIONS]


def closest_values(typed: str, values: Iterable[Value]) -> list[str]:
    """Canonical values closest to a value that fits none of them."""
    forms: dict[str, str] = {}
    for v in values:
        for form in v.forms:
            forms.setdefault(form, v.value)
    matches = get_close_matches(normalize(typed), list(forms), n=8, cutoff=0.6)
    return list(dict.fromkeys(forms[m] for m in matches))[:MAX_SUGGESTIONS]


def _score(query: str, name: str) -> float:
    """How alike a typed name and a card name are: the whole strings, or word by word (each
    typed word against its best word of the name), whichever is closer."""
    whole = SequenceMatcher(None, query, name).ratio()
    typed_words, name_words = query.split(), name.split()
    if not typed_words or not name_words:
        return whole
    per_word = sum(
        max(SequenceMatcher(None, w, n).ratio() for n in name_words) for w in typed_words
    ) / len(typed_words)
    return max(whole, per_word)


def closest_names(words: str, names: Iterable[str], n: int = 5, cutoff: float = 0.7) -> list[str]:
    """Card names that look like ``words`` (ignoring case), best first, for "no card is named
    like that; did you mean ...". Ties are broken by name, so the answer is deterministic."""
    query = " ".join(words.casefold().split())
    if not query:
        return []
    scored: dict[str, float] = {}
    for name in names:
        score = _score(query, " ".join(name.casefold().split()))
        if score >= cutoff and score > scored.get(name, -1.0):
            scored[name] = score
    ranked = sorted(scored.items(), key=lambda item: (-item[1], item[0]))
    return [name for name, _ in ranked[:n]]
