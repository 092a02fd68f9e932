"""Playing one game by hand at a table (rules/game/seats.py), refereed: solo or with others.

Pure Python (no Django). A solo playtest is a table of one, played exactly as the solo game
of its deck and seed. In the playtest the one person is seat 1 (index 0) and seats 2 on are
the opponents; at an online table (the tables app) any set of seats are people. Every
other seat is played by the greedy seat policy (rules/game/table_policy.py). A game is
its :class:`TableSource` (every seat's deck as played and card facts, the options, the seed)
plus the people's actions only: the AI seats' moves are deterministic given the seed and the
people's moves, so replaying those actions from the seed, letting the AI seats move whenever
it is their turn, rebuilds the table exactly. No table is ever serialized.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from playtest.play import (
    MAX_POLICY_ACTIONS,
    LogLine,
    Move,
    Refused,
    Until,
    log_lines,
    named_action,
    outcome_sentence,
)
from rules.cards import CardFacts
from rules.decklist import Decklist
from rules.game import combat, engine, rivalry, seats
from rules.game.actions import Action, describe
from rules.game.config import GameConfig
from rules.game.narrate import narrate
from rules.game.profile import profiles_from_facts
from rules.game.seats import Table
from rules.game.state import Combat, GameState
from rules.game.table_policy import SeatPolicy
from rules.game.vocabulary import TOKEN_KINDS, Phase, Step
from rules.rng import derive_seed

PLAYER: Final = 0  # the player's seat (index); the opponents sit from index 1
MAX_OPPONENTS: Final = 5  # a table seats 2 to 6
# The player's surrender, stored among his actions ("a player may surrender at any time":
# seats.surrender, not one of the legal actions).
SURRENDER: Final = "surrender"
# A token trade two people agreed on at an online table (the rulebook allows trading tokens
# at any time), stored among the people's moves: not one of the engine's actions.
TRADE: Final = "trade"


@dataclass(frozen=True)
class TableSource:
    """Everything a table game is replayed from: seat 0 is the player's deck."""

    decks: tuple[Decklist, ...]  # each seat's deck as played (Initial Holdings chosen)
    facts: tuple[Mapping[str, Mapping[str, Any]], ...]  # each seat's card facts
    config: GameConfig  # the options asked for (new_table sets players and seating)
    seed: int

    def prepared(self) -> list[engine.Prepared]:
        decks = []
        for deck, seat_facts in zip(self.decks, self.facts, strict=True):
            facts = {cid: dict(f) for cid, f in seat_facts.items()}
            decks.append(engine.Prepared(deck, profiles_from_facts(facts), facts, self.config))
        return decks

    def replay(self, actions: Sequence[Mapping[str, Any]], upto: int | None = None, *,
               record: bool = True) -> TableGame:
        """The table after the player's first ``upto`` actions (all by default), the
        opponents having moved up to the player's next decision."""
        game = TableGame(seats.new_table(self.prepared(), self.seed, self.config,
                                         record=record), self.seed)
        game.opponents_move(Move())
        for number, data in enumerate(actions[:upto], start=1):
            move = Move()
            try:
                game.apply_player(Action.from_dict(dict(data)), move)
            except Refused:  # only an edited database or another rules version gets here
                raise ValueError(f"action {number} of the game was refused") from None
        return game

    def replay_moves(self, moves: Sequence[tuple[int, Mapping[str, Any]]],
                     persons: frozenset[int], upto: int | None = None) -> TableGame:
        """The table after the people's first ``upto`` moves, each ``(seat, action)``, the
        AI seats (every seat not in ``persons``) having moved up to a person's decision."""
        game = TableGame(seats.new_table(self.prepared(), self.seed, self.config, record=True),
                         self.seed, persons=persons)
        game.opponents_move(Move())
        play_moves(game, moves[:upto])
        return game


