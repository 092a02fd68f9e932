"""A table of 1 to 6 players: one game state for every seat, played by the rulebook. A table
of one plays exactly the solo game (engine.new_game) of its deck and seed.

Pure Python. The table's :class:`~rules.game.state.GameState` (engine.new_table_state) holds
every seat's cards (global instances with an ``owner``), zones, pools and RNG streams, one
city pool and one event list, and one flow: its phase, step, combat and pending decision are
those of the seat whose turn, part of the phase or combat it is (``player``); ``to_move`` is
the seat deciding. The engine plays everything a seat does on its own cards; at a table it
stops the player at the step ``wait`` wherever the Order of Play passes to the other players
(engine.WAIT), and this module runs the round across the seats, handing the state's flow from
seat to seat (:func:`_flow`: a seat's flow begins where a seat waiting for its part stands,
:func:`_waiting`; every phase runs seat by seat, so nothing else is left to keep):

* **lead player**: most tokens in the personal pool at the start of the round, ties by a die;
* **City Maintenance**: the victory check for all, then each seat's steps (simultaneous, so
  seat by seat from the lead player, each seat's part begun at its turn);
* **Action and Development**: a cycle from the lead player to the left, one action each, until
  every player still in passes in sequence (a pass is held back from the engine until then,
  so a player who passed may act again when another acts); Extort, Tithe and Sap on another
  player's pool are actions of the cycle (rules/game/rivalry.py);
* **reactions**: an action another seat's reaction or interrupt event can answer (a political
  ability used, a card brought into play, a unique played, an event played), in any phase or
  combat, is held back in a window: each seat with an answer, from the acting one's left,
  answers or declines; an answer stops it, else it is carried out (rules/game/reactions.py);
* **Military**: from the lead player, one choice each, at his turn: hunt his own row (the solo
  hunt), hunt another player's wanderer row (``hunt_row``), attack another player's holdings
  (``attack``, with every ready troop, holding the strongest defender back, or troop by
  troop), or pass;
* **Wanderer**: seat by seat from the lead player: hoarding, aggression rolls, then every
  player still in rolls a die and the highest (ties roll again) is attacked; fines and a new
  wanderer; all lose when the wanderers in play exceed three times the players;
* **Discard**: seat by seat from the lead player, then the next round.

A combat between seats is the state's combat with the seat whose cards are at stake as its
player (:class:`Hosting` says who fights it): the attacker's troops and a hunted row are named
where they are, nothing is moved or copied. An attack on a player's holdings is fought as a
raid on the defender by the attacker's troops; a hunt on another row as a hunt by the hunter
of that row (``Combat.row``); wanderers attacking another player as a raid on him. Each
decision of it is asked of its seat (``combat.decider``, the state's ``to_move``): the
defender's or hunter's, the attacking lord's assignments, bribes and modifications, the
controller's of raiding wanderers, each player's turn of the modification step; an AI lord or
controller follows the wanderers' fixed rule (``table_policy.attack_choice``). A destroyed
stronghold ends the player's game in the state (rulings.end_game, as solo); the table puts him
out (:func:`_knockouts`) and the game goes on for the others.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args

from rules.game import combat, engine, reactions, rivalry, rulings
from rules.game.actions import PASS, Action, ActionBook, Result
from rules.game.config import GameConfig
from rules.game.engine import HOSTING, WAIT, Prepared
from rules.game.narrate import counted, sentence
from rules.game.profile import Profile
from rules.game.state import (
    DISCARDS,
    IN_PLAY,
    Combat,
    GameState,
    Seat,
    combat_dict,
    combat_from,
)
from rules.game.vocabulary import Outcome, Phase, Step
from rules.rng import GameRng, derive_seed

# The table's stage: the phase every seat is in (the seats play each one in turn).
Stage = Literal["maintenance", "action", "military", "wanderer", "discard", "over"]
STAGES: Final = get_args(Stage)
# How a player was knocked out: his stronghold destroyed by another lord's attack, or by
# wanderers (his own or another's).
KNOCKOUTS: Final = ("attack", "wanderers")


class Hosting:
    """A combat between seats: the state's combat, its ``host`` (the player: the seat whose
    cards are at stake) against ``origin``'s cards (``visitors``).

    A plain class, not a dataclass: compiled, the ``__init__`` the dataclasses module writes
    runs as interpreted Python (about 7,000 instructions a hosting), where this one is
    compiled (as state.Combat). Compared and shown field by field, as the dataclass was."""

    __slots__ = ("bribes", "fight", "host", "host_troops", "kind", "origin", "visitors")

    def __init__(self, host: int, origin: int, kind: str, visitors: list[int],
                 host_troops: list[int] | None = None,
                 bribes: dict[int, list[int]] | None = None) -> None:
        self.host = host
        self.origin = origin
        self.kind = kind  # "attack", "hunt_row" or "raid"
        self.visitors = visitors  # the origin's cards fighting in the host's combat
        # The host's troops before; bribes on a troop of either side.
        self.host_troops: list[int] = [] if host_troops is None else host_troops
        self.bribes: dict[int, list[int]] = {} if bribes is None else bribes
        # The host's combat (kept after the engine drops it: its kills decide the valor).
        self.fight: Combat | None = None

    def _fields(self) -> tuple[object, ...]:
        return (self.host, self.origin, self.kind, self.visitors, self.host_troops,
                self.bribes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hosting):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"Hosting(host={self.host!r}, origin={self.origin!r}, kind={self.kind!r}, "
                f"visitors={self.visitors!r}, "
                f"host_troops={self.host_troops!r}, bribes={self.bribes!r})")


class Declaring:
    """An attack being declared: the lord ``seat`` chooses the troops he sends against
    ``target`` one by one, an exhausted one for 3 tokens ("Declaration, Movement")."""

    __slots__ = ("seat", "sent", "target")

    def __init__(self, seat: int, target: int, sent: list[int] | None = None) -> None:
        self.seat = seat
        self.target = target
        self.sent: list[int] = [] if sent is None else sent

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Declaring):
            return NotImplemented
        return (self.seat, self.target, self.sent) == (other.seat, other.target, other.sent)

    def __repr__(self) -> str:
        return f"Declaring(seat={self.seat!r}, target={self.target!r}, sent={self.sent!r})"


@dataclass
class Table:
    state: GameState  # the one state of the table: every seat's cards and pools, one flow
    seed: int
    config: GameConfig
    rng: int
    round: int = 1
    lead: int = 0
    stage: Stage = "maintenance"
    turn: int = -1  # the seat whose action-cycle turn it is
    passes: int = 0  # consecutive passes in the action cycle
    queue: list[int] = field(default_factory=list)  # seats still to take the phase's turn
    started: bool = False  # the Wanderer Phase of queue[0] has begun
    hosting: Hosting | None = None
    # Seats that surrendered, not yet put out (_knockouts).
    surrendered: list[int] = field(default_factory=list)
    outcome: Outcome = ""  # "", "victory", "overrun", "timeout"
    winner: int = -1
    final_round: int = 0
    out: dict[int, tuple[int, str]] = field(default_factory=dict)  # seat -> (round, how)
    decisions: int = 0
    # One line per event of a recorded table ("" when not recorded): (round, seat, text).
    story: list[tuple[int, int, str]] | None = None
    seen: int = 0  # the events already told (one list for every seat: rulings.emit)
    row_before: list[int] = field(default_factory=list)  # the row before a Wanderer Phase
    rivals_used: set[tuple[int, int]] = field(default_factory=set)  # (seat, bearer) this round
    # Each seat's own instances of unique cards: what _carry_out watches for uniques coming
    # into play.
    unique_cards: list[list[int]] = field(default_factory=list)
    # Whether each card of the table is unique, by instance (read only).
    unique_flags: list[bool] = field(default_factory=list)
    # An action held back while the other seats may answer it (rules/game/reactions.py), each
    # seat's own cards that can ever answer one, and the abilities negated this round (not
    # offered again: a negated ability without "E" would be used and negated for ever).
    window: reactions.Window | None = None
    # An attack whose troops its lord is choosing (an attack with option "choose"): the
    # combat starts when he is done.
    declaring: Declaring | None = None
    # Ending an attack by agreement ("a combat not involving wanderers may be ended at any
    # time if both players agree to cease combat"): the seat whose offer waits for the
    # other's answer (-1: none), and the seats that offered in this attack (one offer each).
    truce: int = -1
    truce_offered: list[int] = field(default_factory=list)
    answerers: list[list[int]] = field(default_factory=list)
    # What each seat's answering cards can answer (reactions.answer_kinds; empty: anything).
    answer_kinds: list[int] = field(default_factory=list)
    negated: set[tuple[int, int]] = field(default_factory=set)
    # Each seat's own cards with a rival ability (rivalry.bearers): a seat without one has no
    # rival options to look for.
    rival_bearers: list[list[int]] = field(default_factory=list)
    # Whether each seat has a bearer of a rival ability usable in a battle (Crusade).
    battle_rivals: list[bool] = field(default_factory=list)
    # active() as last worked out, for the lead player active_lead and active_outs
    # knock-outs (two numbers, not a key tuple: compiled, a tuple is made at every call).
    active_seats: list[int] = field(default_factory=list)
    active_lead: int = -1
    active_outs: int = -1
    active_out: dict[int, tuple[int, str]] | None = None

    @property
    def players(self) -> int:
        return len(self.state.seats)

    def seat(self, s: int) -> Seat:
        """Seat ``s``'s cards and pool (its zones, personal pool, dead)."""
        return self.state.seats[s]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot of the table: its state (and its events, when recorded) and
        what only the table keeps; :meth:`from_dict` gives a table that plays on exactly as
        this one (tests/rules/game/test_table_snapshots.py)."""
        hosting, window, declaring = self.hosting, self.window, self.declaring
        fight: Any = None
        if hosting is not None and hosting.fight is not None:
            # (the combat the engine still holds is saved with the state: named, not copied)
            fight = "state" if hosting.fight is self.state.combat else combat_dict(hosting.fight)
        return {
            "state": self.state.to_dict(), "events": self.state.events,
            "seed": self.seed, "config": self.config.to_dict(), "rng": self.rng,
            "round": self.round, "lead": self.lead, "stage": self.stage, "turn": self.turn,
            "passes": self.passes, "queue": list(self.queue), "started": self.started,
            "hosting": None if hosting is None else {
                "host": hosting.host, "origin": hosting.origin, "kind": hosting.kind,
                "visitors": list(hosting.visitors), "host_troops": list(hosting.host_troops),
                "bribes": {str(k): list(v) for k, v in hosting.bribes.items()},
                "fight": fight},
            "surrendered": list(self.surrendered), "outcome": self.outcome,
            "winner": self.winner, "final_round": self.final_round,
            "out": [[seat, round_, how] for seat, (round_, how) in self.out.items()],
            "decisions": self.decisions,
            "story": None if self.story is None else [list(line) for line in self.story],
            "seen": self.seen, "row_before": list(self.row_before),
            "rivals_used": sorted([list(pair) for pair in self.rivals_used]),
            "window": None if window is None else {
                "seat": window.seat, "action": window.action.to_dict(),
                "asked": list(window.asked)},
            "declaring": None if declaring is None else {
                "seat": declaring.seat, "target": declaring.target,
                "sent": list(declaring.sent)},
            "truce": self.truce, "truce_offered": list(self.truce_offered),
            "negated": sorted([list(pair) for pair in self.negated]),
            # (each seat's, in the order the table keeps them: a trade appends)
            "unique_cards": self.unique_cards, "answerers": self.answerers,
            "rival_bearers": self.rival_bearers,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any],
                  by_id: dict[str, Profile] | None = None) -> Table:
        """The table saved by :meth:`to_dict` (``by_id``: the card profiles, when the caller
        holds them; else built from the card facts the state carries)."""
        state = GameState.from_dict(data["state"], by_id=by_id)
        events = data.get("events")
        state.events = None if events is None else list(events)
        table = cls(state, data["seed"], GameConfig.from_dict(data["config"]), data["rng"])
        for name in ("round", "lead", "stage", "turn", "passes", "started", "outcome",
                     "winner", "final_round", "decisions", "seen", "truce"):
            setattr(table, name, data[name])
        table.queue = list(data["queue"])
        table.surrendered = list(data["surrendered"])
        table.row_before = list(data["row_before"])
        table.truce_offered = list(data["truce_offered"])
        table.out = {seat: (round_, how) for seat, round_, how in data["out"]}
        table.rivals_used = {(s, b) for s, b in data["rivals_used"]}
        table.negated = {(s, b) for s, b in data["negated"]}
        table.story = None if data["story"] is None \
            else [(line[0], line[1], line[2]) for line in data["story"]]
        hosting = data["hosting"]
        if hosting is not None:
            table.hosting = Hosting(
                hosting["host"], hosting["origin"], hosting["kind"], list(hosting["visitors"]),
                list(hosting["host_troops"]),
                {int(k): list(v) for k, v in hosting["bribes"].items()})
            fight = hosting["fight"]
            table.hosting.fight = state.combat if fight == "state" \
                else None if fight is None else combat_from(fight)
        window = data["window"]
        if window is not None:
            table.window = reactions.Window(window["seat"], Action.from_dict(window["action"]),
                                            list(window["asked"]))
        declaring = data["declaring"]
        if declaring is not None:
            table.declaring = Declaring(declaring["seat"], declaring["target"],
                                        list(declaring["sent"]))
        _seat_cards(table, data["unique_cards"], data["answerers"], data["rival_bearers"])
        return table

    def active(self) -> list[int]:
        """Seats still in the game, from the lead player to the left. Asked at nearly every
        step, and it changes only with the lead player or a knock-out: worked out again only
        then (the list is shared: callers read it, never change it)."""
        out = self.out
        if self.active_lead == self.lead and self.active_outs == len(out) \
                and self.active_out is out:
            return self.active_seats
        self.active_seats = active_seats(self.players, self.lead, out)
        self.active_lead, self.active_outs, self.active_out = self.lead, len(out), out
        return self.active_seats

    def tell(self, seat: int, text: str) -> None:
        if self.story is not None:
            self.flush()
            self.story.append((self.round, seat, text))

    def flush(self) -> None:
        """Tell the seats' new engine events, as they happened."""
        if self.story is None:
            return
        state = self.state
        events = state.events or []
        one = len(state.seats) == 1
        for event in events[self.seen:]:
            # (a seat's own end of the game is told by the table: _end, _knockouts; and its
            # pass that ends the Action and Development cycle, by the table when he passed)
            kind = event["type"]
            if kind in ("round", "victory_check", "unexhaust", "shuffle", "game_over") \
                    or (kind == "action" and event["phase"] == "action"
                        and event["action"]["kind"] == "pass"):
                continue
            seat = 0 if one else _teller(state, event)
            text = sentence(state, event, _namer(state))
            if kind == "wanderers_attack" and self.hosting is not None \
                    and self.hosting.kind == "attack":
                text = text.replace("The wanderers attack", "The attackers come")
            # (an attacker's decision in the defender's combat is told as his own)
            who = event.get("seat", seat)
            if who != seat and event["action"]["kind"] == "done":
                text = _PASSES.get(event.get("step", ""), text)
            if text:
                self.story.append((self.round, who, text))
        self.seen = len(events)


