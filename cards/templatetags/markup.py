"""Small text filters for help texts written with `backticks` for code."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()
_TICKS = re.compile(r"`([^`]+)`")


@register.filter
def codeticks(text: str) -> SafeString:
    """Escape the text, then show `quoted` parts as <code>."""
    return mark_safe(_TICKS.sub(r"<code>\1</code>", escape(text)))