def play_moves(game: TableGame, moves: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
    """Play the stored moves ``game`` lacks (those after its first ``game.decisions``), each
    ``(seat, action)``: a replay from the start, or a kept game catching up."""
    for number, (seat, data) in enumerate(moves[game.decisions:], start=game.decisions + 1):
        try:
            if data.get("kind") == TRADE:
                game.apply_trade(int(data["from"]), seat, list(data["give"]),
                                 list(data["take"]),
                                 [int(i) for i in data.get("give_cards", ())],
                                 [int(i) for i in data.get("take_cards", ())])
                continue
            game.apply_player(Action.from_dict(dict(data)), Move(), seat=seat)
        except Refused:  # only an edited database or another rules version gets here
            raise ValueError(f"move {number} of the table was refused") from None


def table_start(decks: Sequence[Decklist], catalogue: Mapping[str, CardFacts], config: GameConfig,
                seed: int) -> tuple[TableSource, TableGame]:
    """A new game of the player's deck (first) against the others (none: solo); raises
    :class:`rules.game.engine.DeckNotPlayable` naming the deck at fault."""
    prepared = []
    for number, deck in enumerate(decks):
        try:
            prepared.append(engine.prepare(deck, catalogue, config))
        except engine.DeckNotPlayable as error:
            if len(decks) == 1:  # solo: the deck is the only one
                raise
            who = "Your deck" if number == PLAYER else f"Opponent {number} " \
                  f"({deck.name or 'unnamed'})"
            raise engine.DeckNotPlayable(f"{who}: {error}", error.problems) from None
    source = TableSource(tuple(p.deck for p in prepared), tuple(p.facts for p in prepared),
                         config, seed)
    return source, source.replay([])


@dataclass
class TableGame:
    """A table being played, and the log built as it is (the story, with the people's
    actions numbered by decision). A :class:`~playtest.play.Move` made here holds the
    people's actions and every line the table told meanwhile, the AI seats' moves
    included, each naming its seat."""

    table: Table
    seed: int
    decisions: int = 0  # the people's actions applied
    persons: frozenset[int] = frozenset({PLAYER})  # the seats people play; AI the others
    # (story index, decision) of each player action's first line in the story
    marks: list[tuple[int, int]] = field(default_factory=list)
    # lines of people's actions that told nothing themselves: (story index, decision, text,
    # seat)
    extra: list[tuple[int, int, str, int]] = field(default_factory=list)

    @property
    def state(self) -> GameState:
        """The table's one state (the player's cards: ``state.seats[PLAYER]``)."""
        return self.table.state

    def standing(self) -> tuple[Phase, Step, Combat | None]:
        """Where the player stands: phase, step, the combat he is the player of."""
        return seats.standing(self.table, PLAYER)

    @property
    def over(self) -> bool:
        return bool(self.table.outcome)

    @property
    def solo(self) -> bool:
        """A table of one: its story is the solo game's, told from the seat's events."""
        return self.table.players == 1

    @property
    def playing(self) -> bool:
        """Whether the player is still in the game (it goes on, and he is not out)."""
        return self.seat_playing(PLAYER)

    def seat_playing(self, seat: int) -> bool:
        """Whether ``seat`` is still in the game (it goes on, and he is not out)."""
        return not self.table.outcome and seat not in self.table.out

    def policies(self) -> list[SeatPolicy]:
        return [SeatPolicy("greedy", derive_seed(self.seed, "policy", seat))
                for seat in range(self.table.players)]

    def _story_len(self) -> int:
        return len(self.table.story or [])

    def _told_since(self, start: int, names: Sequence[str] | None, move: Move) -> None:
        for _, seat, text in (self.table.story or [])[start:]:
            if not hidden(seat, text):
                move.lines.append(seat_line(seat, text, names))

    def opponents_move(self, move: Move, names: Sequence[str] | None = None) -> None:
        """The AI seats play (the greedy seat policy) until a person decides or the game is
        over."""
        table = self.table
        policies = self.policies()
        start = self._story_len()
        for _ in range(MAX_POLICY_ACTIONS):
            seat = seats.to_move(table)
            if seat < 0 or seat in self.persons:
                break
            result = seats.apply(table, policies[seat](table, seat, seats.legal_actions(table)))
            if not result.ok:  # the policy picks among the legal actions: never
                raise RuntimeError(result.reason)
        self._told_since(start, names, move)

    def apply_player(self, action: Action, move: Move, names: Sequence[str] | None = None,
                     *, seat: int = PLAYER) -> None:
        """Apply the legal action of ``seat``, a person's (or his surrender, at any time),
        then let the AI seats move."""
        table = self.table
        surrendering = action.kind == SURRENDER
        if seats.to_move(table) != seat and not (surrendering and self.seat_playing(seat)):
            raise Refused("game_over", f"The game is over ({table.outcome}).", status=409,
                          current_decision=self.decisions)
        cards = len(self.state.cards)
        for number in (action.card, action.target):
            if not -1 <= number < cards:  # (a stored action of another game, or edited)
                raise Refused("illegal_action", f"There is no card number {number} at this "
                              "table.", current_decision=self.decisions)
        text = "Surrender" if surrendering else action_text(table, seat, action, names, seat)
        start = self._story_len()
        told = len(self.state.events or ())
        result = seats.surrender(table, seat) if surrendering else seats.apply(table, action)
        if not result.ok:
            raise Refused("illegal_action", result.reason, current_decision=self.decisions)
        self.decisions += 1
        if self.solo:
            move.actions.append(action)
            move.texts.append(text)
            move.lines += self._solo_lines(told)
            return
        if self._story_len() > start:
            self.marks.append((start, self.decisions))
        else:
            self.extra.append((start, self.decisions, text, seat))
            move.lines.append(seat_line(seat, text + ".", names, seat))
        move.actions.append(action)
        move.texts.append(text)
        self._told_since(start, names, move)
        self.opponents_move(move, names)

    def _solo_lines(self, told: int) -> list[str]:
        """The solo story of the events since the seat's ``told`` first (one move's)."""
        events = self.state.events
        if events is None:
            return []
        lines = narrate(self.state, events[told:])
        # narrate opens with the heading of the phase the move was made in: not news.
        if lines and lines[0].startswith("-- "):
            lines = lines[1:]
        return [line.strip().removeprefix("> ") for line in lines if line.strip()]

    def apply_trade(self, giver: int, taker: int, give: Sequence[int],
                    take: Sequence[int], give_cards: Sequence[int] = (),
                    take_cards: Sequence[int] = ()) -> None:
        """``giver`` hands ``give`` tokens (economic, religious, political) and ``give_cards``
        (his cards in play, by instance) to ``taker`` for ``take`` tokens and ``take_cards`` of
        his, at once. Refused (409 not_enough_tokens, 409 card_trade_refused with the rule's
        reason: seats.trade_problem) when either lacks them, with nothing changed; counted as
        a decision of the people."""
        table = self.table
        for seat, paid in ((giver, give), (taker, take)):
            if not self.seat_playing(seat):
                raise Refused("game_over", f"Seat {seat + 1} is not in the game.", status=409,
                              current_decision=self.decisions)
            if any(have < n for have, n in zip(table.seat(seat).personal, paid, strict=True)):
                raise Refused("not_enough_tokens",
                              f"Seat {seat + 1} has not the tokens this trade asks of him.",
                              status=409, current_decision=self.decisions)
        if give_cards or take_cards:
            traded = seats.trade_cards(table, giver, taker, give_cards, take_cards)
            if not traded.ok:  # (nothing moved: seats.trade_problem's reason)
                raise Refused("card_trade_refused", traded.reason, status=409,
                              current_decision=self.decisions)
            state = table.state  # (a card's name is its own, whoever owns it now)
            gave, took = (token_words(give), _card_names(state, give_cards)), \
                (token_words(take), _card_names(state, take_cards))
        else:
            gave, took = (token_words(give), ""), (token_words(take), "")
        for k in range(len(give)):
            table.seat(giver).personal[k] += take[k] - give[k]
            table.seat(taker).personal[k] += give[k] - take[k]
        self.decisions += 1
        table.tell(giver, f"trades {_trade_words(*gave)} to seat {taker + 1} for "
                          f"{_trade_words(*took)}.")

    def legal(self, seat: int = PLAYER) -> list[Action]:
        """The legal actions of ``seat`` now (none unless he decides now)."""
        if seats.to_move(self.table) != seat:
            return []
        return seats.legal_actions(self.table)

    def chosen(self, *, index: int | None = None,
               action: Mapping[str, Any] | None = None) -> Action:
        """The legal action a request names by index or by value (as
        :func:`playtest.play.chosen_action` does for a solo game)."""
        if self.over:
            raise Refused("game_over", f"The game is over ({self.table.outcome}).", status=409,
                          current_decision=self.decisions)
        if action is not None and action.get("kind") == SURRENDER:
            if not self.playing:
                raise Refused("game_over", "You are out of this game already.", status=409,
                              current_decision=self.decisions)
            return Action(SURRENDER)
        refusal = None
        if self.solo:  # the engine words why (on a copy: a refused action changes nothing)
            refusal = lambda wanted: engine.apply(self.state.clone(), wanted).reason  # noqa: E731
        return named_action(self.legal(), self.decisions, index=index, action=action,
                            refusal=refusal)

    def policy_index(self) -> int | None:
        """The index of the action the greedy seat policy would take for the player."""
        legal = self.legal()
        if not legal:
            return None
        choice = self.policies()[PLAYER](self.table, PLAYER, legal)
        return legal.index(choice)

    def play_policy(self, until: Until, move: Move,
                    names: Sequence[str] | None = None) -> None:
        """The greedy seat policy plays for the player: one action, to the end of the
        table's phase (its round and stage change), or to the end of the game."""
        table = self.table
        start = (table.round, table.stage)
        while not self.over and len(move.actions) < MAX_POLICY_ACTIONS:
            legal = self.legal()
            self.apply_player(self.policies()[PLAYER](table, PLAYER, legal), move, names)
            if until == "action" or (until == "phase" and (table.round, table.stage) != start):
                return

    def log(self, names: Sequence[str] | None = None, viewer: int = PLAYER,
            start: int = 0) -> list[LogLine]:
        """The table's story line by line as ``viewer`` (a seat, -1 for a spectator) may
        read it, each naming its seat, the people's actions numbered with their decision
        (undo to ``decision - 1`` takes one back); from its line ``start`` on."""
        if self.solo:
            return log_lines(self.state)[start:]
        story = self.table.story or []
        marks = dict(self.marks)
        extra: dict[int, list[tuple[int, str, int]]] = {}
        for at, decision, text, seat in self.extra:
            extra.setdefault(at, []).append((decision, text, seat))
        lines: list[LogLine] = []
        for at in range(min(start, len(story)), len(story) + 1):
            for decision, text, who in extra.get(at, []):
                lines.append(LogLine(seat_line(who, text + ".", names, viewer), "action",
                                     decision, who))
            if at == len(story):
                break
            _, seat, text = story[at]
            if hidden(seat, text, viewer):
                continue
            said = seat_line(seat, text, names, viewer)
            if seat < 0 and text.startswith("Game over") and viewer == PLAYER:
                # the engine's words are the seat's: the player reads his own end
                lines.append(LogLine(table_outcome(self.table, names), "round", None, None))
            elif seat < 0:
                kind = "round" if text.startswith("Round ") else "phase"
                lines.append(LogLine(said, kind, None, None))
            elif at in marks:
                lines.append(LogLine(said, "action", marks[at], seat))
            else:
                lines.append(LogLine(said, "event", None, seat))
        return lines


def _card_names(state: GameState, cards: Sequence[int]) -> str:
    return ", ".join(state.card(i).name for i in cards)


def _trade_words(tokens: str, cards: str) -> str:
    """One side of a trade in words: its cards, then its tokens ("nothing": neither)."""
    if not cards:
        return tokens
    return cards if tokens == "nothing" else f"{cards} and {tokens}"


def token_words(counts: Sequence[int]) -> str:
    """Tokens by kind in words: "2 economic, 1 political", or "nothing"."""
    return ", ".join(f"{n} {kind}" for n, kind in zip(counts, TOKEN_KINDS, strict=True)
                     if n) or "nothing"


def hidden(seat: int, text: str, viewer: int = PLAYER) -> bool:
    """A line ``viewer`` (a seat; -1 for a spectator) may not read: the card another seat
    drew (his hand is hidden; the line before says from which pile)."""
    return seat >= 0 and seat != viewer and text.startswith("Drew ")


def seat_name(seat: int, names: Sequence[str] | None = None, viewer: int = PLAYER) -> str:
    """"You" for the seat reading (``viewer``), "Seat 2 (Deck name)" for another."""
    if seat == viewer:
        return "You"
    if names and seat < len(names):
        return f"Seat {seat + 1} ({names[seat]})"
    return f"Seat {seat + 1}"


def whose(seat: int, names: Sequence[str] | None = None, viewer: int = PLAYER) -> str:
    """The possessive of :func:`seat_name`: "your", "Seat 2 (Deck name)'s"."""
    return "your" if seat == viewer else f"{seat_name(seat, names, viewer)}'s"


SEAT_WORD: Final = re.compile(r"\bseat (\d)\b")
YOUR_WORD: Final = re.compile(r"\byour\b")


def seat_line(seat: int, text: str, names: Sequence[str] | None = None,
              viewer: int = PLAYER) -> str:
    """A line of the table's story as ``viewer`` reads it: its seat first, and every seat it
    names ("attack seat 1") said as the page says it ("attack you", "Seat 2 (Deck)")."""
    def said(match: re.Match[str]) -> str:
        named = int(match.group(1)) - 1
        return "you" if named == viewer else seat_name(named, names, viewer)

    text = SEAT_WORD.sub(said, text)
    if seat >= 0 and seat != viewer:  # the engine words a seat's moves to it ("your hand")
        text = YOUR_WORD.sub("his", text)
    return text if seat < 0 else f"{seat_name(seat, names, viewer)}: {text}"


_ORDINALS: Final = ("first", "second", "third", "fourth", "fifth", "sixth")


def distinct_texts(state: GameState, actions: Sequence[Action], texts: Sequence[str]) -> list[str]:
    """``texts`` (the words of ``actions``), those that read alike told apart: two copies of a
    card ("Sellsword attacks Household Guard" twice, for two Guards) name which copy, as
    the board lists them in their zone ("the second Household Guard in the defensive
    holdings"). Solo or at a table, a person must be able to choose the card he means."""
    said: dict[str, list[int]] = {}
    for index, text in enumerate(texts):
        said.setdefault(text, []).append(index)
    out = list(texts)
    for indexes in said.values():
        if len(indexes) < 2:
            continue
        for index in indexes:
            action = actions[index]
            others = [actions[i] for i in indexes if i != index]
            # The operand the alike moves differ in: the target, the card acting, or (joining
            # one of two attacks on the same card) the attack's lead.
            if action.target >= 0 and any(a.target != action.target for a in others):
                out[index] = f"{texts[index]} ({_which_copy(state, action.target)})"
            elif action.card >= 0 and any(a.card != action.card for a in others):
                out[index] = f"{texts[index]} ({_which_copy(state, action.card)})"
            elif action.kind == "joint":
                lead = combat.lead_of(action.option)
                out[index] = f"{texts[index]} (the attack led by {_which_copy(state, lead)})"
        # Whatever is left alike (never expected) is at least numbered.
        seen: dict[str, int] = {}
        for index in indexes:
            seen[out[index]] = seen.get(out[index], 0) + 1
        if any(n > 1 for n in seen.values()):
            for number, index in enumerate(indexes, 1):
                out[index] = f"{out[index]} [{number}]"
    return out


def _which_copy(state: GameState, card: int) -> str:
    """"the second Household Guard in the defensive holdings": the copy's place among the
    copies of its card in its zone, in the zone's order (as the board lists them); the name
    alone for the only copy there."""
    where = state.where[card]
    zone = state.seats[state.owner[card]].zones.get(where, [])
    same = [i for i in zone if state.cards[i] == state.cards[card]]
    name = state.card(card).name
    if len(same) < 2:
        return name  # the only copy there: its name says which
    place = same.index(card)
    ordinal = _ORDINALS[place] if place < len(_ORDINALS) else f"#{place + 1}"
    return f"the {ordinal} {name} in the {_ZONE_WORDS.get(where, where.replace('_', ' '))}"


_ZONE_WORDS: Final = {"defensive": "defensive holdings", "private": "private holdings",
                      "wanderers": "wanderer row"}


def action_text(table: Table, seat: int, action: Action,
                names: Sequence[str] | None = None, viewer: int = PLAYER) -> str:
    """The action in words, as ``viewer`` reads it; the table's own actions name the other
    seat (``target`` is a seat there, not a card)."""
    state = table.state
    if action.kind == "attack" and action.option == "choose":
        return (f"Attack {seat_name(action.target, names, viewer)}, choosing the troops to "
                "send (an exhausted one for 3 tokens)")
    if action.kind == "done" and table.declaring is not None and seat == table.declaring.seat:
        return "Done sending troops" if table.declaring.sent else "Call the attack off"
    if action.kind == "attack":
        sent = seats.attackers(state, seat, action.option)
        held = " (holding your best defender back)" if action.option == "hold" else ""
        return (f"Attack {seat_name(action.target, names, viewer)} with "
                f"{', '.join(state.card(t).name for t in sent)}{held}")
    if action.kind == "hunt_row":
        return f"Hunt the wanderer row of {seat_name(action.target, names, viewer)}"
    if action.kind in ("separate", "joint") and action.target >= 0 \
            and state.owner[action.target] != seat:
        # Another seat's card (two decks may hold the same card): named with its seat.
        theirs = (f"{whose(state.owner[action.target], names, viewer)} "
                  f"{state.card(action.target).name}")
        name = state.card(action.card).name
        return f"{name} attacks {theirs}" if action.kind == "separate" \
            else f"{name} joins the attack on {theirs}"
    if action.kind == "bribe" and state.owner[action.card] != seat:
        return (f"Bribe {whose(state.owner[action.card], names, viewer)} "
                f"{state.card(action.card).name} to go home")
    if action.kind == seats.TRUCE_KIND:
        other = seat_name(seats.truce_partner(table, seat), names, viewer)
        if action.option == "accept":
            return f"Agree with {other} to end the combat here"
        if action.option == "refuse":
            return f"Refuse {other}'s offer: the combat goes on"
        return f"Offer {other} to end the combat here (both must agree)"
    if action.kind == "use_on":
        ability = rivalry.ability_of(action.option).capitalize()
        aimed = rivalry.target_of(action.option)
        if rivalry.ability_of(action.option) == "exhaust" and aimed >= 0:
            return (f"Use {state.card(action.card).name} on "
                    f"{whose(action.target, names, viewer)} "
                    f"{table.state.card(aimed).name} (exhaust it)")
        if aimed >= 0:  # Crusade, Discredit, Influence: one of that player's cards
            return (f"Use {state.card(action.card).name}: {ability} on "
                    f"{whose(action.target, names, viewer)} "
                    f"{table.state.card(aimed).name} (exhaust it)")
        return (f"Use {state.card(action.card).name}: {ability} on "
                f"{seat_name(action.target, names, viewer)}")
    return describe(state, action)


def player_outcome(table: Table) -> str:
    """The game's end for the player: victory, defeat (another seat won), stronghold (knocked
    out, then another seat won), surrendered, overrun or timeout; "" while it goes on."""
    if table.outcome != "victory":
        return table.outcome
    if table.winner == PLAYER:
        return "victory"
    if PLAYER in table.out:
        return "surrendered" if table.out[PLAYER][1] == seats.SURRENDERED else "stronghold"
    return "defeat"


def table_outcome(table: Table, names: Sequence[str] | None = None) -> str:
    """The game's end as the player reads it ("Defeat: Seat 2 (Mosfin Senate) wins in round
    6"); "" while it goes on."""
    outcome = player_outcome(table)
    if not outcome:
        return ""
    winner = seat_name(table.winner, names) if table.winner not in (-1, PLAYER) else ""
    return outcome_sentence(outcome, table.final_round or table.round, winner, at_table=True)


class TableCache:
    """The last few tables played, so a move does not replay the whole game: a table is
    *taken* out while a request plays on it (no two requests share one) and put back under
    its new actions. The key is the game (its id, and what tells it from another game given
    the same id later: its seed and creation time) and its actions, so a stale entry is never
    used."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self.tables: dict[tuple[Hashable, str], TableGame] = {}

    @staticmethod
    def key(game: Hashable, actions: Sequence[Mapping[str, Any]]) -> tuple[Hashable, str]:
        return game, repr([sorted(a.items()) for a in actions])

    def take(self, game: Hashable, actions: Sequence[Mapping[str, Any]]) -> TableGame | None:
        return self.tables.pop(self.key(game, actions), None)

    def put(self, game: Hashable, actions: Sequence[Mapping[str, Any]],
            played: TableGame) -> None:
        self.tables[self.key(game, actions)] = played
        while len(self.tables) > self.size:
            del self.tables[next(iter(self.tables))]  # the oldest first (dicts keep order)
