"""Playtests against AI opponents: start, the player's moves only, the opponents moving in
between, undo to the player's decisions, the policy for the player, and replay from the seed."""

from __future__ import annotations

import re
from typing import Any

import pytest

from decks.deck_input import deck_from_text
from decks.models import Deck
from decks.services import deck_data
from playtest.game_display import game_context, game_view
from playtest.models import PlaytestGame
from playtest.play import Move, Refused
from playtest.services import (
    TABLES,
    Opponent,
    playtest_apply,
    playtest_auto,
    playtest_start_from,
    playtest_surrender,
    playtest_undo,
)
from playtest.table import COMBAT_STEPS, attacking_seat, controlled_fight, fight_elsewhere
from playtest.table_play import PLAYER, TableSource, action_text, seat_line, seat_name
from rules.game import engine, rivalry, seats
from rules.game.actions import Action
from rules.game.config import GameConfig
from rules.game.engine import DeckNotPlayable
from rules.game.seats import new_table
from rules.game.table_policy import SeatPolicy
from rules.rng import derive_seed
from tests.rules.game.engine_helpers import catalogue, sample

pytestmark = pytest.mark.django_db


def opponents(*names: str) -> list[Opponent]:
    return [(deck_data(d), d) for d in (Deck.objects.get(name=n) for n in names)]


def new_game(seed: int = 5, target: int = 15, n: int = 2) -> PlaytestGame:
    deck = Deck.objects.get(name="Kalim Faithful")
    return playtest_start_from(
        user=None, session_token="s-1", deck_id=deck.pk, seed=seed, target=target,
        opponents=opponents(*["Mosfin Blades", "Guild Merchants", "Guild Veterans",
                              "Kalim Crusaders", "Mosfin Senate"][:n]))


def stored(game: PlaytestGame) -> PlaytestGame:
    return PlaytestGame.objects.get(pk=game.pk)


def first_or_pass(game: PlaytestGame) -> dict[str, Any]:
    view = game_view(game)
    actions = game_context(view)["menu"]["actions"]
    return next((row for row in actions if row["kind"] == "pass"), actions[0])


@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_table_game_waits_at_the_players_first_decision(n: int) -> None:
    game = stored(new_game(n=n))
    assert game.at_table and len(game.opponents) == n and game.decisions == 0
    assert game.config["players"] == n + 1 and game.config["seated"] is True
    assert [o["source_deck"] for o in game.opponents][:1] == [
        Deck.objects.get(name="Mosfin Blades").pk]
    played = game.table_source().replay(game.actions)
    assert seats.to_move(played.table) == PLAYER and played.legal()


def test_a_table_of_six_refuses_decks_with_too_few_wanderers_for_six() -> None:
    # "No less than three wanderers multiplied by the number of players": the sample decks
    # hold 12 or 13, enough for 4 players, not 6; nothing is stored.
    with pytest.raises(DeckNotPlayable, match="a table of 6 needs at least 18") as refused:
        new_game(n=5)
    assert [p.code for p in refused.value.problems] == ["wanderer_pile_too_small"]
    assert not PlaytestGame.objects.exists()


def test_a_deck_the_engine_cannot_play_names_the_opponent() -> None:
    deck = Deck.objects.get(name="Kalim Faithful")
    with pytest.raises(DeckNotPlayable, match="Opponent 1"):
        playtest_start_from(user=None, session_token="s-1", deck_id=deck.pk,
                            opponents=[(deck_from_text("Initial Holdings\n1 Bowman (kalim)"),
                                        None)])
    assert not PlaytestGame.objects.exists()


