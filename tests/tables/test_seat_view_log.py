"""Where a view's log starts in the table's story (tables.seat_view): as far back as the
LOG_LINES lines the viewer may read, never further than three times that, so that only the
lines shown are formatted. No database."""

from __future__ import annotations

import pytest

from tables.seat_view import LOG_LINES, _log_start

OWN, OTHER, TABLE = 0, 1, -1  # the viewer's seat, another seat, the table's own lines


def story(*runs: tuple[int, str, int]) -> list[tuple[int, int, str]]:
    """Runs of (seat, text, count) lines, in order."""
    return [(0, seat, text) for seat, text, count in runs for _ in range(count)]


@pytest.mark.parametrize(("lines", "viewer", "start"), [
    (story((TABLE, "Round 1", 50)), OWN, 0),  # fewer lines than a log: all of them
    (story((OWN, "Drew Ospin", 1000)), OWN, 1000 - LOG_LINES),  # his own draws he reads
    (story((OTHER, "Played a card", 1000)), OWN, 1000 - LOG_LINES),
    # another's draws hidden, one line in two (the even ones): twice as far back
    (story((OTHER, "Drew Ospin", 1), (OTHER, "Played a card", 1)) * 500, OWN,
     1000 - 2 * LOG_LINES + 1),
    # nothing readable: no further back than three times a log
    (story((OTHER, "Drew Ospin", 1000)), OWN, 1000 - 3 * LOG_LINES),
    # a spectator reads no seat's draw
    (story((OWN, "Drew Ospin", 1000)), -1, 1000 - 3 * LOG_LINES),
])
def test_a_views_log_starts_at_the_last_lines_the_viewer_may_read(
        lines: list[tuple[int, int, str]], viewer: int, start: int) -> None:
    assert _log_start(lines, viewer) == start