# The card a combat's line tells of, by the event's key: the line is its owner's (a die and an
# attack are the attacking card's, a wound and a card leaving play the card's), not the seat
# whose combat it is, the defender's, as the event's "whose" says.
_TOLD_CARD: Final = {"die": "lead", "strikes_back": "card", "climbs": "card", "wound": "card",
                     "wound_ignored": "card", "leaves_play": "card"}


def _teller(state: GameState, event: dict[str, Any]) -> int:
    """The seat a line of the story is told as (``event``'s own, but for a combat's lines:
    :data:`_TOLD_CARD`)."""
    kind = event["type"]
    if kind == "attack":
        card = event["attackers"][0] if event["attackers"] else -1
    else:
        key = _TOLD_CARD.get(kind)
        card = event[key] if key is not None else -1
    return state.owner[card] if card >= 0 else int(event["whose"])


# Another seat's "done" in a combat, as the story tells it.
_PASSES: Final = {"modify": "Makes no modification.", combat.BRIBE_BACK: "Bribes no defender."}


def _seat_cards(table: Table, unique: list[list[int]], answerers: list[list[int]],
                bearers: list[list[int]]) -> None:
    """What the table knows of each seat's cards (a table loaded from its JSON): its unique
    cards, its answering cards and what they answer, its rival bearers."""
    state = table.state
    table.unique_flags = [state.card(i).unique for i in range(len(state.cards))]
    table.unique_cards = [list(cards) for cards in unique]
    table.answerers = [list(cards) for cards in answerers]
    table.rival_bearers = [list(cards) for cards in bearers]
    _answers_and_rivals(table)


def _answers_and_rivals(table: Table) -> None:
    """What each seat's answering cards can answer and whether it bears a rival ability
    usable in a battle (Crusade), from ``answerers`` and ``rival_bearers``: worked out at a
    new table, after a card trade and at a table loaded from its JSON."""
    state = table.state
    table.answer_kinds = [reactions.answer_kinds(state, cards) for cards in table.answerers]
    table.battle_rivals = [any(
        ability == "crusade" for b in cards
        for ability, _, _ in rivalry.rival_abilities(state.card(b)))
        for cards in table.rival_bearers]


def active_seats(n: int, lead: int, out: Collection[int]) -> list[int]:
    """The seats of ``n`` not in ``out``, from ``lead`` to the left (Table.active, the long
    way)."""
    found = []
    for k in range(n):  # (a loop: compiled, a generator is an object more at every call)
        seat = (lead + k) % n
        if seat not in out:
            found.append(seat)
    return found


def _namer(state: GameState) -> Callable[[int], str]:
    def name(instance: int) -> str:
        return state.card(instance).name if 0 <= instance < len(state.cards) else "a card"
    return name


def new_table(decks: Sequence[Prepared], seed: int, config: GameConfig, *,
              record: bool = False) -> Table:
    """A new game of one seat per deck (1 to 6), advanced to the first decision. A table of
    one plays the solo game of its deck and seed, decision for decision
    (tests/rules/game/test_table_of_one.py): nothing only a table has is rolled or asked."""
    if not 1 <= len(decks) <= 6:
        raise ValueError(f"a table seats 1 to 6 players, not {len(decks)}")
    _check_seating(decks)
    config = _seated_config(config, len(decks))
    seated = [_seat_prepared(prepared, config) for prepared in decks]
    state = engine.new_table_state(
        seated, seat_seeds(seed, len(decks)), config,
        _table_book(seated), record=record)
    table = Table(state, seed, config, GameRng(derive_seed(seed, "table")).state)
    offset = 0
    for prepared in decks:
        unique, answerers, bearers, flags = _deck_cards(prepared, state, offset)
        table.unique_cards.append(unique)
        table.unique_flags.extend(flags)
        table.answerers.append(answerers)
        table.rival_bearers.append(bearers)
        offset += len(flags)
    _answers_and_rivals(table)
    if record:
        table.story = []
    said: list[str] | None = [] if record else None
    table.lead = _lead_player(table, said)
    table.tell(-1, f"Round 1: the lead player is seat {table.lead + 1}"
               f"{_dice_said(said or [])}.")
    table.queue = list(table.active())  # City Maintenance, seat by seat (_settle)
    _settle(table)
    return table


def seat_seeds(seed: int, players: int) -> list[int]:
    """Each seat's RNG stream: a table of one is a solo game, whose one stream is the game's
    seed (engine.new_game)."""
    if players == 1:
        return [seed]
    return [derive_seed(seed, "seat", number) for number in range(players)]


# A seat's configuration and its prepared deck depend only on the table's options, the number
# of seats and the deck: made once, not at every game of a matchup (a new Prepared would lay
# out its deal again at every game, engine.deal_layout). The objects they were made from are
# kept with them (the same objects, not others made since at the same addresses); a few at a
# time, forgotten when more are seen.
_SEATED: Final[dict[tuple[int, int], tuple[GameConfig, GameConfig]]] = {}
_SEAT_PREPARED: Final[dict[tuple[int, int], tuple[Prepared, GameConfig, Prepared]]] = {}
_SEATED_KEPT: Final = 32


# The decks already checked for a table of their number (engine.check_seating), kept with
# the objects: a matchup seats the same decks at every game.
_SEATING_CHECKED: Final[dict[tuple[int, ...], list[Prepared]]] = {}


def _check_seating(decks: Sequence[Prepared]) -> None:
    key = tuple(id(prepared) for prepared in decks)
    known = _SEATING_CHECKED.get(key)
    if known is not None and all(a is b for a, b in zip(known, decks, strict=True)):
        return
    engine.check_seating(decks, len(decks))
    if len(_SEATING_CHECKED) >= _SEATED_KEPT:
        _SEATING_CHECKED.clear()
    _SEATING_CHECKED[key] = list(decks)


