"""Filters for goldfish reports: shares as percentages, signed differences."""

from __future__ import annotations

from django import template

register = template.Library()

NONE = "\u2013"  # an en dash where there is no figure
MINUS = "\u2212"  # a real minus sign, as wide as the plus


@register.filter
def percent(value: float | None, places: int = 1) -> str:
    """0.8871 -> "88.7%"; None -> an en dash."""
    if value is None:
        return NONE
    return f"{value * 100:.{places}f}%"


@register.filter
def signed(value: float | None, places: int = 2) -> str:
    """-0.5512 -> "-0.55" (with a minus sign), 0.4 -> "+0.40"; None -> an en dash."""
    if value is None:
        return NONE
    return f"{value:+.{places}f}".replace("-", MINUS)


@register.filter
def points(value: float | None) -> str:
    """A difference of two shares in percentage points: 0.032 -> "+3.2 points"."""
    if value is None:
        return NONE
    return f"{value * 100:+.1f} points".replace("-", MINUS)
