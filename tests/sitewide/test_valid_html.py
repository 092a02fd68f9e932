"""The Nu HTML checker (vnu.jar, the W3C validator's engine) finds no error on the main pages.

The checker is the npm package ``vnu-jar`` (``make vnu`` installs it into ``node_modules/``, from
``package.json``) run with Java (Debian's ``default-jre-headless``); without either the test skips
and says which is missing. Every page is rendered by the test client and all are checked in one
run of the checker (its start-up is most of its time)."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.models import Deck
from decks.services import deck_data, deck_save
from simulations.runs import RunOptions, goldfish_run_start
from simulations.tasks import simulation_run_work
from tests.conftest import PASSWORD, ROOT
from tests.edits.makers import edit_pages
from tests.playtest.makers import playtest_pages
from tests.simulations.matchups.helpers import matchup_pages, played_matchup

VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def checker() -> list[str]:
    java = shutil.which("java")
    if java is None:
        pytest.skip("Java is not installed (apt-get install default-jre-headless): "
                    "the Nu HTML checker runs on it")
    if not VNU.exists():
        pytest.skip(f"the Nu HTML checker is not installed ({VNU.relative_to(ROOT)}): make vnu")
    return [java, "-Xss8m", "-jar", str(VNU)]


def main_pages(client: Client) -> list[str]:
    """Every kind of page a person reaches, signed in as ada, with a deck of her own, two
    goldfish runs, a playtest game under way, a finished one and a shared replay."""
    ada = User.objects.create_user("ada", password=PASSWORD)
    client.force_login(ada)
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    deck = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.PRIVATE)
    first = deck_data(deck)
    deck = deck_save(owner=ada, data=dataclasses.replace(first, name="Leaner"), deck=deck)
    runs = []
    for data, version in ((first, 1), (deck_data(deck), 2)):
        run, _ = goldfish_run_start(deck=data, options=RunOptions(games=4, seed=1), user=ada,
                                    requester=f"user:{ada.pk}", source=deck,
                                    source_version=version)
        simulation_run_work(run_id=run.pk, worker="test")
        runs.append(run)
    blades = Deck.objects.get(owner__username="samples", name="Mosfin Blades")
    matchup = played_matchup(ada, deck, blades)
    return [
        "/", "/cards/?q=t%3Atroop", "/cards/?q=t%3Atroop&view=list",
        "/cards/?q=t%3Atroop&view=text", "/cards/?q=f%3A", "/cards/demo-bog-hag/",
        "/sets/", "/sets/wof/",
        "/sets/demo/", "/search/help/", "/abilities/", "/abilities/fleetfoot/", "/decks/",
        f"/decks/{sample.pk}/", f"/decks/{sample.pk}/?view=type",
        f"/decks/{sample.pk}/?view=images", "/decks/public/?faction=kalim&card=warden",
        "/decks/public/?card=a", f"/decks/{sample.pk}/draw/?seed=7",
        f"/decks/{sample.pk}/draw/?seed=7&picks=spsp", "/decks/import/", "/decks/new/",
        f"/decks/{deck.pk}/", f"/decks/{deck.pk}/edit/", f"/decks/{deck.pk}/edit/?q=t%3Awanderer",
        f"/decks/{deck.pk}/history/", f"/decks/{deck.pk}/v/1/",
        f"/decks/compare/?a={deck.pk}:1&b={deck.pk}", "/decks/compare/", f"/decks/{deck.pk}/print/",
        f"/decks/{deck.pk}/goldfish/", f"/goldfish/{runs[0].pk}/",
        f"/goldfish/{runs[0].pk}/games/1/?round=2",
        f"/goldfish/compare/?a={runs[0].pk}&b={runs[1].pk}", "/goldfish/compare/",
        f"/decks/{deck.pk}/matchups/", f"/matchups/{matchup.pk}/",
        *playtest_pages(ada, deck), "/collection/",
        "/collection/allocation/", "/collection/import/", "/accounts/", "/no-such-page/",
        *edit_pages(ada), *matchup_pages(ada),
    ]


def errors_by_page(command: list[str], pages: dict[str, str], folder: Path) -> dict[str, Any]:
    files = {}
    for number, (url, html) in enumerate(pages.items()):
        path = folder / f"page-{number}.html"
        path.write_text(html, encoding="utf-8")
        files[path.name] = url
    done = subprocess.run([*command, "--format", "json", "--stdout", *map(str, folder.iterdir())],
                          capture_output=True, text=True, timeout=600, check=False)
    found: dict[str, list[str]] = {}
    for message in json.loads(done.stdout)["messages"]:
        if message["type"] == "error" or message.get("subType") == "fatal":
            name = message.get("url", "?").rsplit("/", 1)[-1]
            url = files.get(name, name)
            found.setdefault(url, []).append(
                f"line {message.get('lastLine')}: {message['message']} "
                f"[{message.get('extract', '').strip()[:80]}]")
    return found


@pytest.mark.django_db
def test_the_nu_html_checker_finds_no_error_on_the_main_pages(client: Client,
                                                              tmp_path: Path) -> None:
    command = checker()
    pages = {}
    for url in main_pages(client):
        answer = client.get(url)
        assert answer.status_code in (200, 400, 404), (url, answer.status_code)
        pages[url] = answer.content.decode()
    pages["/accounts/login/ (signed out)"] = Client().get("/accounts/login/").content.decode()
    pages["/accounts/signup/ (signed out)"] = Client().get("/accounts/signup/").content.decode()
    found = errors_by_page(command, pages, tmp_path)
    assert found == {}, json.dumps(found, indent=1)


def test_the_checker_reports_an_error_it_is_shown(tmp_path: Path) -> None:
    """The check is not vacuous: a page with a bare htmx attribute and a skipped heading level
    fails it, so a silent checker (no output, a changed format) cannot pass the test above."""
    command = checker()
    bad = ("<!doctype html><html lang=en><head><title>x</title></head><body>"
           '<h1>x</h1><h3>y</h3><a href="/" hx-get="/">z</a></body></html>')
    found = errors_by_page(command, {"/bad/": bad}, tmp_path)
    messages = " ".join(found.get("/bad/", []))
    assert "hx-get" in messages and "heading" in messages, found
