"""The mails to an address (a sign-up's, a new address's) and of a password reset, sent by
the background worker (Django's tasks API; ``manage.py db_worker`` runs them, as it plays
goldfish runs).

The page that asks for one does the same work whatever the address: it checks the form,
counts the mail against the visitor's e-mail throttle and queues the task; whether the address
belongs to an account is looked up here, later, so neither the answer nor its time tells.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urljoin, urlsplit

from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.http import HttpRequest
from django.tasks import task
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.services import timeout_hours, verification_path

log = logging.getLogger(__name__)

RESET_SUBJECT = "registration/password_reset_subject.txt"
RESET_EMAIL = "registration/password_reset_email.html"


def address_mail_queue(*, request: HttpRequest, user: User, next_url: str = "") -> None:
    """Queue the mail to the user's address (sign-up, a new address, "send it again");
    ``next_url``: the page its link offers to go back to."""
    address_mail_send.enqueue(user.pk, site_url(request), next_url)


def password_reset_mail_queue(*, request: HttpRequest, email: str) -> None:
    password_reset_mail_send.enqueue(email, site_url(request))


def site_url(request: HttpRequest) -> str:
    """The site's root as the visitor reached it, for the links in the mails."""
    return request.build_absolute_uri("/")


@task()
def address_mail_send(user_id: int, site_url: str, next_url: str = "") -> str:
    """The mail to an account's address: the link that confirms it, or, when another account
    already uses the address, a word to that mailbox's owner instead (the account keeps the
    address unconfirmed; one mailbox vouches for one account). Returns what it sent: ``link``,
    ``notice``, ``failed`` (the mail server refused it) or ``nothing`` (the account is gone or
    has no address)."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email:
        return "nothing"
    others = list(User.objects.filter(email__iexact=user.email).exclude(pk=user.pk)
                  .order_by("pk").values_list("username", flat=True))
    context: dict[str, Any] = {"user": user, "site": urlsplit(site_url).netloc,
                               "hours": timeout_hours(), "others": others,
                               "reset": urljoin(site_url, reverse("password_reset"))}
    if others:
        kind, template = "notice", "registration/signup_notice_email.txt"
        subject = "Your address was given to another account on Allegiance DB"
    else:
        kind, template = "link", "registration/verification_email.txt"
        context["link"] = urljoin(site_url, verification_path(user=user, next_url=next_url))
        subject = render_to_string("registration/verification_subject.txt", context).strip()
    try:
        send_mail(subject, render_to_string(template, context), None, [user.email])
    except OSError:  # smtplib's errors are OSErrors; the account page offers to send it again
        log.exception("could not send the sign-up e-mail to user %s", user.pk)
        return "failed"
    return kind


@task()
def password_reset_mail_send(email: str, site_url: str) -> int:
    """Django's reset mail to each active account with this address and a usable password;
    returns how many were sent (0 for an address no account has)."""
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        return 0
    parts = urlsplit(site_url)
    users = list(form.get_users(form.cleaned_data["email"]))
    if users:
        form.save(domain_override=parts.netloc, use_https=parts.scheme == "https",
                  subject_template_name=RESET_SUBJECT, email_template_name=RESET_EMAIL)
    return len(users)