def _seated_config(config: GameConfig, players: int) -> GameConfig:
    """``config`` for one seat of a table of ``players``."""
    key = (id(config), players)
    known = _SEATED.get(key)
    if known is None or known[0] is not config:
        seated = GameConfig(target=config.target, players=players, round_cap=config.round_cap,
                            city_pool=config.city_pool, seated=True)
        if len(_SEATED) >= _SEATED_KEPT:
            _SEATED.clear()
        known = _SEATED[key] = (config, seated)
    return known[1]


def _seat_prepared(prepared: Prepared, config: GameConfig) -> Prepared:
    """``prepared`` for a seat of ``config`` (:func:`_seated_config`)."""
    key = (id(prepared), id(config))
    known = _SEAT_PREPARED.get(key)
    if known is None or known[0] is not prepared or known[1] is not config:
        seat = Prepared(prepared.deck, prepared.by_id, prepared.facts, config)
        if len(_SEAT_PREPARED) >= _SEATED_KEPT:
            _SEAT_PREPARED.clear()
        known = _SEAT_PREPARED[key] = (prepared, config, seat)
    return known[2]


# The actions of a table's cards (engine.ActionBook) depend only on its decks in their order:
# made once, not at every game of a matchup (the decks kept with them). A few at a time.
_TABLE_BOOKS: Final[dict[tuple[int, ...], tuple[list[Prepared], ActionBook]]] = {}


def _table_book(decks: list[Prepared]) -> ActionBook:
    key = tuple(id(prepared) for prepared in decks)
    known = _TABLE_BOOKS.get(key)
    if known is None or any(a is not b for a, b in zip(known[0], decks, strict=True)):
        cards = [card_id for prepared in decks for card_id in engine.deal_layout(prepared).cards]
        if len(_TABLE_BOOKS) >= _SEATED_KEPT:
            _TABLE_BOOKS.clear()
        known = _TABLE_BOOKS[key] = (list(decks), ActionBook(cards))
    return known[1]


# A seat's unique cards, answering cards and rival bearers (its own instances, counted from
# its first) depend only on its deck: the cards are dealt as instances in the deck's order,
# the profiles are the prepared deck's. Worked out once per prepared deck, not at every game
# of a matchup (the deck and its profiles kept with them: the same objects, not others made
# since at the same addresses). A few decks at a time: forgotten when more are seen.
_DECK_CARDS: Final[dict[tuple[int, int],
                        tuple[Any, Any, list[int], list[int], list[int], list[bool]]]] = {}
_DECK_CARDS_KEPT: Final = 32


def _deck_cards(prepared: Prepared, state: GameState, offset: int
                ) -> tuple[list[int], list[int], list[int], list[bool]]:
    """(unique cards, answering cards, rival bearers, whether each own card is unique) of
    the seat of ``state`` at a new table, dealt ``prepared`` from instance ``offset`` on:
    each a new list of instances (the table's own), but the last, read only (by the seat's
    cards in order, shared by the deck's tables)."""
    key = (id(prepared.deck), id(prepared.by_id))
    known = _DECK_CARDS.get(key)
    if known is None or known[0] is not prepared.deck or known[1] is not prepared.by_id:
        own = range(offset, offset + len(engine.deal_layout(prepared).cards))
        flags = [state.card(i).unique for i in own]
        known = (prepared.deck, prepared.by_id, [i - offset for i in own if flags[i - offset]],
                 [i - offset for i in reactions.answering_cards(state, own)],
                 [i - offset for i in rivalry.bearers(state, own)], flags)
        if len(_DECK_CARDS) >= _DECK_CARDS_KEPT:
            _DECK_CARDS.clear()
        _DECK_CARDS[key] = known
    return ([offset + i for i in known[2]], [offset + i for i in known[3]],
            [offset + i for i in known[4]], known[5])


# --- who decides ---------------------------------------------------------------------------


def to_move(table: Table) -> int:
    """The seat that decides now (-1 once the game is over): the state's ``to_move``, which
    the engine sets at each of its decisions (the player, or the seat a combat asks:
    combat.decider) and the table at its own (:func:`_ask`: a reaction window, a truce, a
    declaration); the seat whose turn or part of the phase it is otherwise (:func:`_flow`)."""
    if table.outcome:
        return -1
    return table.state.to_move


def _asked_elsewhere(table: Table) -> GameState | None:
    """The state when its combat asks another seat than the player now, None when it does
    not: an attacking lord making his troops' assignments ("the attacker makes assignments
    first, then the sides alternate") or at his turn of the modification step's rotation,
    and the controller of raiding wanderers ("if your wanderers attack another player then
    you control all wanderers during the combat. If they attack you then the player to your
    left controls all wanderers"), any player at his turn of a modification step;
    combat.decider names him."""
    if table.hosting is None and table.stage != "wanderer" and table.stage != "military":
        return None
    state = table.state
    fight = state.combat
    if fight is None or not fight.modifiers:
        return None
    return state if combat.decider(state) != state.player else None


def standing(table: Table, seat: int) -> tuple[Phase, Step, Combat | None]:
    """Where ``seat`` stands now (phase, step and the combat it is the player of): the
    state's own when its flow is his, else where a waiting seat stands (:func:`_waiting`)."""
    state = table.state
    if state.player == seat:
        return state.phase, state.step, state.combat
    phase, step = _waiting(table, seat)
    return phase, step, None


def _flow(table: Table, seat: int) -> GameState:
    """The table's state with ``seat``'s flow in it: when it holds another seat's, ``seat``
    becomes the player, at the phase and step where a seat waiting for its part stands (the
    seat before him has no combat nor choice left: every phase runs seat by seat)."""
    state = table.state
    if state.player != seat:
        assert state.combat is None, "a seat's flow left in the middle of a combat"
        state.player = state.to_move = seat
        state.phase, state.step = _waiting(table, seat)
        state.pending = None
    return state


def _waiting(table: Table, seat: int) -> tuple[Phase, Step]:
    """Where ``seat``, not the player, stands: by the table's stage and whether its part of
    the phase is ahead of it (in the queue, not begun) or done
    (tests/rules/game/test_multiplayer_invariants.py checks every waiting seat against it)."""
    stage = table.stage
    queue = table.queue
    ahead = seat in queue and (queue[0] != seat or not table.started)
    if stage == "maintenance":
        return ("maintenance", "arrange") if ahead else ("action", "act")
    if stage == "action":
        return "action", "act"
    if stage == "military":
        return ("action", "act") if ahead else ("wanderer", WAIT)
    if stage == "discard":
        return ("discard", WAIT) if not ahead else ("wanderer", WAIT)
    return "wanderer", WAIT


def legal_actions(table: Table) -> list[Action]:
    """The legal actions of the seat that decides now, in a stable order."""
    seat = to_move(table)
    if seat < 0:
        return []
    return _legal_actions(table, seat)


def _legal_actions(table: Table, seat: int, rivals: bool = True) -> list[Action]:
    """:func:`legal_actions` of ``seat``, the seat that decides now (to_move, worked out by
    the caller: in the maintenance and discard stages it asks every seat's engine); without
    the rival abilities when not ``rivals`` (a policy that defers them, :func:`play`)."""
    window = table.window
    if window is not None:
        return [*reactions.answers(table.state, window.seat, window.action, seat,
                                   table.answerers[seat]), Action("decline")]
    if table.declaring is not None:
        return declare_options(table)
    if table.truce >= 0:
        return list(TRUCE_ANSWERS)
    state = table.state
    found = _unblocked(table, seat, engine.legal_actions(state))
    if table.stage == "military" and table.hosting is None and state.combat is None \
            and not state.player_seat().choice_due():
        found = [a for a in found if a.kind != "pass"] + _military_options(table, seat) \
            + [_MILITARY_PASS]
    elif rivals:
        found_rivals = rival_options(table, seat)
        if found_rivals:
            found = found[:-1] + found_rivals + found[-1:]
    if found and _may_offer_truce(table, seat):
        # Last, after the engine's own "done" (a policy reads that one as the last of its).
        found = [*found, TRUCE]
    return found


def battle_rival_options(table: Table, seat: int, state: GameState) -> list[Action]:
    """Crusade at ``seat``'s turn of the modification step of the combat in ``state`` ("players
    may use abilities during any phase"; "if an exhausted troop ... is involved in a battle
    its offense is 0"): on another player's troop in the battle, not exhausted, once a round
    per bearer as in the Action and Development cycle. (Discredit and Influence, political,
    which Debate may answer, stay in the cycle.)"""
    fight = state.combat
    if fight is None or combat.modifier(state) != seat or not table.battle_rivals[seat]:
        return []
    targets = [t for t in (*fight.player, *fight.wild)
               if state.owner[t] != seat and state.where[t] in IN_PLAY
               and t not in state.exhausted and state.card(t).is_troop]
    return [Action("use_on", bearer, state.owner[t], rivalry.exhaust_option("crusade", t))
            for bearer in _crusaders(table, seat) for t in targets]


def rival_options(table: Table, seat: int, bearer: int = -1) -> list[Action]:
    """The rival abilities (Extort, Tithe, Sap; Crusade, Discredit, Influence) ``seat``, the
    seat that decides now, may use on another player or his cards now: at its turn of the
    Action and Development cycle, and Crusade at its turn of a modification step
    (:func:`battle_rival_options`); in the table's legal actions they come before the pass.
    (``bearer``: only that card's, when not -1.)"""
    setting = rival_setting(table, seat)
    if setting is None:
        state = table.state
        if table.window is None and state.combat is not None and state.combat.step == "modify":
            found = battle_rival_options(table, seat, state)
            return [a for a in found if a.card == bearer] if bearer >= 0 else found
        return []
    others, used, bearers = setting
    if bearer >= 0:
        known = bearer < len(table.state.where) and (bearers is None or bearer in bearers)
        bearers = [bearer] if known else []
    return rivalry.options(table.state, seat, others, used, bearers)


def rival_setting(table: Table, seat: int
                  ) -> tuple[list[int], Collection[int], list[int] | None] | None:
    """What :func:`rival_options` hands rivalry.options (the other seats still in, the
    bearers used this round, the seat's bearers), None when ``seat`` may use none now."""
    state = table.state
    if table.window is not None or table.stage != "action" or table.hosting is not None \
            or state.player != seat or not _at_act(state) \
            or (table.rival_bearers and not table.rival_bearers[seat]):
        return None
    others = [s for s in table.active() if s != seat]
    # (no set made when no bearer used one this round, the usual case)
    used: Collection[int] = {bearer for s, bearer in table.rivals_used if s == seat} \
        if table.rivals_used else ()
    return others, used, table.rival_bearers[seat] if table.rival_bearers else None


