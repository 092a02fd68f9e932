"""CSRF: every POST form carries the token, and htmx sends it with every request it makes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.models import Deck
from decks.services import deck_save
from rules.decklist import Decklist
from tests.conftest import ROOT

TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.DOTALL | re.IGNORECASE)
INCLUDE = re.compile(r"""{% include ["']([^"']+)["'][^%]*%}""")


def expanded(text: str, seen: frozenset[str] = frozenset()) -> str:
    """The template with its {% include %}s written out (the builder's forms share theirs);
    a template that includes itself (a card with its attached cards) is written out once."""
    def include(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in seen:
            return ""
        body = (ROOT / "templates" / name).read_text(encoding="utf-8")
        return expanded(body, seen | {name})

    return INCLUDE.sub(include, text)


def post_forms(text: str) -> list[str]:
    return [body for attrs, body in FORM.findall(text)
            if re.search(r"method=[\"']?post", attrs, re.IGNORECASE)]


def test_the_walk_finds_the_post_forms() -> None:
    assert sum(len(post_forms(t.read_text(encoding="utf-8"))) for t in TEMPLATES) >= 10


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_post_form_carries_the_csrf_token(template: Path) -> None:
    text = expanded(template.read_text(encoding="utf-8"))
    assert text.count("<form") == len(FORM.findall(text)), "a form the walk cannot read"
    for body in post_forms(text):
        assert "{% csrf_token %}" in body, body[:200]


def test_every_page_gives_htmx_the_token_for_its_requests(client: Client, db: None) -> None:
    page = client.get("/").content.decode()
    token = client.cookies["csrftoken"].value
    assert re.search(r"<body data-hx-headers='\{\"X-CSRFToken\": \"[^\"]+\"\}'>", page)
    assert token


@pytest.mark.django_db
def test_an_htmx_edit_needs_the_token_that_the_page_gave() -> None:
    user = User.objects.create_user("carol", password="x-Secret-123456")
    deck = deck_save(owner=user, data=Decklist(name="Mine"), visibility=Deck.PRIVATE)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/edit/").content.decode()
    token = re.search(r'data-hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page)
    assert token is not None
    url = f"/decks/{deck.pk}/edit/add/"
    data = {"version": deck.version, "card": "demo-bog-hag", "section": "wanderers"}
    refused = client.post(url, data, headers={"HX-Request": "true"})
    assert refused.status_code == 403
    done = client.post(url, data, headers={"HX-Request": "true", "X-CSRFToken": token.group(1)})
    assert done.status_code == 200
    assert Deck.objects.get(pk=deck.pk).version == deck.version + 1
