"""The links of unlisted decks a visitor has followed, kept in their session.

An unlisted deck ("anyone with the link") is reached by ``/s/<share_token>``, never by its
number: following the link records its token here, and from then on this session may open
the deck's pages by number too (its print view, goldfish, draws, history), as its owner can.
A token the owner's deck no longer has, or a deck made private again, opens nothing.
"""

from __future__ import annotations

from typing import Any

SESSION_KEY = "deck_links"
HELD = 50  # the latest links followed; an older one is followed again to be read again


def links_held(session: Any) -> list[str]:
    held = session.get(SESSION_KEY) if session is not None else None
    return [token for token in held if isinstance(token, str)] if isinstance(held, list) else []


def link_remember(session: Any, token: str) -> None:
    held = [token, *(t for t in links_held(session) if t != token)][:HELD]
    session[SESSION_KEY] = held
