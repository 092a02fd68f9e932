"""The console log (config/settings.py LOGGING): every record once."""

from __future__ import annotations

import logging

import pytest

from config import settings as site_settings


@pytest.mark.parametrize(("debug", "name", "printed"), [
    (True, "django.request", False),  # Django's own console handler prints it with DEBUG
    (True, "django.channels.server", False),  # the development server's request lines
    (True, "tables.services", True),
    (False, "django.request", True),  # without DEBUG Django's console is silent: the root's
    (False, "tables.services", True),
])
def test_the_root_console_leaves_django_s_records_to_django_s_own_console_with_debug(
        monkeypatch: pytest.MonkeyPatch, debug: bool, name: str, printed: bool) -> None:
    monkeypatch.setattr(site_settings, "DEBUG", debug)
    keep = site_settings._not_printed_by_django()
    record = logging.LogRecord(name, logging.WARNING, __file__, 1, "x", None, None)
    assert keep(record) is printed