def _unblocked(table: Table, seat: int, legal: list[Action]) -> list[Action]:
    """The actions of ``legal`` not :func:`_blocked`, the other players' dead piles read
    once. Usually no unique card lies there and no ability is negated: then nothing is
    blocked, and the engine's list itself is returned (nobody changes it)."""
    state, negated = table.state, table.negated
    dead = _dead_uniques(table, seat)
    if not negated and not dead:
        return legal
    found = []
    for action in legal:
        kind = action.kind
        if kind == "use" and negated and (seat, action.card) in negated:
            continue
        if kind == "play" and dead and state.cards[action.card] in dead:
            continue
        found.append(action)
    return found


def _dead_uniques(table: Table, seat: int) -> set[str] | None:
    """The ids of the unique cards in the other players' dead piles, None when there are
    none."""
    dead: set[str] | None = None
    flags = table.unique_flags
    them = table.state
    for other in range(len(them.seats)):
        if other == seat:
            continue
        their_dead = table.seat(other).dead
        if not their_dead:
            continue
        for i in their_dead:
            if flags[i]:
                if dead is None:
                    dead = set()
                dead.add(them.cards[i])
    return dead


def _blocked(table: Table, seat: int, action: Action) -> bool:
    """A unique dead in any player's dead pile may not be brought into play; an ability
    negated this round is not used again."""
    if action.kind == "use":
        return (seat, action.card) in table.negated
    if action.kind != "play":
        return False
    state = table.state
    card = state.card(action.card)
    return card.unique and any(
        state.cards[i] == card.id for s in range(table.players) if s != seat
        for i in table.seat(s).zones["dead"])


# The Military Phase's options on each other seat (hunt its row, attack it with every ready
# troop, holding one back), made once a seat number and handed out again: actions are values,
# never changed (as the engine's ActionBook).
_HUNT_ROW: Final[list[Action]] = []
_ATTACK_ALL: Final[list[Action]] = []
_ATTACK_HOLD: Final[list[Action]] = []
_ATTACK_CHOOSE: Final[list[Action]] = []
_MILITARY_PASS: Final = Action("pass")


def _military_actions(seats: int) -> None:
    """The shared Military options made for the seats numbered below ``seats``."""
    while len(_HUNT_ROW) < seats:
        other = len(_HUNT_ROW)
        _HUNT_ROW.append(Action("hunt_row", target=other))
        _ATTACK_ALL.append(Action("attack", target=other, option="all"))
        _ATTACK_HOLD.append(Action("attack", target=other, option="hold"))
        _ATTACK_CHOOSE.append(Action("attack", target=other, option="choose"))


def _military_options(table: Table, seat: int) -> list[Action]:
    state = table.state
    found: list[Action] = []
    ready = ready_troops(state, seat)
    # A hunt or an attack whose troops the lord chooses needs one he can send: ready, or
    # exhausted for 3 tokens he holds (as his own hunt: combat.can_hunt). Offered without,
    # it could only be called off, and the Military choice would be spent on it.
    hunters = bool(ready)
    if not hunters and rulings.held(state, seat) >= combat.MOVE_EXHAUSTED_COST:
        for t in table.seat(seat).defensive:
            if state.card(t).is_troop:
                hunters = True
                break
    if len(_HUNT_ROW) < table.players:
        _military_actions(table.players)
    for other in table.active():
        if other == seat:
            continue
        if hunters and table.seat(other).zones["wanderers"]:
            found.append(_HUNT_ROW[other])
        if ready:
            found.append(_ATTACK_ALL[other])
            if len(ready) > 1:
                found.append(_ATTACK_HOLD[other])
        if hunters:
            found.append(_ATTACK_CHOOSE[other])
    return found


def declare_options(table: Table) -> list[Action]:
    """The declaring lord's choices: send a troop of his defensive holdings not sent yet (an
    exhausted one for 3 tokens, "pay"), or be done (with none sent, the attack is called
    off)."""
    declaring = table.declaring
    if declaring is None:
        return []
    state = table.state
    can_pay = rulings.held(state, declaring.seat) >= combat.MOVE_EXHAUSTED_COST
    found = [Action("send", t, option="pay" if t in state.exhausted else "")
             for t in table.seat(declaring.seat).defensive
             if state.card(t).is_troop and t not in declaring.sent
             and (t not in state.exhausted or can_pay)]
    found.append(Action("done"))
    return found


def _declare(table: Table, action: Action) -> None:
    declaring = table.declaring
    assert declaring is not None
    state = table.state
    if action.kind == "send":
        if action.option == "pay":
            rulings.spend(state, combat.MOVE_EXHAUSTED_COST, declaring.seat)
        declaring.sent.append(action.card)
        if table.story is not None:
            paid = " (3 tokens: exhausted)" if action.option == "pay" else ""
            table.tell(declaring.seat, f"sends {state.card(action.card).name}{paid}.")
        return
    table.declaring = None
    if not declaring.sent:
        table.tell(declaring.seat, "calls the attack off.")
    else:
        if table.story is not None:
            table.tell(declaring.seat, f"attacks seat {declaring.target + 1} with "
                       + ", ".join(state.card(t).name for t in declaring.sent) + ".")
        _host(table, declaring.target, declaring.seat, "attack", declaring.sent)
    _settle(table)
    if table.story is not None:
        table.flush()


def ready_troops(state: GameState, seat: int) -> list[int]:
    """``seat``'s troops in his defensive holdings not exhausted: those an attack may send."""
    return [t for t in state.seats[seat].zones["defensive"]
            if state.card(t).is_troop and t not in state.exhausted]


def attackers(state: GameState, seat: int, option: str,
              ready: list[int] | None = None) -> list[int]:
    """The troops ``seat``'s attack sends: every ready troop of his defensive holdings, or
    all but the best defender when holding one back (``option`` "hold"); ``ready``: the
    ready troops (:func:`ready_troops`) when the caller worked them out (read, not
    changed)."""
    if ready is None:
        ready = ready_troops(state, seat)
    if option == "hold" and len(ready) > 1:
        # The best defender: max of (defense, offense, -instance), by a loop (compiled, a
        # key function is a Python call a troop).
        keep, best = -1, (0, 0)
        for t in ready:
            card = state.card(t)
            key = (card.defense, card.offense)
            if keep < 0 or key > best or (key == best and t < keep):
                keep, best = t, key
        ready = [t for t in ready if t != keep]
    return ready


# --- applying ------------------------------------------------------------------------------


def apply(table: Table, action: Action) -> Result:
    """Carry out ``action`` for the seat that decides now, and everything automatic after."""
    seat = to_move(table)
    if seat < 0:
        return Result(False, "The game is over.")
    if action not in _legal_actions(table, seat):
        return Result(False, f"{action!r} is not a legal action for seat {seat + 1} now.")
    _carry_out(table, seat, action)
    return Result(True)


def surrender(table: Table, seat: int) -> Result:
    """"A player may surrender at any time": ``seat`` is out as a player whose stronghold is
    destroyed (his cards go to the discard piles; his tokens and counters stay), whatever is
    going on; an action of his held for answers is dropped, an attack he declares or that is
    declared on him is called off, a combat of his ends where it stands; the last player
    left wins. Not a legal action: no policy weighs it, a person asks for it."""
    if table.outcome:
        return Result(False, "The game is over.")
    if not 0 <= seat < table.players or seat in table.out \
            or seat in table.surrendered:
        return Result(False, f"Seat {seat + 1} is not in the game.")
    held: reactions.Window | None = None
    window = table.window
    if window is not None:
        if window.seat == seat:
            table.window = None
        elif seat in window.asked:
            window.asked.remove(seat)
            if not window.asked:  # nobody else may answer: carried out once he is gone
                table.window, held = None, window
    declaring = table.declaring
    if declaring is not None and seat in (declaring.seat, declaring.target):
        table.declaring = None
        table.tell(declaring.seat, "calls the attack off.")
    table.surrendered.append(seat)
    _knockouts(table)
    if held is not None and not table.outcome and held.seat not in table.out:
        _perform(table, held.seat, held.action)
    _settle(table)
    table.flush()
    return Result(True)


def _carry_out(table: Table, seat: int, action: Action) -> None:
    """:func:`apply` of an action known to be legal for ``seat``, the seat that decides now
    (no Result made: compiled, a dataclass's __init__ runs as interpreted Python, and play()
    carries out every decision here)."""
    table.decisions += 1
    if table.window is not None:
        _answer(table, seat, action)
    elif action.kind == TRUCE_KIND:
        _truce(table, seat, action)
    elif table.declaring is not None:
        _declare(table, action)
    # (_open_window's first test here: most actions open no window, and a call of it at each
    # decision is its code brought into the instruction cache again)
    elif action.kind not in ("play", "use", "use_on") or not table.answerers \
            or not _open_window(table, seat, action):
        _perform(table, seat, action)


def _open_window(table: Table, seat: int, action: Action) -> bool:
    """Hold ``action`` back when another seat may answer it (a reaction or an interrupt
    event): the seats that may, in turn from the acting one's left."""
    if action.kind not in ("play", "use", "use_on") or not table.answerers:
        return False
    n, answerers = table.players, table.answerers
    # Only the seats holding an answering card where it can answer from (the hand, in play);
    # a seat whose deck has none is passed over at once. Whether the action can be answered
    # at all (most abilities are not political) is asked once, at the first seat whose deck
    # has an answering card, before any seat's cards are read.
    # What could answer it (reactions.answered_by) is asked as answerable was; a seat whose
    # answering cards answer none of that (a Retain, a unique played) is passed over too.
    others = []
    wanted = -1
    kinds = table.answer_kinds
    for k in range(1, n):
        other = (seat + k) % n
        if answerers[other] and other not in table.out:
            if wanted < 0:
                wanted = reactions.answered_by(table.state, action)
                if not wanted:
                    return False
            if (not kinds or kinds[other] & wanted) \
                    and reactions.holds_answer(table.state, answerers[other]):
                others.append(other)
    if not others:
        return False
    asked = [s for s in others
             if reactions.answers(table.state, seat, action, s, table.answerers[s])]
    if not asked:
        return False
    table.window = reactions.Window(seat, action, asked)
    _ask(table)
    return True