def test_only_the_players_actions_are_stored_and_the_opponents_move_in_between() -> None:
    game = new_game()
    for _ in range(12):
        row = first_or_pass(game)
        game, _ = playtest_apply(game=game, decision=game.decisions, index=row["index"])
    game = stored(game)
    assert game.decisions == len(game.actions) == 12
    lines = game_view(game).log
    assert any(line.seat == 1 for line in lines) and any(line.seat == 2 for line in lines)
    assert [line.decision for line in lines if line.decision] == list(range(1, 13))
    assert all(line.text.startswith("You: ") for line in lines if line.decision)
    # The table's own lines name the seats as the page does.
    assert any(line.text.startswith("Round 1: the lead player is ") and line.kind == "round"
               for line in lines)
    assert not any(re.search(r"\bseat \d", line.text) for line in lines)
    assert any(line.text.startswith("Seat 2 (Mosfin Blades): ") for line in lines)


def test_the_table_replayed_is_the_same_as_a_table_played_by_hand() -> None:
    """The opponents' moves are deterministic given the seed: a table played directly with
    the same player's moves ends where the stored game replays to."""
    game, _ = playtest_auto(game=new_game(), until="game")
    game = stored(game)
    assert game.outcome and game.decisions == len(game.actions) > 10
    source = game.table_source()
    table = new_table(source.prepared(), game.seed, source.config)
    policies = [SeatPolicy("greedy", derive_seed(game.seed, "policy", s)) for s in range(3)]
    while not table.outcome:
        seat = seats.to_move(table)
        assert seats.apply(table, policies[seat](table, seat, seats.legal_actions(table))).ok
    assert table.decisions == source.replay(game.actions).table.decisions
    assert game.state == source.replay(game.actions).state.to_dict()  # the player's seat


@pytest.mark.parametrize(
    ("kwargs", "status", "code"),
    [({"decision": 0, "index": 0}, 409, "stale_decision"),
     ({"decision": 1, "index": 99}, 400, "illegal_action"),
     ({"decision": 1, "action": {"kind": "attack", "target": 1, "option": "all"}}, 400,
      "illegal_action")],
    ids=["replayed-click", "no-such-number", "not-legal-now"],
)
def test_a_stale_or_illegal_move_at_a_table_is_refused(kwargs: dict[str, Any], status: int,
                                                       code: str) -> None:
    game, _ = playtest_apply(game=new_game(), decision=0, index=0)
    before = stored(game)
    with pytest.raises(Refused) as refused:
        playtest_apply(game=game, **kwargs)
    assert (refused.value.status, refused.value.code) == (status, code)
    assert stored(game).actions == before.actions and stored(game).state == before.state


@pytest.mark.parametrize("k", [0, 1, 7])
def test_undo_goes_back_to_the_players_decision_k(k: int) -> None:
    game, _ = playtest_auto(game=new_game(), until="game")
    everything = list(stored(game).actions)
    TABLES.tables.clear()
    game = stored(playtest_undo(game=game, decision=k))
    assert game.actions == everything[:k] and game.decisions == k and not game.outcome
    fresh = new_game()
    for _ in range(k):
        fresh, _ = playtest_auto(game=fresh, until="action")
    assert stored(fresh).state == game.state


def test_the_policy_plays_for_the_player_one_move_or_the_phase() -> None:
    game, move = playtest_auto(game=new_game(), until="action")
    assert len(move.actions) == 1 and stored(game).decisions == 1
    assert move.lines[0] == "You: Draw from the Personality Pile."
    game, move = playtest_auto(game=game, until="phase", decision=1)
    game = stored(game)
    assert len(move.actions) == game.decisions - 1 and game.decisions > 2
    # The opponents drew in turn after the player (the maintenance goes seat by seat).
    assert any(line.startswith("Seat 2 (Mosfin Blades): ") for line in move.lines)


def test_a_finished_table_refuses_more_moves() -> None:
    game, _ = playtest_auto(game=new_game(), until="game")
    with pytest.raises(Refused, match="over"):
        playtest_auto(game=game, until="action")
    with pytest.raises(Refused, match="over"):
        playtest_apply(game=game, decision=game.decisions, index=0)


