"""The console e-mail backend (no mail server): messages printed as plain 8-bit text, so that a
link copied from the console works."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.mail import EmailMessage
from django.core.mail.backends.console import EmailBackend as DjangoConsole
from django.test import Client

from sitewide.console_mail import EmailBackend
from tests.accounts.queued_mail import deliver_queued_mail

pytestmark = pytest.mark.django_db

SECRET = "a-long-Secret-42"


def printed(backend: type, message: Any) -> str:
    stream = io.StringIO()
    backend(stream=stream).send_messages([message])
    return stream.getvalue()


def test_the_verification_link_printed_on_the_console_works_when_copied(
        client: Client, mailoutbox: list[Any]) -> None:
    client.post("/accounts/signup/", {"username": "ada", "email": "ada@example.org",
                                      "password1": SECRET, "password2": SECRET,
                                      "next": "/cards/?q=t%3Atroop"})
    assert deliver_queued_mail() == ["link"]  # what the background worker does
    [mail] = mailoutbox
    text = printed(EmailBackend, mail)
    assert "Content-Transfer-Encoding: 8bit" in text and "quoted-printable" not in text
    # What a person copies: the line that starts with the address, as it was printed.
    [line] = [line for line in text.splitlines() if line.startswith("http://testserver/")]
    assert line == re.search(r"http://\S+", mail.body).group(0)  # type: ignore[union-attr]
    page = Client().get(line.removeprefix("http://testserver"))
    assert page.status_code == 200 and "Address verified" in page.content.decode()


def test_django_s_own_console_backend_would_break_the_link() -> None:
    # Why the backend exists: a line over 78 characters is quoted-printable, cut by "=".
    link = "http://127.0.0.1:8000/accounts/verify/MQ/" + "c" * 40 + "-" + "f" * 32 + "/"
    message = EmailMessage("Confirm", f"Follow:\n\n{link}\n", "a@example.org", ["b@example.org"])
    assert link not in printed(DjangoConsole, message)
    assert link in printed(EmailBackend, message)


def test_non_ascii_text_and_html_alternatives_are_printed_as_written() -> None:
    from django.core.mail import EmailMultiAlternatives

    message = EmailMultiAlternatives("Grüße", "Très bien: " + "x" * 120, "a@example.org",
                                     ["b@example.org"])
    message.attach_alternative("<p>Très bien</p>", "text/html")
    text = printed(EmailBackend, message)
    assert "Très bien: " + "x" * 120 in text and "<p>Très bien</p>" in text
