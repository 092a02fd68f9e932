"""Small formats of the edit pages."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def wait_words(seconds: int) -> str:
    """A Retry-After in words: "40 seconds", "12 minutes", "2 hours"."""
    seconds = int(seconds)
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"{minutes} minutes"
    hours = round(minutes / 60)
    return f"{hours} hour{'s' if hours != 1 else ''}"