def test_the_page_context_shows_each_opponents_visible_side() -> None:
    game = new_game(n=2)
    context = game_context(game_view(game))
    sides = context["opponents"]
    assert [s["title"] for s in sides] == ["Seat 2 (Mosfin Blades)", "Seat 3 (Guild Merchants)"]
    for side in sides:
        assert side["stronghold"] is not None and side["hand"] >= 0
        assert {t["kind"] for t in side["personal"]} == {"economic", "religious", "political"}
    assert context["table"]["to_move"] == PLAYER and context["menu"]["count"] >= 1


def test_the_log_hides_the_cards_an_opponent_draws_but_not_the_players() -> None:
    game, _ = playtest_auto(game=new_game(), until="phase")
    texts = [line.text for line in game_view(stored(game)).log]
    assert any(t.startswith("You: Drew ") for t in texts)
    assert any(t.startswith("Seat 2 (Mosfin Blades): Draw from the ") for t in texts)
    assert not any(t.startswith("Seat ") and ": Drew " in t for t in texts)


def test_the_moves_post_the_players_decision_not_the_seat_engines() -> None:
    game, _ = playtest_auto(game=new_game(), until="phase")
    game, _ = playtest_auto(game=game, until="phase", decision=stored(game).decisions)
    context = game_context(game_view(stored(game)))
    assert context["menu"]["decision"] == context["decision"] == stored(game).decisions
    assert game_view(stored(game)).state.decisions != stored(game).decisions  # they differ


def test_a_move_continues_the_table_in_play_and_a_stale_entry_is_never_used(
        monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any) -> None:
    TABLES.tables.clear()
    replays: list[int] = []
    real = TableSource.replay

    def counted(self: TableSource, actions: Any, upto: int | None = None,
                **kwargs: Any) -> Any:
        replays.append(len(actions) if upto is None else upto)
        return real(self, actions, upto, **kwargs)

    monkeypatch.setattr(TableSource, "replay", counted)
    game = new_game()  # the new table goes into the cache
    with django_capture_on_commit_callbacks(execute=True):
        game, _ = playtest_auto(game=game, until="action")
    with django_capture_on_commit_callbacks(execute=True):
        game, _ = playtest_auto(game=game, until="action", decision=1)
    game_context(game_view(stored(game)))  # the page: read, and put back
    assert replays == [0]  # only the start's
    # A game whose actions changed behind the cache's back is replayed, not continued.
    PlaytestGame.objects.filter(pk=game.pk).update(actions=stored(game).actions[:1],
                                                   decisions=1)
    game_view(stored(game))
    assert replays == [0, 1]


def test_a_game_given_the_id_of_a_deleted_one_never_gets_its_table() -> None:
    TABLES.tables.clear()
    old = new_game(seed=5)  # its table is cached under its id
    old_id = old.pk
    old.delete()
    new = new_game(seed=6)
    PlaytestGame.objects.filter(pk=new.pk).update(id=old_id)  # as SQLite may give it again
    again = PlaytestGame.objects.get(pk=old_id)
    assert game_view(again).state.to_dict() == again.state


def test_an_exhausting_rival_ability_names_the_card_it_aims_at() -> None:
    # Crusade, Discredit and Influence aim at one of another player's cards: the move says
    # which ("use_on" targets a seat; the card is in the option, rules/game/rivalry.py).
    decks = ["kalim-crusaders.txt", "guild-veterans.txt"]
    table = new_table([engine.prepare(sample(d), catalogue()) for d in decks], 1,
                      GameConfig(target=25))
    state = victim = table.state
    bell = next(i for i in range(len(state.cards)) if state.card(i).name == "Bell of Judgement")
    troop = next(i for i in table.seat(1).zones["personality_pile"]
                 if victim.card(i).name == "Sellsword")
    action = Action("use_on", bell, 1, rivalry.exhaust_option("crusade", troop))
    assert action_text(table, PLAYER, action, ["Kalim Crusaders", "Guild Veterans"]) == (
        "Use Bell of Judgement: Crusade on Seat 2 (Guild Veterans)'s Sellsword (exhaust it)")
    assert action_text(table, PLAYER, Action("use_on", bell, 1, "extort"), None) == (
        "Use Bell of Judgement: Extort on Seat 2")