def _answer(table: Table, seat: int, action: Action) -> None:
    """A seat's answer in an open window: declined (the next seat is asked; after the last
    the action is carried out), or given (the action is stopped, and counts as the acting
    seat's action: "the cycle continues where it left off")."""
    window = table.window
    assert window is not None
    if action.kind == "decline":
        window.asked.pop(0)
        if window.asked:
            _ask(table)
            return
        table.window = None
        _perform(table, window.seat, window.action)
        return
    table.window = None
    held, actor = window.action, window.seat
    table.tell(seat, reactions.answer(table.state, seat, action, held))
    state = table.state
    table.tell(actor, reactions.stop(state, held, actor))
    if held.kind == "use_on":
        table.rivals_used.add((actor, held.card))
    elif held.kind == "use":
        table.negated.add((actor, held.card))
    engine._advance(state)
    if table.stage == "action" and table.hosting is None:
        table.passes = 0
        if _at_act(state):
            _next_turn(table)
    _settle(table)
    table.flush()


def _perform(table: Table, seat: int, action: Action) -> None:
    """Carry out ``seat``'s action, once no other seat answered it."""
    state = table.state
    state.to_move = seat  # (the seat deciding when a window held it back)
    if table.stage == "action" and table.hosting is None and action.kind == "pass" \
            and state.step == "act" and state.combat is None \
            and not state.player_seat().choice_due():
        table.passes += 1
        table.tell(seat, "passes.")
        _next_turn(table)
    elif action.kind == "use_on":
        moved = rivalry.apply(state, seat, action)
        table.rivals_used.add((seat, action.card))
        if table.story is not None:  # (the words made only for a recorded table)
            table.tell(seat, rivalry.sentence(table.state, action, moved))
        fight = state.combat
        if fight is not None and fight.step == "modify":
            # His modification of the battle: the rotation goes on.
            state.forget_derived()
            combat.modified(state)
            engine._advance(state)
        else:
            table.passes = 0
            _next_turn(table)
    elif action.kind == "attack" and action.option == "choose":
        _to_wait(state)
        table.declaring = Declaring(seat, action.target)
        table.tell(seat, f"declares an attack on seat {action.target + 1}.")
    elif action.kind in ("attack", "hunt_row"):
        _to_wait(state)
        _start_hosting(table, seat, action)
    elif table.stage == "military" and action.kind == "pass" and state.step == WAIT:
        table.tell(seat, "passes in the Military Phase.")
    else:
        if table.stage == "action" and table.hosting is None:
            table.passes = 0
        _apply_own(table, seat, state, action)
        if table.stage == "action" and table.hosting is None and _at_act(state):
            _next_turn(table)
    _settle(table)
    if table.story is not None:  # (flush's own test, without a call at each decision)
        table.flush()


def _apply_own(table: Table, seat: int, state: GameState, action: Action) -> None:
    """``engine.apply`` of ``seat``'s action in the table's state, then the uniques check
    (and a hunt it declares given its modification rotation)."""
    fought = state.combat
    _apply_engine(table, seat, state, action)
    fight = state.combat
    if fight is not None and fight is not fought and state.player == seat:
        _rotate(table, fight, seat)  # a hunt of his own row, just declared
        state.pending = None


def _apply_engine(table: Table, seat: int, state: GameState, action: Action) -> None:
    # Only the seat's own unique cards can come into play here, so the uniques in play are
    # worked out again only when one of those moved; what was in play before, from where
    # they were, and only then.
    if table.unique_cards:
        unique = table.unique_cards[seat]
        where = state.where
        was = [where[i] for i in unique]
        result = engine.apply(state, action)
        if not result.ok:
            raise RuntimeError(result.reason)
        if _moved(state.where, unique, was):
            before = {unique[k] for k in range(len(unique)) if was[k] in IN_PLAY}
            # (the same set, inserted in the same order: instances ascending)
            _check_uniques(table, seat, _uniques_in_play(state, unique) - before)
        return
    before = _uniques(state)
    result = engine.apply(state, action)
    if not result.ok:
        raise RuntimeError(result.reason)
    _check_uniques(table, seat, _uniques(state) - before)


def _at_act(state: GameState) -> bool:
    return state.step == "act" and state.combat is None and not state.player_seat().choice_due()


def _to_wait(state: GameState) -> None:
    state.phase, state.step, state.pending = "wanderer", WAIT, None


def _next_turn(table: Table) -> None:
    active = table.active()
    if table.passes >= len(active):
        # Every player passed in sequence: the phase ends for all; each seat's Military
        # Phase begins at its turn (_settle).
        table.stage, table.queue, table.started = "military", list(active), False
        table.tell(-1, "Military Phase.")
        return
    n = table.players
    seat = table.turn
    for _ in range(n):
        seat = (seat + 1) % n
        if seat not in table.out:
            break
    table.turn = seat
    # His options worked out now: another player's action since his last turn may have
    # changed what he can pay for (an Extort on his pool) or what he may do.
    _flow(table, seat).pending = None


def _settle(table: Table) -> None:
    """Move the table on until a seat has a decision to make (or the game is over); the
    state's ``to_move`` names that seat."""
    _settle_flow(table)
    _ask(table)


def _ask(table: Table) -> None:
    """The state's ``to_move`` set to the seat the table asks outside the engine's flow: the
    seat answering in a reaction window, the other lord of an offered truce, the lord
    declaring an attack (the engine's own decisions set it themselves, engine._advance)."""
    state = table.state
    if table.window is not None:
        state.to_move = table.window.asked[0]
    elif table.truce >= 0:
        state.to_move = truce_partner(table, table.truce)
    elif table.declaring is not None:
        state.to_move = table.declaring.seat


def _settle_flow(table: Table) -> None:
    if table.story is not None:
        # What the last decision brought told first: the story is told seat by seat, so an
        # event of a seat told later would come before it.
        table.flush()
    while not table.outcome:
        _knockouts(table)
        if table.outcome:
            return
        if table.declaring is not None:
            return  # the attacker chooses his troops
        if table.hosting is not None:
            host = table.state
            if (host.combat is not None or table.seat(table.hosting.host).choice_due()) \
                    and not host.outcome \
                    and engine.legal_actions(host):
                return
            _finish_hosting(table)
            continue
        stage = table.stage
        if stage == "maintenance" or stage == "discard":
            # Seat by seat from the lead player (simultaneous in the rulebook): each seat's
            # part run when its turn comes (_begin_part), asked while it has a decision.
            if table.out:
                table.queue = [s for s in table.queue if s not in table.out]
            if table.queue:
                seat = table.queue[0]
                if not table.started:
                    state = _flow(table, seat)
                    table.started = True
                    _begin_part(state, stage)
                if _part_seat(table) >= 0:
                    return
                table.queue.pop(0)
                table.started = False
                continue
            if stage == "discard":
                _begin_round(table, table.round + 1)
                continue
            # (from the lead player, or the first to his left still in: he may have
            # surrendered this round)
            table.stage, table.turn, table.passes = "action", table.active()[0], 0
            table.tell(-1, "Action and Development Phase.")
            continue
        if stage == "action":
            _flow(table, table.turn)
            return
        if stage == "military":
            if table.out:  # (no new list at every step while every player is still in)
                table.queue = [s for s in table.queue if s not in table.out]
            if not table.queue:
                table.stage, table.queue, table.started = "wanderer", list(table.active()), False
                table.tell(-1, "Wanderer Phase.")
                continue
            seat = table.queue[0]
            state = _flow(table, seat)
            if state.phase == "action":
                _begin_military(state)
            if state.step == WAIT and state.combat is None \
                    and not table.seat(seat).choice_due() \
                    and (table.started or not _military_options(table, seat)):
                # His choice made, or none to make: a seat that can neither hunt (its engine
                # moved on) nor attack nor hunt another row passes unasked, as solo.
                if not table.started:
                    table.tell(seat, "passes in the Military Phase.")
                table.queue.pop(0)
                table.started = False
                continue
            table.started = True  # the seat's one military choice is ahead of it
            return
        if stage == "wanderer":
            if table.out:
                table.queue = [s for s in table.queue if s not in table.out]
            if not table.queue:
                _begin_discards(table)
                continue
            seat = table.queue[0]
            state = _flow(table, seat)
            if not table.started:
                table.started = True
                table.row_before = list(table.seat(seat).zones["wanderers"])
                _wanderer_phase(table, seat)
                continue
            if (state.step == WAIT and state.combat is None
                    and not table.seat(seat).choice_due()) or state.outcome == "overrun":
                # (its own row past the limit ends the game at once: engine._new_wanderer)
                _arrivals(table, seat)
                if table.outcome:
                    return
                table.queue.pop(0)
                table.started = False
                continue
            return
        return


# --- the round -----------------------------------------------------------------------------


def _lead_player(table: Table, said: list[str] | None = None) -> int:
    """"The player with the most influence tokens in his personal pool ... If a tie exists
    resolve it by rolling a die": the tied roll until one rolls highest (the dice told into
    ``said``, when given)."""
    active = [s for s in range(table.players) if s not in table.out]
    most = max(sum(table.seat(s).personal) for s in active)
    tied = [s for s in active if sum(table.seat(s).personal) == most]
    return _highest_roller(table, tied, said)


def _highest_roller(table: Table, seats: list[int], said: list[str] | None = None) -> int:
    """The seat of ``seats`` rolling highest, the tied rolling again; ``said``, when given,
    gets each round of dice in words ("dice: 3 for seat 1, 5 for seat 2")."""
    # The dice in the seats' order, the highest kept as they come (no dict of rolls, no
    # max over it: the same dice, the same seats tied; ``seats`` itself is never changed).
    rng = GameRng(table.rng)
    tied = seats
    while len(tied) > 1:
        top = 0
        rolled: list[int] = []
        dice: list[str] = []
        for s in tied:
            roll = rng.die()
            if said is not None:
                dice.append(f"{roll} for seat {s + 1}")
            if roll > top:
                top = roll
                rolled = [s]
            elif roll == top:
                rolled.append(s)
        if said is not None:
            said.append("dice: " + ", ".join(dice))
        tied = rolled
    table.rng = rng.state
    return tied[0]


def _dice_said(said: list[str]) -> str:
    """The dice of a roll-off as a sentence's end: " (dice: 3 for seat 1, 5 for seat 2;
    again: ...)", "" when nobody rolled."""
    return f" ({'; again, '.join(said)})" if said else ""


