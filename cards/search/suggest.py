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


class _Scorer:
    """How alike a typed name and card names are: the whole strings, or word by word (each
    typed word against its best word of the name), whichever is closer.

    Scores below ``cutoff`` may come back lower than they are (they are discarded anyway):
    SequenceMatcher's cheap upper bounds rule most names out before the exact ratio, and
    the word-pair results are remembered, since card names share most of their words.
    """

    def __init__(self, query: str, cutoff: float) -> None:
        self.query, self.cutoff = query, cutoff
        self.words = query.split()
        self._whole = SequenceMatcher(None, "", query)  # the query is seq2: analysed once
        self._bounds: dict[tuple[str, str], float] = {}
        self._ratios: dict[tuple[str, str], float] = {}

    def score(self, name: str) -> float:
        whole = 0.0
        self._whole.set_seq1(name)
        if self._whole.real_quick_ratio() >= self.cutoff and (
            self._whole.quick_ratio() >= self.cutoff
        ):
            whole = SequenceMatcher(None, self.query, name).ratio()
        name_words = name.split()
        if not self.words or not name_words:
            return whole
        bounds = [max(self._bound(w, n) for n in name_words) for w in self.words]
        if sum(bounds) / len(self.words) < self.cutoff:
            return whole
        per_word = sum(max(self._ratio(w, n) for n in name_words) for w in self.words)
        return max(whole, per_word / len(self.words))

    def _bound(self, word: str, name_word: str) -> float:
        key = (word, name_word)
        if key not in self._bounds:
            self._bounds[key] = SequenceMatcher(None, word, name_word).quick_ratio()
        return self._bounds[key]

    def _ratio(self, word: str, name_word: str) -> float:
        key = (word, name_word)
        if key not in self._ratios:
            self._ratios[key] = SequenceMatcher(None, word, name_word).ratio()
        return self._ratios[key]


def _words(name: str) -> str:
    """A name as words to compare: case and hyphens aside ("Templar-Captain" is two words, so
    "templar captian" is close to it word by word)."""
    return " ".join(name.casefold().replace("-", " ").split())


def closest_names(words: str, names: Iterable[str], n: int = 5, cutoff: float = 0.7) -> list[str]:
    """Card names that look like ``words`` (ignoring case), best first, for "no card is named
    like that; did you mean ...". Ties are broken by name, so the answer is deterministic."""
    query = _words(words)
    if not query:
        return []
    scorer = _Scorer(query, cutoff)
    scored: dict[str, float] = {}
    for name in names:
        score = scorer.score(_words(name))
        if score >= cutoff and score > scored.get(name, -1.0):
            scored[name] = score
    ranked = sorted(scored.items(), key=lambda item: (-item[1], item[0]))
    return [name for name, _ in ranked[:n]]
