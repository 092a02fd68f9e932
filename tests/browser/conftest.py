"""Browser tests: pytest-playwright drives Debian's chromium (never a downloaded browser)
against pytest-django's live_server. Run by `make test-browser`, apart from the main suite."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("ALLEGIANCE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
AXE = Path(__file__).parent / "vendor" / "axe.min.js"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Debian's chromium is not installed ({CHROMIUM}): apt-get install chromium")
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None,
                                 tmp_path_factory: pytest.TempPathFactory) -> None:
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        # A file (in WAL mode), not SQLite's shared in-memory database, whose table locks
        # fail the live server's requests while a test flushes instead of making them wait.
        path = tmp_path_factory.mktemp("db") / "browser.sqlite3"
        database.setdefault("TEST", {})["NAME"] = str(path)


@pytest.fixture(scope="session", autouse=True)
def sync_playwright_beside_django() -> Iterator[None]:
    # Playwright's sync API keeps an event loop running in this thread for the whole session;
    # the ORM calls of the tests and of pytest-django are still plain synchronous ones.
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if before is None:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


# Every browser test module marks itself with this: a real server sees only committed rows, so
# each test commits and is flushed, and the serialized state (both catalogues and the sample
# decks, tests/conftest.py) comes back before the next.
LIVE_DATABASE = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def site(live_server: Any) -> str:
    """The live server's address."""
    return str(live_server.url)


@pytest.fixture
def page(page: Any) -> Any:
    page.set_default_timeout(15_000)  # two busy cores: a slow swap is not a failure
    # Card images are drawn on first request (the test catalogue has none yet): heavy, and
    # tested on their own (tests/cards/test_images.py), so the browser does not fetch them.
    page.route("**/image/*.webp*", lambda route: route.abort())
    return page


@pytest.fixture
def csp_violations(page: Any) -> Iterator[list[str]]:
    """Every Content-Security-Policy refusal the page reports; a test ends with none."""
    found: list[str] = []
    page.on("console", lambda message: found.append(message.text)
            if "Content Security Policy" in message.text else None)
    yield found
    assert found == [], found
