"""Template mistakes Django does not report."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_short_comment_spans_lines(template: Path) -> None:
    # {# ... #} ends at the line's end: across lines, Django prints it on the page.
    text = template.read_text(encoding="utf-8")
    assert not re.search(r"\{#(?:(?!#\}).)*\n", text), "use {% comment %} for long comments"


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_htmx_attributes_are_spelled_as_data_attributes(template: Path) -> None:
    # htmx reads `data-hx-get` as it reads `hx-get`, and only the first is valid HTML (the Nu
    # checker counts every bare `hx-*` as an error: tests/sitewide/test_valid_html.py).
    text = template.read_text(encoding="utf-8")
    bare = re.findall(r"(?<![\w-])hx-[a-z-]+(?==)", text)
    assert bare == [], f"spell them data-{bare[0]}"
