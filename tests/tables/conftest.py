"""What every tables test starts from."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tables.presence import forget_stamps


@pytest.fixture(autouse=True)
def no_requests_stamped() -> Iterator[None]:
    """Each test's tables and people start unseen: the process's memory of the requests it
    stamped (tables.presence.table_seen) would outlive the test's rolled-back rows."""
    forget_stamps()
    yield
    forget_stamps()
