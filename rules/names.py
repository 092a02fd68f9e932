"""Forgiving card names: the form in which two spellings of a name are the same.

Case, accents, apostrophes, hyphens and other punctuation, spacing and plurals do not matter:
``Cobblers Lane``, ``cobbler's lane`` and ``COBBLER\u2019S-LANE`` all fold to ``cobbler lane``;
``bowmen`` folds as ``bowman`` does. Used by the card search (a word matches a name when its
folded form is in the name's), the decklist importer and the odds goals."""

from __future__ import annotations

import re
import unicodedata

_APOSTROPHES = re.compile(r"['\u2019\u2018`\u00b4]")
_SEPARATORS = re.compile(r"[^\w]+|_")


def stem(word: str) -> str:
    """A word without its English plural ending (a light touch: only what card names need)."""
    if len(word) <= 3:
        return word
    if word.endswith("men"):
        return word[:-3] + "man"
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def fold_name(text: str) -> str:
    """The forgiving form of a name or of words typed to find one."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    words = _SEPARATORS.sub(" ", _APOSTROPHES.sub("", plain.casefold())).split()
    return " ".join(stem(word) for word in words)
