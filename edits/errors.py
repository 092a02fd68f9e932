"""Why a card edit service refused: each error carries the HTTP status, a stable code and a
message for people, so the API answers a problem document and a page shows the same words."""

from __future__ import annotations

from typing import Any


class EditError(Exception):
    """A refusal. Nothing was written when a service raises one."""

    status = 400
    code = "invalid"

    def __init__(self, detail: str, *, code: str | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        # Further keys of the problem document (errors, conflicts, ...).
        self.extra = extra


class EditInvalid(EditError):
    """Bad input: ``errors`` maps each key at fault (``changes.offense``, ``source``, ...) to
    its messages."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        shown = "; ".join(f"{key}: {' '.join(messages)}" for key, messages in errors.items())
        super().__init__(f"The edit is not valid, nothing was stored. {shown}", errors=errors)
        self.errors = errors


class EditForbidden(EditError):
    status = 403
    code = "forbidden"


class EditNotFound(EditError):
    status = 404
    code = "not_found"


class EditClosed(EditError):
    """The edit is no longer open (applied, rejected, cancelled or expired)."""

    status = 409
    code = "edit_closed"


class EditConflict(EditError):
    """A field the edit changes has changed since it was proposed; ``conflicts`` lists each as
    ``{"field", "proposed_against", "current", "proposed"}``. The edit stays open."""

    status = 409
    code = "conflict"

    def __init__(self, detail: str, conflicts: list[dict[str, Any]]) -> None:
        super().__init__(detail, conflicts=conflicts)
        self.conflicts = conflicts
