"""The e-mail backend of a site without a mail server: each message printed on the console as
plain 8-bit text, so that a link in it can be copied whole.

Django's console backend prints the message as it would travel, and Python's e-mail package
encodes any body with a line over 78 characters as quoted-printable: a verification link then
breaks at a ``=`` over two lines and the first line, copied, is a broken link. Here every text
part is printed in 8-bit, its lines as they were written.
"""

from __future__ import annotations

import email.policy
from typing import Any

from django.core.checks import CheckMessage, Error, Tags, register
from django.core.mail.backends import console

# RFC 5322's limit on a line; 8-bit text needs no shorter one.
LINE_LIMIT = 998


class EmailBackend(console.EmailBackend):
    def write_message(self, message: Any) -> None:
        msg = message.message(policy=email.policy.default.clone(max_line_length=LINE_LIMIT))
        for part in msg.walk():
            if part.get_content_maintype() == "text" and not part.is_attachment():
                part.set_content(part.get_content(), subtype=part.get_content_subtype(),
                                 cte="8bit")
        self.stream.write(msg.as_bytes().decode("utf-8", "replace") + "\n")
        self.stream.write("-" * 79 + "\n")


@register(Tags.mail, deploy=True)
def check_console_mail_in_production(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Django's own deploy check (mail.E001) for its console backend, extended to this one:
    the same id, so the same DJANGO_EMAIL_CONSOLE=1 says that printed mail is meant."""
    from django.conf import settings

    backend = getattr(settings, "MAILERS", {}).get("default", {}).get("BACKEND", "")
    if backend != f"{__name__}.EmailBackend":
        return []
    return [Error(f"Your MAILERS setting uses a development-only email backend in the "
                  f"'default' entry ({backend}).",
                  hint="Set EMAIL_HOST (and its friends) so that e-mail is sent by SMTP.",
                  id="mail.E001")]
