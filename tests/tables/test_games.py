"""The games each process keeps in play (tables.games): sized by TABLE_CACHE_SIZE, the least
recently used dropped first; a game another process moved on caught up by its new moves, not
replayed; replayed after an undo; shared by the views of every seat; kept before the sockets
are told."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from playtest.table_play import TableGame
from rules.game import seats
from tables import services
from tables.games import TableGames, replayed
from tables.models import Table
from tables.seat_view import seat_view
from tests.tables.calls import SAMPLES, person, sample, started, view
from tests.tables.makers import sample_deck

pytestmark = pytest.mark.django_db


def against_ai(name: str, seed: int = 3) -> tuple[User, Table]:
    """A started table of ``name`` (seat 0) against one AI seat."""
    user = User.objects.create_user(name)
    table = services.table_create(host=user, deck=sample_deck(SAMPLES[0]), size=2, seed=seed,
                                  target=15, ai=[(1, sample_deck(SAMPLES[1]))])
    return user, services.table_start(table=table, user=user)


def moved_on(table: Table, user: User, count: int) -> Table:
    """``user`` plays his first legal move ``count`` times, as another process would."""
    for _ in range(count):
        assert seats.to_move(replayed(table).table) == 0
        table = services.table_act(table=table, user=user, decision=table.decision, index=0)
    return Table.objects.get(pk=table.pk)


def seen(game: TableGame) -> Any:
    return seat_view(game, 0, ["ada", "AI"], decision=game.decisions)


def test_the_cache_holds_as_many_games_as_the_setting_says_least_recently_used_dropped() \
        -> None:
    tables = [against_ai(f"p{n}", seed=n)[1] for n in range(3)]
    games = TableGames()
    with override_settings(TABLE_CACHE_SIZE=2):
        for table in tables[:2]:
            games.put(table, replayed(table))
        with games.reading(tables[0]):  # the first is now the most recently used
            pass
        games.put(tables[2], replayed(tables[2]))
        assert len(games) == 2
        assert tables[0] in games and tables[2] in games and tables[1] not in games
    with override_settings(TABLE_CACHE_SIZE=0):
        games.put(tables[0], replayed(tables[0]))
        assert len(games) == 0


def test_the_cache_size_setting_comes_from_the_environment() -> None:
    from django.core.exceptions import ImproperlyConfigured

    from config.env_settings import whole_number

    assert whole_number("TABLE_CACHE_SIZE", "200", 64) == 200
    assert whole_number("TABLE_CACHE_SIZE", None, 64) == 64
    with pytest.raises(ImproperlyConfigured, match="TABLE_CACHE_SIZE"):
        whole_number("TABLE_CACHE_SIZE", "many", 64)


def test_a_game_another_process_moved_on_catches_up_without_a_replay() -> None:
    ada, table = against_ai("ada")
    here = TableGames(size=4)
    here.put(table, replayed(table))
    table = moved_on(table, ada, 3)  # by another process: this one's game is 3 moves behind
    assert len(table.moves) >= 3
    with here.reading(table) as game:
        assert game.decisions == len(table.moves)
        assert seen(game) == seen(replayed(table))
    table = moved_on(table, ada, 1)
    taken = here.take(table)
    assert taken.decisions == len(table.moves)
    assert seen(taken) == seen(replayed(table))
    assert here.replays == 0


def test_a_game_is_replayed_after_an_undo_and_never_read_ahead_of_the_row() -> None:
    ada, table = against_ai("ada")
    here = TableGames(size=4)
    before = table
    table = moved_on(table, ada, 2)
    here.put(table, replayed(table))
    with here.reading(before) as game:  # a row read before the moves: the kept game is ahead
        assert game.decisions == 0
    assert here.replays == 1
    table.moves, table.undos = table.moves[:1], table.undos + 1  # an undo: one move fewer
    with here.reading(table) as game:
        assert game.decisions == 1 and seen(game) == seen(replayed(table))
    assert here.replays == 2
    here.put(before, replayed(before))  # an earlier state never replaces a later one
    with here.reading(table) as game:
        assert game.decisions == 1
    assert here.replays == 2


def test_a_read_steps_back_from_a_game_a_write_took() -> None:
    _, table = against_ai("ada")
    here = TableGames(size=4)
    here.put(table, replayed(table))
    taken = here.take(table)
    with here.reading(table) as game:
        assert game is not taken
    assert here.replays == 1
    here.put(table, taken)  # the write's game, put back once committed
    assert here.take(table) is taken


class TellingLock:
    """A lock that says when someone is about to wait for it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waited = threading.Event()

    def __enter__(self) -> None:
        if self.lock.locked():
            self.waited.set()
        self.lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


def test_a_read_that_finds_no_game_waits_for_anothers_replay_and_borrows_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, table = against_ai("ada")
    here = TableGames(size=4)
    lock = TellingLock()
    monkeypatch.setattr(here, "replay_lock", lambda table: lock)
    borrowed: list[TableGame] = []

    def another_read() -> None:  # another seat's view, in a thread of the same process
        with here.reading(table) as game:
            borrowed.append(game)

    with here.reading(table) as game:  # none kept: this read replays it
        other = threading.Thread(target=another_read)
        other.start()
        assert lock.waited.wait(timeout=30), "the other read replayed the game itself"
    other.join(timeout=30)
    assert borrowed == [game] and here.replays == 1


def test_the_views_of_every_seat_share_one_game() -> None:
    ada, bob = person("ada"), person("bob")
    table_id = started(ada, [bob], ai=[{"seat": 2, "deck": sample(SAMPLES[2])}])["id"]
    services.TABLES.clear()
    replays = services.TABLES.replays
    for client in (ada, bob, ada, bob):
        view(client, table_id)
    assert services.TABLES.replays == replays + 1


def test_a_move_keeps_its_game_before_the_sockets_are_told(
        monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any) -> None:
    ada, table = against_ai("ada")
    services.TABLES.clear()
    kept_when_told: list[bool] = []
    monkeypatch.setattr(services, "announce_change",
                        lambda pk, version: kept_when_told.append(table in services.TABLES))
    with django_capture_on_commit_callbacks(execute=True):
        services.table_act(table=table, user=ada, decision=table.decision, index=0)
    assert kept_when_told == [True]