def _begin_round(table: Table, number: int) -> None:
    table.round = number
    active = table.active()
    state = table.state
    totals = {s: rulings.influence_total(state, s) for s in active}
    # Each seat's own start of the round (its victory check and the round cap among it: as
    # solo, told as his; the table ends the game below).
    for seat in active:
        state.player = state.to_move = seat
        engine._begin_round(state, number)
    reached = [s for s in active if totals[s] >= table.config.target]
    if reached:
        # Choice: two players past the target at once: the highest total wins, then the
        # first from the last round's lead player.
        _end(table, "victory", max(reached, key=lambda s: totals[s]))
        return
    if number > table.config.round_cap:
        _end(table, "timeout")
        return
    said: list[str] | None = [] if table.story is not None else None
    table.lead = _lead_player(table, said)
    table.rivals_used.clear()
    table.negated.clear()
    if said is not None:  # (the words made only for a recorded table)
        table.tell(-1, f"Round {number}: the lead player is seat {table.lead + 1}"
                   f"{_dice_said(said)}.")
        for seat in table.active():
            zones = table.seat(seat).zones
            troops = sum(1 for z in ("defensive", "guards") for i in zones[z]
                         if state.card(i).is_troop)
            table.tell(seat, f"influence {rulings.influence_total(state, seat)}, personal pool "
                             f"{list(table.seat(seat).personal)}, {len(zones['private'])} "
                             f"structures, {troops} troops, {len(zones['wanderers'])} "
                             f"wanderers.")
    table.stage = "maintenance"  # (each seat's part runs at its turn: _settle)
    table.queue, table.started = list(table.active()), False


def _begin_discards(table: Table) -> None:
    table.stage = "discard"
    table.queue, table.started = list(table.active()), False
    table.tell(-1, "Discard Phase.")


def _begin_military(state: GameState) -> None:
    """A seat's Military Phase begins, at its turn (attacked before it, too): its flow leaves
    the action cycle by the engine's own pass (the cycle's end for it, as solo), to the hunt
    the engine offers it or, with none, to wait."""
    # (the engine's own pass, found among its actions by identity, not compared)
    engine.apply(state, PASS)


def _begin_part(state: GameState, stage: Stage) -> None:
    """A seat's City Maintenance or Discard Phase begins, at its turn: run to its first
    decision (in City Maintenance the round's start set its step; its maintenance ends where
    its Action and Development would begin)."""
    if stage == "discard":
        state.phase, state.step = "discard", "discard"
        state.player_seat().discards_left = engine.DISCARD_LIMIT
    engine._advance(state)


def _part_seat(table: Table) -> int:
    """In City Maintenance and the discards, the seat whose part it is while it has a decision
    left in it (its part begun by _settle), else -1."""
    if not table.queue or not table.started:
        return -1
    seat = table.queue[0]
    state = table.state
    if state.player != seat:
        return -1
    here = state.phase == "maintenance" if table.stage == "maintenance" \
        else state.step == "discard"
    return seat if here and engine.legal_actions(state) else -1


def _end(table: Table, outcome: Outcome, winner: int = -1) -> None:
    table.flush()
    table.outcome, table.winner = outcome, winner
    table.final_round = table.round
    table.stage = "over"
    who = f"seat {winner + 1} wins" if winner >= 0 else outcome
    table.tell(-1, f"Game over in round {table.round}: {outcome.upper()} ({who}).")


def _wanderer_phase(table: Table, seat: int) -> None:
    """Steps 1 and the start of 2 of one seat's Wanderer Phase (engine._wanderer_phase at a
    table): hoarding, the aggression rolls, the highest roller attacked, then the fines."""
    state = _flow(table, seat)
    raiders = engine.wanderer_rolls(state)
    if not raiders:
        engine._begin_fines(state)
        engine._advance(state)
        return
    said: list[str] | None = [] if table.story is not None else None
    target = _highest_roller(table, table.active(), said)
    if said is not None:  # (the words made only for a recorded table)
        names = ", ".join(state.card(i).name for i in raiders)
        table.tell(seat, f"wanderers turn aggressive ({names}) and attack seat {target + 1}, "
                         f"the highest roller{_dice_said(said)}.")
    if target == seat:
        # The fines follow the raid (engine._after_combat): the step as solo's, "military"
        # (a table of one is the solo game, its state at every decision the solo game's).
        state.step = "military"
        combat.start_raid(state, raiders)
        fight = state.combat
        n = table.players
        left = [s for s in ((seat + k) % n for k in range(1, n)) if s not in table.out]
        if fight is not None and left:
            # "If they attack you then the player to your left controls all wanderers" (alone
            # at the table, nobody: the wanderers follow their fixed rule, as solo).
            _ask_wild(table, fight, left[0])
        engine._advance(state)
        return
    state.step = "raid"  # its fines follow the raid (_finish_hosting)
    _host(table, target, seat, "raid", raiders)


def _arrivals(table: Table, seat: int) -> None:
    """After a seat's new wanderer: uniques across the table, and the overrun."""
    state = table.state
    _check_uniques(table, seat, {i for i in table.seat(seat).zones["wanderers"]
                                 if i not in table.row_before and state.card(i).unique})
    total = 0
    overrun = False
    for s in table.active():  # (a loop: compiled, a generator is an object more a call)
        total += len(table.seat(s).zones["wanderers"])
    overrun = state.outcome == "overrun"
    if total > table.config.overrun_limit or overrun:
        table.tell(-1, f"{total} wanderers in play: the city is overrun, every player loses.")
        _end(table, "overrun")


def _uniques(state: GameState) -> set[int]:
    """The seat's unique cards in play, by where each card is. (The zones in play as
    state.IN_PLAY, a frozenset: a hashed look-up, where a tuple's is up to six string
    comparisons a card.)"""
    where, owner, seat = state.where, state.owner, state.player
    return {i for i in range(len(where))
            if owner[i] == seat and where[i] in IN_PLAY and state.card(i).unique}


def _uniques_in_play(state: GameState, unique: list[int]) -> set[int]:
    """The same cards as :func:`_uniques` (``unique``: the seat's own unique cards), found
    from them."""
    return {i for i in unique if state.where[i] in IN_PLAY}


def _moved(where: list[str], cards: list[int], was: list[str]) -> bool:
    """Whether one of ``cards`` is no longer where ``was`` says it was."""
    moved = False
    for k in range(len(cards)):  # (a loop: compiled, a generator is an object more a call)
        if where[cards[k]] != was[k]:
            moved = True
            break
    return moved


def _check_uniques(table: Table, seat: int, new: set[int]) -> None:
    """"If a unique card is played which is already in play, the previous copy ... is
    immediately placed into its owner's discard pile"; a unique wanderer drawn while its copy
    is dead in any pile, or in play elsewhere, is handled the same way, with a replacement.
    ``new``: the seat's uniques that just came into play (the Initial Holdings, revealed at
    once, never replace one another)."""
    state = table.state
    for _ in range(8):  # replacements may clash again; a few rounds settle any real deck
        changed = False
        mine = {state.cards[i]: i for i in new if state.in_play(i)}
        if not mine:
            return
        for other in table.active():
            if other == seat:
                continue
            for zone in ("private", "residents", "guards", "defensive", "wanderers",
                         "attached"):
                for i in list(table.seat(other).zones[zone]):
                    if state.cards[i] in mine and state.card(i).unique:
                        # (Not that seat's decision: its citizens left homeless are let go.)
                        _as_seat(state, other, i, "unique_replaced", True,
                                 zone == "wanderers")
                        table.tell(other, f"{state.card(i).name} leaves play: seat "
                                          f"{seat + 1} brought another copy into play.")
                        changed = True
            dead = {state.cards[i] for i in table.seat(other).zones["dead"]}
            for card_id, i in mine.items():
                if card_id in dead and state.where[i] == "wanderers":
                    row = set(table.seat(seat).zones["wanderers"])
                    _as_seat(state, seat, i, "unique_dead", False, True)
                    new = {w for w in table.seat(seat).zones["wanderers"] if w not in row}
                    changed = True
        if not changed:
            return


def _as_seat(state: GameState, seat: int, card: int, reason: str, homeless: bool,
             replace: bool) -> None:
    """Discard ``seat``'s ``card`` from play for ``reason`` (its citizens left homeless let go
    when ``homeless``, a new wanderer drawn when ``replace``), as that seat's own step (its
    pool, its row, its events), whoever the player is; the player's flow is left as it was."""
    player, to_move, pending = state.player, state.to_move, state.pending
    state.player = state.to_move = seat
    rulings.discard_from_play(state, card, reason)
    if homeless:
        rulings.discard_homeless(state)
    if replace:
        engine._new_wanderer(state)
    state.player, state.to_move, state.pending = player, to_move, pending


# --- card trades (the optional rule) --------------------------------------------------------
#
# "As an optional rule, if all players agree before the game begins, cards in play (except for
# wanderers) may be traded between players during the City Maintenance Phase after you check
# for victory." A table that agreed to it (an online table's option) carries trades out here;
# AI seats never offer or take one. A card changes owner where it lies: it goes to the same
# zone of its new owner, with what is attached to it or housed on it (items and invocations on
# a personality, guards on a structure, citizens on a residence: "any tokens and counters on a
# unique card are transferred with the ownership", and so do its wounds and exhaustion). A
# card attached or housed is traded with its host, not alone; a stronghold is not traded (its
# destruction puts its owner out of the game).


def tradable(table: Table, seat: int, *, any_phase: bool = False) -> list[int]:
    """``seat``'s cards that may be traded now, in the order of its zones (none outside the
    City Maintenance Phase, unless ``any_phase``: what may be offered for it, or once he is
    out)."""
    if table.outcome or (table.stage != "maintenance" and not any_phase) \
            or not 0 <= seat < table.players or seat in table.out:
        return []
    state = table.state
    zones = state.seats[seat].zones
    return [i for zone in ("private", "residents", "guards", "defensive", "attached")
            for i in zones[zone]
            if i not in state.host and state.card(i).type != "wanderer"
            and state.card(i).subtype != "stronghold"]


def trade_problem(table: Table, giver: int, taker: int, given: Sequence[int],
                  taken: Sequence[int]) -> str:
    """Why ``giver`` may not hand ``given`` to ``taker`` for ``taken`` now ("" when he may)."""
    if table.outcome:
        return "The game is over."
    for seat in (giver, taker):
        if not 0 <= seat < table.players or seat in table.out:
            return f"Seat {seat + 1} is not in the game."
    if giver == taker:
        return "A trade is between two players."
    if table.stage != "maintenance":
        return "Cards change hands only in the City Maintenance Phase."
    if len(set(given)) != len(given) or len(set(taken)) != len(taken):
        return "A card is named twice in the trade."
    state = table.state
    for seat, cards in ((giver, given), (taker, taken)):
        allowed = tradable(table, seat)
        for card in cards:
            if card not in allowed:
                # (named by its name: an instance follows the decklist's order, which the
                # other seats may not see)
                name = state.card(card).name if 0 <= card < len(state.cards) else "A card"
                return (f"{name} is not one of seat {seat + 1}'s cards in play that may be "
                        "traded (not a wanderer, a stronghold, or a card attached or housed "
                        "on another).")
    return ""


