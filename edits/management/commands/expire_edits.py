"""expire_edits : expire the open card edits that went CARD_EDIT_EXPIRE_DAYS without a vote,
and settle the others by their votes as the rules stand today; delete the scans uploaded with
the edit form a day ago and never submitted. For a daily cron; the site also expires lazily, on
every write to the edits."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from edits.pending_scans import pending_scans_sweep
from edits.services import edits_expire, edits_settle


class Command(BaseCommand):
    help = ("Expire open card edits with no vote for CARD_EDIT_EXPIRE_DAYS days, and apply or "
            "reject the open ones whose votes now decide them.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        expired = edits_expire()
        settled = edits_settle()
        swept = pending_scans_sweep()
        if options["format"] == "json":
            self.stdout.write(json.dumps({"expired": expired, "settled": settled,
                                          "unsubmitted_scans_deleted": swept}))
        else:
            self.stderr.write(f"{len(expired)} edit(s) expired, {len(settled)} settled by votes, "
                              f"{swept} unsubmitted scan(s) deleted")
