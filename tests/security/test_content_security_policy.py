"""The Content-Security-Policy: scripts and styles only from the site or with the response's
nonce, and no page or template that needs more (inline handlers, style attributes, eval)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.models import Deck
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


class InlineCode(HTMLParser):
    """Collects what a CSP without 'unsafe-inline' would refuse in a page."""

    def __init__(self, nonce: str) -> None:
        super().__init__()
        self.nonce = nonce
        self.refused: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name, value in attrs:
            if name.startswith("on") or name == "style" or (
                    name in ("href", "src", "action") and (value or "").startswith("javascript:")):
                self.refused.append(f"<{tag} {name}=...>")
        if tag in ("script", "style") and "src" not in found and found.get("nonce") != self.nonce:
            self.refused.append(f"inline <{tag}> without the response's nonce")
        if tag == "script" and "src" in found and found.get("nonce") not in (None, self.nonce):
            self.refused.append("<script> with a stale nonce")


def page_urls(deck: Deck) -> list[str]:
    return [
        "/", "/cards/", "/cards/demo-bog-hag/", "/sets/", "/sets/wof/", "/search/help/",
        "/abilities/",
        "/abilities/worship/", "/decks/", "/decks/new/", "/decks/import/", "/decks/compare/",
        f"/decks/{deck.pk}/", f"/decks/{deck.pk}/edit/", f"/decks/{deck.pk}/draw/?seed=1",
        f"/decks/{deck.pk}/print/", f"/decks/{deck.pk}/history/", "/accounts/login/",
        "/accounts/signup/", "/api/docs/", "/admin/login/",
        "/cards/wof-footman/improve/", "/sets/wof/add/?number=3", "/edits/", "/edits/mine/",
        "/cards/wof-footman/history/", "/edits/guide/",
    ]


def test_every_page_carries_a_nonce_policy_and_needs_nothing_inline(ada: Client) -> None:
    deck = Deck.objects.filter(owner__username="samples").first()
    assert deck is not None
    deck.owner = User.objects.get(username="ada")
    deck.save()
    for url in page_urls(deck):
        response = ada.get(url)
        assert response.status_code == 200, url
        policy = response["Content-Security-Policy"]
        script_src = next(d for d in policy.split("; ") if d.startswith("script-src"))
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, url
        nonce = re.search(r"'nonce-([^']+)'", script_src)
        parser = InlineCode(nonce.group(1) if nonce else "")
        parser.feed(response.content.decode())
        assert parser.refused == [], (url, parser.refused)


def test_each_response_gets_its_own_nonce(client: Client) -> None:
    first, second = (client.get("/api/docs/")["Content-Security-Policy"] for _ in range(2))
    assert "'nonce-" in first and first != second


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_has_inline_handlers_or_style_attributes(template: Path) -> None:
    text = template.read_text(encoding="utf-8")
    assert not re.search(r"\son[a-z]+\s*=", text), "inline event handler: use static/js"
    assert not re.search(r"\sstyle\s*=", text), "style attribute: use a class in static/css"
    assert "javascript:" not in text
    for tag in re.findall(r"<(?:script|style)\b[^>]*>", text):
        assert "src=" in tag or 'nonce="{{ csp_nonce }}"' in tag, tag


def test_htmx_neither_evaluates_code_nor_injects_styles(client: Client) -> None:
    page = client.get("/").content.decode()
    config = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'', page)
    assert config is not None
    assert '"allowEval": false' in config.group(1)
    assert '"includeIndicatorStyles": false' in config.group(1)


def test_htmx_settles_no_style_attribute(client: Client) -> None:
    # htmx copies the attributes it settles from the old element to the new one; a style
    # attribute (a textarea the person resized, a field a script touched) would be written
    # with setAttribute, which style-src refuses in the console on every swap.
    page = client.get("/").content.decode()
    config = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'', page)
    assert config is not None
    assert json.loads(config.group(1))["attributesToSettle"] == ["class", "width", "height"]