def _with_attached(state: GameState, card: int) -> list[int]:
    """``card`` and every card attached to it or housed on it, and theirs."""
    found = [card]
    k = 0
    while k < len(found):  # (grows as it goes: the cards on the cards found)
        host = found[k]
        found.extend([i for i, on in state.host.items() if on == host])
        k += 1
    return found


def trade_cards(table: Table, giver: int, taker: int, given: Sequence[int],
                taken: Sequence[int]) -> Result:
    """Carry out a card trade both players agreed to (:func:`trade_problem` first): each card
    goes, with what it carries, to the same zone of the other player. Told by the caller (a
    trade of cards and tokens is one line)."""
    problem = trade_problem(table, giver, taker, given, taken)
    if problem:
        return Result(False, problem)
    state = table.state
    for old, new, cards in ((giver, taker, given), (taker, giver, taken)):
        for card in cards:
            for moved in _with_attached(state, card):
                zone = state.where[moved]
                state.seats[old].zones[zone].remove(moved)
                state.seats[new].zones[zone].append(moved)
                state.owner[moved] = new
                for per_seat in (table.unique_cards, table.answerers, table.rival_bearers):
                    if moved in per_seat[old]:
                        per_seat[old].remove(moved)
                        per_seat[new].append(moved)
    _answers_and_rivals(table)
    state.forget_derived()
    state.pending = None
    return Result(True)


# --- knock-outs ----------------------------------------------------------------------------


def _knockouts(table: Table) -> None:
    # (Asked at every step of _settle: at once when no stronghold is newly destroyed and
    # nobody surrendered. The last player left wins only after a knock-out, seen below.)
    state = table.state
    destroyed = state.outcome == "stronghold"  # the player's (engine: rulings.end_game)
    if not destroyed and not table.surrendered:
        return
    surrendered = table.surrendered
    fallen = sorted({*surrendered, state.player} if destroyed else set(surrendered))
    table.surrendered = []
    if destroyed:
        state.outcome = ""  # the game goes on for the others (their flows after his)
    for seat in fallen:
        if seat in table.out:
            continue
        if table.hosting is not None and seat in (table.hosting.host, table.hosting.origin):
            _finish_hosting(table, fallen)
        if seat in surrendered:
            how = SURRENDERED
            table.tell(seat, "surrenders and is out of the game.")
        else:
            how = "attack" if table.stage == "military" else "wanderers"
            table.tell(seat, f"is knocked out: the stronghold is destroyed ({how}).")
        table.out[seat] = (table.round, how)
        # "All cards of a player whose stronghold has been destroyed go to the discard piles
        # and are removed from play while their influence tokens and counters remain."
        if state.player == seat:
            state.combat = None  # (his flow ends here: _settle hands the game on)
        owner = state.owner
        for card in [c for c in state.on_card if owner[c] == seat]:
            tokens = state.on_card.pop(card)  # tokens left without an owner
            for k in range(3):
                state.city[k] += tokens[k]
            state.hoarded.pop(card, None)
        if table.queue and table.queue[0] == seat:
            table.started = False
        table.queue = [s for s in table.queue if s != seat]
        for zone in ("private", "residents", "guards", "defensive", "wanderers", "attached",
                     "hand"):
            for i in list(table.seat(seat).zones[zone]):
                state.exhausted.discard(i)
                state.wounds.pop(i, None)
                state.move(i, DISCARDS[state.card(i).pile])
        state.pending = None
        if table.turn == seat and table.stage == "action":
            table.passes = 0
            _next_turn(table)
    active = table.active()
    if len(active) == 1 and table.players > 1 and not table.outcome:
        # "All other players' strongholds are destroyed."
        _end(table, "victory", active[0])
    elif not active and not table.outcome:
        # Nobody left (a table of one): the game ends as the last one out's own did, lost
        # ("stronghold" or "surrendered"), the state's too (as solo).
        how = table.out[next(reversed(table.out))][1]
        ended: Outcome = "surrendered" if how == SURRENDERED else "stronghold"
        state.outcome, state.pending = ended, []
        _end(table, ended)


# A seat's outcome (and how it went out) when its player surrenders (surrender).
SURRENDERED: Final = "surrendered"


# --- combats between seats -----------------------------------------------------------------


def _start_hosting(table: Table, seat: int, action: Action) -> None:
    state = table.state
    if action.kind == "attack":
        sent = attackers(state, seat, action.option)
        if table.story is not None:  # (the words made only for a recorded table)
            table.tell(seat, f"attacks seat {action.target + 1} with "
                             + ", ".join(state.card(t).name for t in sent) + ".")
        _host(table, action.target, seat, "attack", sent)
    else:
        table.tell(seat, f"hunts seat {action.target + 1}'s wanderer row.")
        row = list(table.seat(action.target).zones["wanderers"])
        _host(table, seat, action.target, "hunt_row", row)


def _host(table: Table, host_seat: int, origin_seat: int, kind: str, cards: list[int]) -> None:
    """A combat in ``host_seat``'s state on ``origin_seat``'s ``cards``: its troops attacking
    (``kind`` "attack"), its wanderers raiding ("raid"), or its row hunted ("hunt_row")."""
    host = _flow(table, host_seat)
    hosting = Hosting(host_seat, origin_seat, kind, list(cards))
    zones = table.seat(host_seat).zones
    hosting.host_troops = [t for z in ("defensive", "guards") for t in zones[z]
                           if host.card(t).is_troop]
    if kind == "attack":
        # "Bribes remain on bearer and are collected ... when the card is killed": by the lord
        # whose troops kill it (they go to the city with the dead card; _finish_hosting).
        hosting.bribes = {i: list(host.on_card[i])
                          for i in [*cards, *hosting.host_troops] if i in host.on_card}
    table.hosting = hosting
    host.forget_derived()
    host.pending = None
    if kind == "hunt_row":
        host.step = "military"
        combat.start_hunt(host, origin_seat)  # (his row read where it lies: Combat.row)
        if host.combat is not None:
            _rotate(table, host.combat, host_seat)
    else:
        if host.phase == "action":  # attacked before his own Military turn (still ahead)
            host.phase = "military"
        host.step = HOSTING
        combat.start_raid(host, list(cards))
        fight = host.combat
        if fight is not None:
            # The attacking lord assigns and modifies for his own troops; raiding wanderers
            # are controlled by their owner ("if your wanderers attack another player then
            # you control all wanderers during the combat").
            _ask_wild(table, fight, origin_seat)
        hosting.fight = fight
    engine._advance(host)


# Ending an attack between players by agreement: the offer (by the attacker or the defender,
# at any of his decisions in the attack, once each), and the other's answers.
TRUCE_KIND: Final = "truce"
TRUCE: Final = Action(TRUCE_KIND)
TRUCE_ANSWERS: Final = (Action(TRUCE_KIND, option="accept"), Action(TRUCE_KIND, option="refuse"))


def _may_offer_truce(table: Table, seat: int) -> bool:
    """Whether ``seat``, deciding now, may offer to end the combat: a lord of an attack
    between players, while it goes on (not at a choice left after it, a homeless citizen's),
    who has not offered in it yet."""
    hosting = table.hosting
    fight = table.state.combat
    return hosting is not None and hosting.kind == "attack" \
        and fight is not None and fight.step != "over" \
        and (seat == hosting.host or seat == hosting.origin) and seat not in table.truce_offered


def truce_partner(table: Table, seat: int) -> int:
    """The other lord of the attack ``seat`` fights in (-1: none)."""
    hosting = table.hosting
    if hosting is None:
        return -1
    return hosting.origin if seat == hosting.host else hosting.host


def _truce(table: Table, seat: int, action: Action) -> None:
    """An offer to end the attack, or the answer to one: agreed, the combat ends where it
    stands (what was killed stays dead, its valor and bribes paid; the attackers go home),
    refused, it goes on at the decision it was at."""
    if not action.option:
        table.truce = seat
        table.truce_offered.append(seat)
        table.tell(seat, "offers to end the combat.")
    elif action.option == "accept":
        table.tell(seat, "agrees: the combat ends.")
        host = table.state
        table.truce = -1
        if host.combat is not None:
            combat.cease(host)
            engine._advance(host)  # (the combat over: _settle finishes the hosting)
    else:
        # The combat goes on at the offerer's decision.
        table.state.to_move, table.truce = table.truce, -1
        table.tell(seat, "refuses: the combat goes on.")
    _settle(table)
    if table.story is not None:
        table.flush()


def _ask_wild(table: Table, fight: Combat, controller: int) -> None:
    """The wild side of ``fight`` decided by ``controller`` (Combat.asks_wild), and the
    modification step's rotation from him (combat._modifies_wild reads him first)."""
    fight.asks_wild = True
    _rotate(table, fight, controller)


def _rotate(table: Table, fight: Combat, first: int) -> None:
    """The modification step's rotation of ``fight`` ("starting with the attacking player and
    rotating left each player can use one ability or event"): every seat still in from
    ``first``; the others than its two sides are asked only when they hold a rival ability
    usable in a battle (Combat.rivals)."""
    n = table.players
    fight.modifiers = [seat for seat in ((first + k) % n for k in range(n))
                       if seat not in table.out]
    if len(fight.modifiers) == 1:
        # A rotation of one is the combat's own order (a table of one is the solo game,
        # its state at every decision the solo game's).
        fight.modifiers = []
    fight.rivals = [seat for seat in fight.modifiers
                    if table.battle_rivals[seat] and _crusaders(table, seat)]


def _crusaders(table: Table, seat: int) -> list[int]:
    """``seat``'s bearers of Crusade that may use it now (in play, ready, not used this
    round)."""
    state = table.state
    used: Collection[int] = {bearer for s, bearer in table.rivals_used if s == seat} \
        if table.rivals_used else ()
    members_of: dict[str | None, int] = {}
    return [bearer for bearer in rivalry.usable_bearers(state, seat, used,
                                                        table.rival_bearers[seat])
            if "crusade" in rivalry.ready_abilities(state, seat, bearer, state.card(bearer),
                                                    members_of)]


