"""Card names in a narrated text (the playtest and goldfish logs) as links to the cards' pages
(the site shows a card's image over such a link: static/js/site.js), found by their exact
names."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from cards.card_urls import card_url


class CardNames:
    """The cards of one game, by name; the longest name wins where names overlap."""

    def __init__(self, facts: Mapping[str, Mapping[str, Any]]) -> None:
        self.urls = {str(f["name"]): card_url(card_id, "page") for card_id, f in facts.items()
                     if f.get("name")}
        names = sorted(self.urls, key=len, reverse=True)
        self.pattern = (re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, names)) + r")(?![\w'])")
                        if names else None)

    def link(self, text: str) -> SafeString:
        if self.pattern is None:
            return escape(text)
        out: list[str] = []
        at = 0
        for match in self.pattern.finditer(text):
            out.append(escape(text[at:match.start()]))
            out.append(format_html('<a href="{}" class="card-ref">{}</a>',
                                   self.urls[match.group(1)], match.group(1)))
            at = match.end()
        out.append(escape(text[at:]))
        return mark_safe("".join(out))  # each piece escaped above