@pytest.mark.parametrize(("seat", "owner", "text"), [
    (PLAYER, 1, "Bribe Seat 2 (Mosfin Blades)'s Silverblade Retainer to go home"),
    (1, PLAYER, "Bribe your Silverblade Retainer to go home"),
    (PLAYER, PLAYER, "Bribe Silverblade Retainer to go home"),
], ids=["another-seats-troop", "the-players-troop-by-another", "a-troop-of-ones-own"])
def test_a_bribe_of_another_seats_troop_names_his_seat(seat: int, owner: int, text: str
                                                       ) -> None:
    decks = ["mosfin-blades.txt", "mosfin-blades.txt"]
    table = new_table([engine.prepare(sample(d), catalogue()) for d in decks], 1,
                      GameConfig(target=25))
    state = table.state
    retainer = next(i for i in range(len(state.cards)) if state.owner[i] == owner
                    and state.cards[i] == "demo-silverblade-retainer")
    names = ["Mosfin Blades", "Mosfin Blades"]
    assert action_text(table, seat, Action("bribe", retainer), names) == text


def play_player_until(played: Any, there: Any, *, attacks: bool = True,
                      limit: int = 4000) -> None:
    """The player's moves by the greedy seat policy (attacking whenever he may, when
    ``attacks``) until ``there(table)`` holds at one of his decisions."""
    chooser = SeatPolicy("greedy", 7)
    for _ in range(limit):
        table = played.table
        if seats.to_move(table) == PLAYER and there(table):
            return
        legal = played.legal()
        assert legal, "the game ended first"
        attack = next((a for a in legal if a.kind == "attack"), None) if attacks else None
        played.apply_player(attack or chooser(table, PLAYER, legal), Move())
    raise AssertionError("the player's game never got there")


def player_attacking() -> tuple[PlaytestGame, Any, Any]:
    """A 2-seat table game (seed 3), played to the player's first decision in an attack of
    his on the other seat: the game, its view and the played table."""
    game = new_game(seed=3, target=40)
    view = game_view(game)
    played = view.played
    assert played is not None
    play_player_until(played, lambda table: table.hosting is not None
                      and table.hosting.origin == PLAYER)
    return game, view, played


def test_a_player_who_attacks_another_seat_assigns_his_own_troops() -> None:
    # "The attacking player makes assignments first": the player's attack asks him, and the
    # page shows the battle from his troops' side.
    game, view, played = player_attacking()
    context = game_context(view)
    rows = context["menu"]["actions"]
    assert rows[-1]["kind"] == "truce"  # he may also offer to end his attack
    rows = rows[:-1]
    kinds = {row["kind"] for row in rows}
    assert kinds <= {"separate", "joint"} and kinds
    combat = context["table"]["combat"]
    assert context["table"]["step_title"] == "Your attack: " + COMBAT_STEPS["assign"]
    assert played.table.hosting is not None
    defender = played.table.hosting.host
    assert combat["title"] == f"Your attack on {seat_name(defender, game.seat_names())}"
    assert combat["turn"] == "you" and combat["them"] == "Defenders"
    sent = {entry["instance"] for entry in combat["yours"]}
    assert sent and all(row["action"]["card"] in sent for row in rows)
    # The defender's cards named with his seat (both decks may hold the same card).
    seat = seat_name(defender, game.seat_names())
    assert all(f"{seat}'s " in row["text"] for row in rows)


def test_a_player_who_attacks_may_end_the_combat_when_the_defender_agrees() -> None:
    # "A combat not involving wanderers may be ended at any time if both players agree":
    # the player offers, the AI defender agrees, the attack ends and the story says so.
    game, view, played = player_attacking()
    hosting = played.table.hosting
    assert hosting is not None
    defender = hosting.host
    row = game_context(view)["menu"]["actions"][-1]
    assert row["text"] == (f"Offer {seat_name(defender, game.seat_names())} to end the "
                           "combat here (both must agree)")
    played.apply_player(seats.TRUCE, Move())
    story = [(seat, text) for _, seat, text in played.table.story or []]
    offer = story.index((PLAYER, "offers to end the combat."))
    assert story[offer + 1] == (defender, "agrees: the combat ends.")


