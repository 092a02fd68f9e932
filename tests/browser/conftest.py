"""Browser tests: pytest-playwright drives Debian's chromium (never a downloaded browser)
against pytest-django's live_server. Run by `make test-browser`, apart from the main suite."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings as django_settings
from django.test import TransactionTestCase

from tests.browser.person import Person

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
# each test commits and is flushed, and the test database as django_db_setup left it (both
# catalogues and the sample decks, tests/conftest.py) comes back before the next. On SQLite it
# is copied back whole (database_restored below); elsewhere Django's serialized rollback saves
# its rows again one by one, over a second of CPU a test.
ON_SQLITE = django_settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
LIVE_DATABASE = pytest.mark.django_db(transaction=True, serialized_rollback=not ON_SQLITE)


@pytest.fixture(scope="session")
def database_snapshot(django_db_setup: None,
                      django_db_blocker: Any) -> Iterator[sqlite3.Connection | None]:
    """On SQLite, a copy in memory of the test database as django_db_setup left it."""
    from django.db import connection

    if not ON_SQLITE:
        yield None
        return
    with django_db_blocker.unblock():
        connection.ensure_connection()
        snapshot = sqlite3.connect(":memory:", check_same_thread=False)
        connection.connection.backup(snapshot)
    flush = TransactionTestCase._fixture_teardown  # type: ignore[attr-defined]

    def copy_back_instead_of_flushing(test_case: TransactionTestCase) -> None:
        # After a browser test the copy, not Django's flush: a flush empties every table, then
        # its post_migrate signal makes the content types and permissions again, and the next
        # browser test overwrites all of it with the copy anyway (about 0.5 s of CPU a test).
        if restore_at_teardown:
            restore_at_teardown.clear()
            restore_database(snapshot)
        else:
            flush(test_case)

    TransactionTestCase._fixture_teardown = copy_back_instead_of_flushing  # type: ignore[attr-defined]
    yield snapshot
    TransactionTestCase._fixture_teardown = flush  # type: ignore[attr-defined]
    snapshot.close()


# Set while a browser test runs on SQLite: its teardown copies the snapshot back.
restore_at_teardown: list[bool] = []


def restore_database(snapshot: sqlite3.Connection) -> None:
    """SQLite's backup copies the snapshot's pages over the test database, whatever it holds
    (milliseconds for the two catalogues)."""
    from django.db import connection

    connection.ensure_connection()
    snapshot.backup(connection.connection)


@pytest.fixture(autouse=True)
def database_restored(transactional_db: None, database_snapshot: sqlite3.Connection | None) -> None:
    """On SQLite, every browser test starts from the test database as django_db_setup left it,
    and leaves it so (the copy again, not a flush)."""
    if database_snapshot is not None:
        restore_database(database_snapshot)
        restore_at_teardown[:] = [True]


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


def sign_in(page: Any, site: str, username: str) -> Any:
    """A new user, already signed in: their session cookie in the browser (signing up and
    logging in have journeys of their own)."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from tests.conftest import PASSWORD

    user = User.objects.create_user(username, password=PASSWORD)
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie,
                               "url": site}])
    return user


@pytest.fixture
def csp_violations(page: Any) -> Iterator[list[str]]:
    """Every Content-Security-Policy refusal the page reports; a test ends with none."""
    found: list[str] = []
    page.on("console", lambda message: found.append(message.text)
            if "Content Security Policy" in message.text else None)
    yield found
    assert found == [], found


@pytest.fixture(params=["mouse", "keyboard"])
def person(request: pytest.FixtureRequest, page: Any) -> Person:
    """Each journey twice: with the mouse, then with the keyboard alone."""
    return Person(page, keyboard=request.param == "keyboard")


WORKER_CHUNK_GAMES = 10  # small chunks: a run of a few dozen games still shows its progress


class GoldfishWorker:
    """A real background worker (``manage.py db_worker``, as ``make run`` starts one) on the
    live server's database, started when the test says: a page can show a run waiting first."""

    def __init__(self, database_url: str, var: Path) -> None:
        self.env = {**os.environ, "DATABASE_URL": database_url, "ALLEGIANCE_VAR_DIR": str(var),
                    "GOLDFISH_CHUNK_GAMES": str(WORKER_CHUNK_GAMES),
                    "DJANGO_DEBUG": "1"}  # as the test process: no production-only settings
        self.env.pop("SIMULATIONS_HOLD_AFTER_LEASE", None)
        self.log = var / "worker.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        root = Path(__file__).resolve().parents[2]
        with self.log.open("w") as output:  # a file, not a pipe nobody drains while it works
            self.process = subprocess.Popen(
                [sys.executable, str(root / "manage.py"), "db_worker", "--no-reload",
                 "--no-startup-delay", "--interval", "0.2"],
                cwd=root, env=self.env, stdout=output, stderr=subprocess.STDOUT)

    def stop(self) -> str:
        """Stop it (a chunk cut short loses only its lease); what it printed."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""


@pytest.fixture
def goldfish_worker(live_server: Any, settings: Any,
                    tmp_path_factory: pytest.TempPathFactory) -> Iterator[GoldfishWorker]:
    """Stopped after the test, before the database is flushed; it must not have crashed."""
    from django.db import connection

    database = connection.settings_dict
    if database["ENGINE"] == "django.db.backends.sqlite3":
        url = f"sqlite:///{database['NAME']}"
    else:  # the suite's server, the test database
        url = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{database['NAME']}"))
    settings.GOLDFISH_CHUNK_GAMES = WORKER_CHUNK_GAMES  # the live server cuts the runs
    worker = GoldfishWorker(url, tmp_path_factory.mktemp("worker"))
    yield worker
    output = worker.stop()
    assert "Traceback" not in output, output
