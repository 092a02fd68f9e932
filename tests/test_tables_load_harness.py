"""The logic of the tables' load run (bench/load/table_figures.py) by tables, without starting
anything: the time from a move's POST until every other seat is told, each kind of move lost
or applied twice, hidden cards in a view; and the proxy that sends a table's requests to one
server (deploy/nginx.conf, as `make load-tables` and `make serve-prod` fill it in)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from bench.load.table_figures import (
    MoveSent,
    Told,
    check_moves,
    hidden_seen,
    latencies,
    summary_lines,
)
from deploy.stack import BY_TABLE, LEAST_CONN, nginx_config

SEATS = {1: [0, 1, 2]}


@pytest.mark.parametrize(("told", "expected_ms", "untold"), [
    # both others told of version 5: the slower one counts
    ([Told(1, 1, 5, 10.05), Told(1, 2, 5, 10.12)], [120.0], 0),
    # a later version tells of this move too
    ([Told(1, 1, 6, 10.2), Told(1, 2, 5, 10.1)], [200.0], 0),
    # a message before the POST (an older version) does not count
    ([Told(1, 1, 4, 9.9), Told(1, 1, 5, 10.03), Told(1, 2, 5, 10.04)], [40.0], 0),
    # seat 2 never told: no time, one move untold
    ([Told(1, 1, 5, 10.05)], [], 1),
    # the mover's own socket does not count
    ([Told(1, 0, 5, 10.5), Told(1, 1, 5, 10.01), Told(1, 2, 5, 10.02)], [20.0], 0),
])
def test_a_move_counts_until_every_other_seat_is_told(told: list[Told], expected_ms: list[float],
                                                       untold: int) -> None:
    moves = [MoveSent(1, 0, 3, 10.0, 200, 5, 10.01),
             MoveSent(1, 0, 3, 10.0, 409)]  # a refused twin has no time of its own
    found = latencies(moves, told, SEATS)
    assert found.ms == pytest.approx(expected_ms) and found.untold == untold
    # the same time counted from the POST's answer (at 10.01): the sockets' own delay
    assert found.after_answer_ms == pytest.approx([ms - 10 for ms in expected_ms])


@pytest.mark.parametrize(("moves", "stored", "problems", "counts"), [
    # every acknowledged move stored at its decision by its seat; a twin refused as stale
    ([MoveSent(1, 0, 0, 1.0, 200, 2), MoveSent(1, 0, 0, 1.0, 409), MoveSent(1, 1, 1, 2.0, 200, 3)],
     {1: [0, 1]}, [], (2, 1)),
    # acknowledged, not stored: lost
    ([MoveSent(1, 0, 0, 1.0, 200, 2), MoveSent(1, 1, 1, 2.0, 200, 3)],
     {1: [0]}, ["acknowledged but is not stored"], (2, 0)),
    # both twins answered 200: applied twice (and one more stored move than told)
    ([MoveSent(1, 0, 0, 1.0, 200, 2), MoveSent(1, 0, 0, 1.0, 200, 2)],
     {1: [0, 0]}, ["applied 2 times"], (2, 0)),
    # stored as another seat's move
    ([MoveSent(1, 0, 0, 1.0, 200, 2)], {1: [1]}, ["stored as seat 1's move"], (1, 0)),
    # stored, never acknowledged
    ([MoveSent(1, 0, 0, 1.0, 200, 2)], {1: [0, 1]}, ["1 stored moves nobody was told"], (1, 0)),
    # a move whose answer never came may be stored
    ([MoveSent(1, 0, 0, 1.0, 200, 2), MoveSent(1, 1, 1, 2.0, 0)], {1: [0, 1]}, [], (1, 0)),
])
def test_moves_lost_or_applied_twice_are_found(moves: list[MoveSent], stored: dict[int, list[int]],
                                               problems: list[str],
                                               counts: tuple[int, int]) -> None:
    verdict = check_moves(moves, stored)
    assert len(verdict.problems) == len(problems)
    for problem, expected in zip(verdict.problems, problems, strict=True):
        assert expected in problem
    assert (verdict.applied, verdict.stale) == counts


@pytest.mark.parametrize(("view", "hand", "public", "hidden"), [
    # own hand and public cards only
    ({"hand": [{"id": "a"}], "seats": [{"in_play": [{"id": "b"}]}]}, ["a"], {"b": 1}, []),
    # another seat's card (not public, not in the viewer's hand)
    ({"hand": [{"id": "a"}], "seats": [{"in_play": [{"id": "c"}]}]}, ["a"], {}, ["c"]),
    # a second copy beyond the one the viewer may see
    ({"hand": [{"id": "a"}, {"id": "a"}]}, ["a"], {}, ["a"]),
    # a spectator's view: no hand
    ({"seats": [{"piles": [{"discard": [{"id": "d"}]}]}]}, [], {"d": 1}, []),
    # the battle names again a card in play: counted once
    ({"seats": [{"in_play": [{"id": "b"}]}], "combat": {"sides": [{"cards": [{"id": "b"}]}]}},
     [], {"b": 1}, []),
    # the battle names a card the rest of the view does not: another seat's hand
    ({"seats": [{"in_play": [{"id": "b"}]}], "combat": {"sides": [{"cards": [{"id": "c"}]}]}},
     [], {"b": 1}, ["c"]),
])
def test_hidden_cards_in_a_view_are_found(view: object, hand: list[str], public: dict[str, int],
                                          hidden: list[str]) -> None:
    assert hidden_seen(view, hand, Counter(public)) == hidden


def test_the_summary_says_whether_the_goal_was_met() -> None:
    found = latencies([MoveSent(1, 0, 0, 1.0, 200, 2, 1.05)],
                      [Told(1, 1, 2, 1.1), Told(1, 2, 2, 1.2)], SEATS)
    lines = summary_lines(found, check_moves([], {}), 0, 3, [50.0], [20.0])
    assert "p95 200" in lines[1] and lines[-1].endswith("MISSED")
    assert lines[3].startswith("  last other seat told, after the POST's answer (ms): p50 150")


def table_key(config: str, path: str) -> str | None:
    """The table nginx's ``map $uri $table`` finds in ``path`` (None: the request's own key),
    the map's pattern read from the configuration (PCRE's ``(?<name>`` is Python's
    ``(?P<name>``)."""
    found = re.search(r"map \$uri \$table \{\s*~(\S+) \$table_number;", config)
    assert found is not None, "the configuration has no map of the table"
    match = re.match(found.group(1).replace("(?<", "(?P<"), path)
    return match.group("table_number") if match else None


@pytest.mark.parametrize(("path", "table"), [
    ("/api/tables/12/view/", "12"),
    ("/api/tables/12/actions/", "12"),
    ("/tables/12/", "12"),
    ("/tables/12/fragment/", "12"),
    ("/ws/tables/12/", "12"),
    ("/api/tables/", None),
    ("/tables/invite/Xy12/", None),
    ("/api/cards/12/", None),
    ("/tables/new/", None),
])
def test_the_tables_proxy_keys_a_request_by_its_table(path: str, table: str | None) -> None:
    config = nginx_config(Path("/tmp/run"), "127.0.0.1:8000", [9001, 9002], BY_TABLE)
    assert table_key(config, path) == table


def test_the_tables_proxy_hashes_on_the_table_and_passes_the_socket_upgrade_on() -> None:
    config = nginx_config(Path("/tmp/run"), "0.0.0.0:8000", [9001, 9002, 9003], BY_TABLE)
    assert "\n        hash $table consistent;\n" in config
    assert "\n        least_conn;\n" not in config
    assert "listen 0.0.0.0:8000;" in config
    assert all(f"server 127.0.0.1:{port};" in config for port in (9001, 9002, 9003))
    socket = config[config.index("location /ws/"):config.index("location / {")]
    assert "proxy_set_header Upgrade $http_upgrade;" in socket
    assert 'proxy_set_header Connection "upgrade";' in socket
    assert "@" not in config.replace("$", "")
    site = nginx_config(Path("/tmp/run"), 8080, [9001], LEAST_CONN)
    assert "\n        least_conn;\n" in site
    assert "\n        hash $table consistent;\n" not in site
