"""unlock_logins [USERNAME ...] [--address IP ...] : lift login locks (accounts.lockout)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts import lockout


class Command(BaseCommand):
    help = ("Forget the failed logins of accounts or client addresses, lifting any lock on "
            "them. Usernames are matched without case, as the lockout counts them.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("usernames", nargs="*", metavar="USERNAME")
        parser.add_argument("--address", action="append", default=[], metavar="IP",
                            help="a client address, as the site sees it; may be repeated")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["usernames"] and not options["address"]:
            raise CommandError("Name at least one USERNAME or --address.")
        for username in options["usernames"]:
            lockout.clear(username=username)
            self.stdout.write(f"unlocked account {username}")
        for address in options["address"]:
            lockout.clear(address=address)
            self.stdout.write(f"unlocked address {address}")
