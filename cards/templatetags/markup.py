"""Small text filters: help texts written with `backticks` for code, card names as links."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from cards.card_links import CardNames

register = template.Library()
_TICKS = re.compile(r"`([^`]+)`")


@register.filter
def codeticks(text: str) -> SafeString:
    """Escape the text, then show `quoted` parts as <code>."""
    return mark_safe(_TICKS.sub(r"<code>\1</code>", escape(text)))


@register.filter
def card_links(text: str, names: CardNames | None) -> SafeString | str:
    """``{{ line.text|card_links:card_names }}``: the card names in a log line as links."""
    return names.link(text) if names is not None else text