def test_a_player_who_attacks_another_seat_modifies_first_in_his_attack() -> None:
    # "Starting with the attacking player and rotating left each player can use one ability
    # or event": the player's attack asks him first in the modification step.
    game = new_game(seed=3, target=40)
    view = game_view(game)
    played = view.played
    assert played is not None

    def at_modification(table: Any) -> bool:
        hosting = table.hosting
        fight = None if hosting is None else table.state.combat
        return hosting is not None and hosting.origin == PLAYER and fight is not None \
            and fight.step == "modify"
    play_player_until(played, at_modification)
    hosting = played.table.hosting
    assert hosting is not None
    fight = played.table.state.combat
    assert fight is not None
    context = game_context(view)
    assert context["table"]["step_title"] == "Your attack: " + COMBAT_STEPS["modify"]
    actions = context["menu"]["actions"]
    assert [row["kind"] for row in actions[-2:]] == ["done", "truce"]
    assert fight.modifiers[0] == PLAYER


def test_the_players_troops_away_in_his_attack_are_shown_away_from_home() -> None:
    # The troops he sends are on the defender's battlefield while the attack lasts: his own
    # defensive holdings show them away ("attacking"), the others at home as they are.
    game = new_game(seed=3, target=40)
    view = game_view(game)
    played = view.played
    assert played is not None
    play_player_until(played, lambda table: table.hosting is not None
                      and table.hosting.origin == PLAYER and table.hosting.kind == "attack")
    sent = set(played.table.state.combat.wild) if played.table.state.combat else set()
    assert sent
    home = game_context(view)["table"]["defensive"]
    defender = played.table.hosting.host if played.table.hosting else -1
    for entry in home:
        away = entry["instance"] in sent
        assert entry.get("away", False) == away
        assert (f"attacking seat {defender + 1}" in entry["label"]) == away
    assert any(entry.get("away") for entry in home)


def test_a_player_asked_in_another_seats_hunt_sees_that_hunts_step() -> None:
    # "Players may use abilities during any phase": at his turn of the modification step of
    # the AI seat's hunt the player may crusade one of its troops; the step title names that
    # hunt, not his own Military Phase ("Hunt your row ...").
    deck = Deck.objects.get(name="Kalim Crusaders")
    game = playtest_start_from(user=None, session_token="s-1", deck_id=deck.pk, seed=2,
                               target=40, opponents=opponents("Guild Veterans"))
    view = game_view(game)
    played = view.played
    assert played is not None
    names = game.seat_names()

    def asked_elsewhere(table: Any) -> bool:
        there = table.state
        return there.player != PLAYER and there.combat is not None \
            and controlled_fight(played, names) is None
    play_player_until(played, asked_elsewhere, attacks=False)
    context = game_context(view)
    hunter = played.table.state.player
    assert context["table"]["step_title"] == (f"{seat_name(hunter, names)}'s hunt: "
                                              + COMBAT_STEPS["modify"])
    texts = [row["text"] for row in context["menu"]["actions"]]
    assert texts[-1] == "Done" and all("Crusade on" in text for text in texts[:-1])
    # The battle he may change is shown as that seat's, with the troops he may exhaust.
    combat = context["table"]["combat"]
    hunter_name = seat_name(hunter, names)
    assert combat["title"] == f"{hunter_name}'s hunt"
    assert combat["us"] == f"{hunter_name}'s side" and combat["them"] == "Wanderers"
    assert {e["name"] for e in combat["yours"]} >= {t.split("'s ")[-1].split(" (")[0]
                                                    for t in texts[:-1]}


