"""Small text filters: help texts written with `backticks` for code, card names as links, a
source by its name and address."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from cards.card_links import CardNames
from cards.source_names import source_view

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


@register.filter
def source_link(source: str) -> SafeString:
    """A source as its site's name, linked, and its address beside it; any other source (a
    book, "my own copy of the card") as it is, escaped."""
    view = source_view(str(source))
    if not view.url:
        return escape(view.name)
    return format_html('<a href="{}" rel="noopener nofollow">{}</a> '
                       '<span class="source-address">{}</span>', view.url, view.name,
                       view.address)
