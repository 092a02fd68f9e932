"""Running a management command in a test as a user would: its exit code, stdout, stderr."""

from __future__ import annotations

import io
import sys

from django.core.management import call_command


def run_command(command: str, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """(exit code, stdout, stderr); ``stdin`` feeds commands that read '-'."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    try:
        call_command(command, *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()