def _finish_hosting(table: Table, gone: Collection[int] = ()) -> None:
    """The combat between seats is over (or ended: ``gone``, the seats going out now): its
    valor and bribes paid, the host back to waiting, the raiders' owner on to his fines."""
    hosting = table.hosting
    if hosting is None:
        return
    table.flush()
    table.hosting = None
    table.truce, table.truce_offered = -1, []
    host = table.state  # (the host is the player while the combat lasts)
    host_out, origin_out = hosting.host in gone, hosting.origin in gone
    host.combat = None
    host.forget_derived()
    killed = [card for card in hosting.visitors if host.where[card] not in IN_PLAY]
    # "If a troop of yours kills another lord's troop": not a structure or a wall.
    troop_kills: list[int] = [] if hosting.fight is None else hosting.fight.troop_kills
    if hosting.kind == "hunt_row":
        _to_wait(host)
    elif not host_out:
        # (attacked before his Military turn, he waits for it at the end of the action
        # cycle: what he may hunt is judged when it begins, _begin_military)
        host.phase, host.step = _waiting(table, hosting.host)
    host.pending = None
    if hosting.kind == "attack":
        # Valor: "If a troop of yours kills another lord's troop, take influence tokens from
        # that lord equal to the defeated troop's faction influence."
        for card in killed:
            if card in troop_kills:
                _valor(table, hosting.host, hosting.origin, host.card(card).influence)
        for card in killed:
            if card in hosting.bribes:
                _collect_bribe(table, hosting.host, hosting.bribes[card])
        for troop in hosting.host_troops:
            if host.where[troop] not in IN_PLAY:
                if troop in troop_kills:
                    _valor(table, hosting.origin, hosting.host, host.card(troop).influence)
                if troop in hosting.bribes:
                    _collect_bribe(table, hosting.origin, hosting.bribes[troop])
    if not host_out:
        engine._advance(host)
    if hosting.kind == "raid" and not origin_out:
        origin = _flow(table, hosting.origin)
        engine._begin_fines(origin)  # the raiders' owner goes on to his fines
        engine._advance(origin)


def _collect_bribe(table: Table, taker: int, tokens: list[int]) -> None:
    """The bribe on a killed troop went to the city with it; its killer's lord collects it."""
    city, pool = table.state.city, table.seat(taker).personal
    for k in range(3):
        moved = min(tokens[k], city[k])
        city[k] -= moved
        pool[k] += moved


def _most_plentiful(tokens: list[int]) -> int:
    """The kind of which ``tokens`` holds most, the first of those (max of (count, -kind),
    by a loop: compiled, a key function is a Python call a kind)."""
    kind = 0
    for k in (1, 2):
        if tokens[k] > tokens[kind]:
            kind = k
    return kind


def _valor(table: Table, taker: int, loser: int, amount: int) -> None:
    """Take ``amount`` tokens from ``loser`` (his most plentiful kinds first)."""
    give = table.seat(loser).personal
    take = table.seat(taker).personal
    moved = 0
    for _ in range(amount):
        kind = _most_plentiful(give)
        if not give[kind]:
            break
        give[kind] -= 1
        take[kind] += 1
        moved += 1
    if moved:
        table.tell(taker, f"takes {counted(moved, 'token')} of valor from seat {loser + 1}.")


# --- playing a whole game ------------------------------------------------------------------

type SeatPolicy = Callable[[Table, int, Sequence[Action]], Action]


def play(table: Table, policies: Sequence[SeatPolicy],
         observe: Callable[[Table], None] | None = None) -> Table:
    """Play ``table`` to its end, each seat deciding by its own policy; ``observe(table)``
    before every decision (a replay looks at the seats at each round's start).

    A policy with a true ``defers_rivals`` attribute is offered the legal actions without
    the rival abilities (the greedy seat weighs them only when it would otherwise pass, and
    then asks :func:`rival_options` itself): most of the cycle's decisions need not look for
    them (its choice is then carried out as :func:`apply` would, checked against the full
    list).

    After a decision, the seat's next decisions that are its own (:func:`_own_next`: its
    maintenance, its discards, its fights and fines) are made in a run of their own
    (:func:`_own_run`), as a solo game's are, without the table's machinery around each."""
    deferring = [bool(getattr(policy, "defers_rivals", False)) for policy in policies]
    while not table.outcome:
        if observe is not None:
            observe(table)
        seat, stage, answering = to_move(table), table.stage, table.window is not None
        policy = policies[seat]
        actions = _legal_actions(table, seat, not deferring[seat])
        _decide(table, seat, policy(table, seat, actions), actions, deferring[seat])
        if not answering and _own_next(table, seat, stage):
            _own_run(table, seat, policy, observe)
    return table


def _decide(table: Table, seat: int, choice: Action, actions: list[Action],
            deferring: bool) -> None:
    """Carry out ``choice``, ``seat``'s policy's choice from ``actions``, the long way."""
    # The policy hands back one of the actions offered (found by identity): carried out
    # without working out the legal actions a second time, as apply would.
    offered = False
    for action in actions:  # (a loop: compiled, a generator is an object more a call)
        if action is choice:
            offered = True
            break
    if not offered and deferring and choice.kind == "use_on":
        # A rival ability the policy looked for itself (defers_rivals): legal exactly
        # when it is one of rival_options, the only use_on actions apply would find; and
        # of those only its bearer's can be it (they are listed by bearer, the others not).
        if choice not in rival_options(table, seat, choice.card):
            raise RuntimeError(f"seat {seat + 1}'s policy chose an illegal action: "
                               f"{choice!r} is not a legal action for seat {seat + 1} now.")
        offered = True
    if not offered:
        result = apply(table, choice)
        if not result.ok:
            raise RuntimeError(f"seat {seat + 1}'s policy chose an illegal action: "
                               f"{result.reason}")
        return
    _carry_out(table, seat, choice)


def _own_next(table: Table, seat: int, stage: Stage) -> bool:
    """Whether the next decision is ``seat``'s again (``seat`` decided last, in ``stage``, not
    an answer in a reaction window: to_move named it then as the seat whose turn it is, and the
    stage has not moved on since) and its own: one
    that no other seat may answer and after which nothing is left for the table to do, so that
    :func:`_settle` would find nothing to move on and :func:`to_move` would name ``seat``.
    Its maintenance and its discards (the others' wait for it: seat by seat), its own fights
    (a hunt, its wanderers' attack on it, a combat it hosts) and its fines; its turns of the
    Action and Development cycle only when it is the one seat still in (a table of one: the
    turn comes back to it, and nobody may answer it); never its Military choice."""
    if table.outcome or table.window is not None or table.declaring is not None \
            or table.stage != stage:
        return False
    state = table.state
    if state.outcome:
        return False
    hosting = table.hosting
    if hosting is not None:
        # (_settle's test of a hosted combat: the host decides while it goes on, but for an
        # attacker's assignments)
        return hosting.host == seat and _asked_elsewhere(table) is None \
            and (state.combat is not None or table.seat(seat).choice_due()) \
            and len(engine.legal_actions(state)) > 0
    if stage == "maintenance":
        here = state.player == seat and state.phase == "maintenance"
    elif stage == "action":
        here = len(table.active()) == 1
    elif stage == "discard":
        here = state.player == seat and state.step == "discard"
    elif stage == "military":
        # A fight of its own after its Military choice (not the choice itself).
        here = table.started and len(table.queue) > 0 and table.queue[0] == seat \
            and state.player == seat \
            and (state.combat is not None or table.seat(seat).choice_due()) \
            and _asked_elsewhere(table) is None
    elif stage == "wanderer":
        # Its Wanderer Phase begun, and not over (_settle: its arrivals then).
        here = table.started and len(table.queue) > 0 and table.queue[0] == seat \
            and state.player == seat \
            and not (state.step == WAIT and state.combat is None
                     and not table.seat(seat).choice_due()) \
            and _asked_elsewhere(table) is None
    else:
        return False
    return here and len(engine.legal_actions(state)) > 0


def own_actions(table: Table, seat: int, state: GameState) -> list[Action]:
    """The legal actions of one of ``seat``'s own decisions (:func:`_own_next`), as
    :func:`legal_actions` lists them: his engine's, and in an attack the offer to end it."""
    actions = _unblocked(table, seat, engine.legal_actions(state))
    if actions and _may_offer_truce(table, seat):
        actions = [*actions, TRUCE]
    return actions


def _own_run(table: Table, seat: int, policy: SeatPolicy,
             observe: Callable[[Table], None] | None) -> None:
    """``seat``'s own decisions (:func:`_own_next`), one after another as a solo game's
    (engine.legal_actions, the policy, engine.apply), then the table moved on (_settle). The
    actions offered are :func:`_legal_actions`'s (outside the Action and Development cycle and
    the Military choice no rival ability nor Military option is offered); what the long way
    does around each is left out where it does nothing: who decides (the same seat), the
    reaction window (an action that might open one is carried out the long way), the cycle's
    turn, and _settle (nothing to move on until the run ends). The uniques check stays (a
    unique wanderer may arrive after the fines) but for the one seat still in (there is no
    other seat's copy to meet), whose plays and abilities nobody may answer either; its pass
    in the Action and Development cycle ends the phase (the long way)."""
    state, stage = table.state, table.stage
    alone = len(table.active()) == 1
    while True:
        if observe is not None:
            observe(table)
        actions = own_actions(table, seat, state)
        choice = policy(table, seat, actions)
        kind = choice.kind
        offered = False
        for action in actions:  # (a loop: compiled, a generator is an object more a call)
            if action is choice:
                offered = True
                break
        if not offered or kind == TRUCE_KIND or (stage == "action" and kind == "pass") \
                or (not alone and (kind == "play" or kind == "use" or kind == "use_on")):
            # Not one of the actions offered, or one another seat may answer: the long way
            # (which settles the table).
            _decide(table, seat, choice, actions, False)
            return
        table.decisions += 1
        if stage != "wanderer" or alone:
            # Nothing but a play or an ability used (carried out the long way) brings a card
            # into play in a seat's maintenance, discards or fights of the Military Phase: no
            # uniques check (it would find none; its fines may bring a new wanderer).
            result = engine.apply(state, choice)
            if not result.ok:
                raise RuntimeError(result.reason)
        else:
            _apply_own(table, seat, state, choice)
        if not _own_next(table, seat, stage):
            break
        # (told as the long way tells them: after the table is settled, here a no-op)
        if table.story is not None:
            table.flush()
    _settle(table)
    if table.story is not None:
        table.flush()