def test_a_player_surrenders_at_any_time_and_the_ai_seats_play_on() -> None:
    # At a table of three the two AI seats play the game out once the player is out.
    game = new_game(seed=5, n=2)
    game, move = playtest_surrender(game=game, decision=game.decisions)
    played = game_view(game).played
    assert played is not None
    table = played.table
    assert table.out[PLAYER][1] == seats.SURRENDERED
    assert table.outcome, (table.round, table.stage, seats.to_move(table), table.decisions)
    assert table.winner in (1, 2)
    assert move.texts == ["Surrender"]
    assert stored(game).actions == [{"kind": "surrender", "card": -1, "target": -1,
                                     "option": ""}]


def test_surrender_is_refused_once_the_player_is_out() -> None:
    game = new_game(seed=5, n=2)
    game, _ = playtest_surrender(game=game, decision=game.decisions)
    with pytest.raises(Refused) as refused:
        playtest_surrender(game=stored(game), decision=game.decisions)
    assert refused.value.code == "game_over"


@pytest.mark.parametrize(("seat", "text", "line"), [
    (0, "Discard Hall of Whispers from your hand.",
     "You: Discard Hall of Whispers from your hand."),
    (2, "Discard Hall of Whispers from your hand.",
     "Seat 3 (Mosfin Senate): Discard Hall of Whispers from his hand."),
    (1, "Declare a hunt against your wanderer row.",
     "Seat 2 (Mosfin Blades): Declare a hunt against his wanderer row."),
    (1, "attacks seat 1 with Sellsword.", "Seat 2 (Mosfin Blades): attacks you with Sellsword."),
], ids=["yours", "an-opponents-hand", "an-opponents-row", "names-the-player"])
def test_a_story_line_is_worded_from_the_players_seat(seat: int, text: str, line: str) -> None:
    names = ["Kalim Faithful", "Mosfin Blades", "Mosfin Senate"]
    assert seat_line(seat, text, names) == line


def test_a_player_controls_the_wanderers_of_a_raid_on_another_seat() -> None:
    # "If your wanderers attack another player then you control all wanderers during the
    # combat. If they attack you then the player to your left controls all wanderers": at a
    # table of two, the player decides every raid on the AI seat, from the wanderers' side.
    game = new_game(seed=3, target=40)
    view = game_view(game)
    played = view.played
    assert played is not None
    names = game.seat_names()

    def controls(table: Any) -> bool:
        found = controlled_fight(played, names)
        return found is not None and "wanderers" in found[2]
    play_player_until(played, controls, attacks=False)
    controlled = controlled_fight(played, names)
    assert controlled is not None
    context = game_context(view)
    title = context["table"]["step_title"]
    assert title.startswith(("Your wanderers: ", "You control the wanderers: "))
    combat = context["table"]["combat"]
    assert combat["title"] == controlled[1]
    assert combat["yours"] and all(entry["type"] == "wanderer" for entry in combat["yours"])


def test_a_player_asked_in_an_attack_between_two_other_seats_sees_whose_troops_attack() -> None:
    # Asked at his turn of the modification step (a ready Crusade) of Seat 2's attack on
    # Seat 3, or Seat 3's on Seat 2: the attacking troops are named as that seat's.
    deck = Deck.objects.get(name="Kalim Crusaders")
    game = playtest_start_from(user=None, session_token="s-1", deck_id=deck.pk, seed=2,
                               target=40, opponents=opponents("Mosfin Blades", "Guild Veterans"))
    view = game_view(game)
    played = view.played
    names = game.seat_names()

    def asked_in_an_attack(table: Any) -> bool:
        return fight_elsewhere(played) is not None and attacking_seat(table) not in (-1, PLAYER)
    play_player_until(played, asked_in_an_attack, attacks=False)
    table = played.table
    fight = table.state.combat
    assert table.hosting is not None and fight is not None
    attacker, defender = (seat_name(s, names) for s in (table.hosting.origin,
                                                        table.hosting.host))
    combat = game_context(view)["table"]["combat"]
    assert combat["title"] == f"{defender}'s combat" and combat["us"] == f"{defender}'s side"
    assert combat["them"] == attacker and combat["their"] == f"{attacker}'s"
    assert {e["instance"] for e in combat["wanderers"]} == set(fight.wild)
