"""The game state: plain data, every zone of the rulebook's "Game Layout", the RNG inside.

Pure Python. Cards are *instances* numbered in deck order (two copies of a card are two
instances); ``cards[i]`` is the card id of instance ``i``. Every instance is in exactly one
zone (``where[i]``), and ordered zones (piles, the hand, the rows) list their instances in
``zones``. Citizens on their residence, guards on their structure and attached items and
invocations name their host in ``host``.

:meth:`GameState.to_dict` / :meth:`GameState.from_dict` give a JSON document that continues
exactly (the RNG state is one integer); the card profiles travel as the card facts they were
built from, so a saved state needs no catalogue to resume.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any, Final

from rules.game.actions import ActionBook
from rules.game.config import GameConfig
from rules.game.profile import Profile, profiles_from_facts
from rules.game.vocabulary import CombatKind, CombatStep, Outcome, Phase, Step

# Zones, by the rulebook's names: the hand, three draw piles and their discard piles, the
# private holdings (structures; citizens on residences and guards on structures are listed
# apart), the defensive holdings (troops and the wall), the wanderer row, attached cards,
# and the dead pile for killed or destroyed unique cards.
ZONES: Final = (
    "hand", "structure_pile", "personality_pile", "wanderer_pile", "structure_discard",
    "personality_discard", "wanderer_discard", "private", "residents", "guards", "defensive",
    "wanderers", "attached", "dead",
)
IN_PLAY: Final = frozenset({"private", "residents", "guards", "defensive", "wanderers", "attached"})
# The zones whose cards rulings.faction_counts counts all (their cards are personalities).
COUNTED: Final = frozenset({"residents", "guards"})
DRAW_PILES: Final = {"structures": "structure_pile", "personalities": "personality_pile",
                     "wanderers": "wanderer_pile"}
DISCARDS: Final = {"structures": "structure_discard", "personalities": "personality_discard",
                   "wanderers": "wanderer_discard"}

# Flags per instance, for the per-card figures of the report.
DRAWN: Final = 1
PLAYED: Final = 2
OPENING: Final = 4
# Offered to its holder as a play at least once (a card played in no game says why: never
# offered, or always declined).
OFFERED: Final = 8


class Combat:
    """One combat in progress (see rules/game/combat.py for the steps).

    A plain class, not a dataclass: compiled, the ``__init__`` the dataclasses module writes
    runs as interpreted Python (about 18,000 instructions a combat, 1.6% of a fighting deck's
    goldfish games), where this one is compiled. :data:`COMBAT_SAVED` lists what is saved."""

    __slots__ = ("asks_wild", "assign_memo", "berserk", "berserked", "bonus_def", "bonus_off",
                 "charged",
                 "climbed", "declined", "engaged_memo", "feared", "first_private", "granted",
                 "groups", "guard_odds", "hold_line", "hold_wild", "kind", "modifier", "modifiers",
                 "odds", "passes", "plan", "player", "prayed", "previous", "rivals", "row", "step",
                 "troop_kills", "turn", "wall", "wall_left", "wild")

    def __init__(self, kind: CombatKind, step: CombatStep, *, player: list[int] | None = None,
                 wild: list[int] | None = None, wall: int = -1,
                 groups: list[list[int]] | None = None, turn: int = 0, wall_left: int = 0,
                 bonus_off: dict[int, int] | None = None,
                 bonus_def: dict[int, int] | None = None,
                 granted: dict[int, list[str]] | None = None,
                 prayed: list[int] | None = None, feared: list[int] | None = None,
                 charged: dict[int, int] | None = None, hold_line: bool = False,
                 climbed: list[int] | None = None, berserk: bool = False,
                 previous: dict[int, int] | None = None,
                 berserked: list[int] | None = None,
                 first_private: list[int] | None = None, declined: bool = False,
                 asks_wild: bool = False, troop_kills: list[int] | None = None,
                 modifiers: list[int] | None = None, modifier: int = 0, passes: int = 0,
                 hold_wild: bool = False, rivals: list[int] | None = None,
                 row: int = -1) -> None:
        # "hunt": the player attacks wanderers; "raid": aggressive wanderers attack.
        self.kind: CombatKind = kind
        # "engage" or "bribe", "muster", ("bribe_back",) "assign", "modify", "resolve",
        # "berserk", "over".
        self.step: CombatStep = step
        self.player: list[int] = [] if player is None else player  # the player's troops there
        self.wild: list[int] = [] if wild is None else wild  # the wanderers on the battlefield
        self.wall = wall
        # Attack groups: [side, target, lead, joiners...]; side 0 is the player, 1 the wanderers.
        self.groups: list[list[int]] = [] if groups is None else groups
        self.turn = turn
        self.wall_left = wall_left  # attackers still owed to the wall
        self.bonus_off: dict[int, int] = {} if bonus_off is None else bonus_off
        self.bonus_def: dict[int, int] = {} if bonus_def is None else bonus_def
        self.granted: dict[int, list[str]] = {} if granted is None else granted
        self.prayed: list[int] = [] if prayed is None else prayed
        # The target feared by side 0, 1.
        self.feared: list[int] = [-1, -1] if feared is None else feared
        self.charged: dict[int, int] = {} if charged is None else charged
        self.hold_line = hold_line
        self.climbed: list[int] = [] if climbed is None else climbed
        self.berserk = berserk  # the second, berserk-only round
        # The first-round target per card.
        self.previous: dict[int, int] = {} if previous is None else previous
        self.berserked: list[int] = [] if berserked is None else berserked
        # Cards whose first fight was against a target in the private holdings (noted before
        # any wound: Berserk's new target must be there too, even if the first one was
        # destroyed).
        self.first_private: list[int] = [] if first_private is None else first_private
        self.declined = declined  # the player's Defenders passed up their second fight
        # The wild side is a lord who makes his own assignments (his troops attacking another
        # player: rules/game/seats.py asks him), not the wanderers' fixed rule.
        self.asks_wild = asks_wild
        # The cards killed by an attack with a troop in it (valor is for "a troop of yours"
        # that kills another lord's troop, not a structure or a wall).
        self.troop_kills: list[int] = [] if troop_kills is None else troop_kills
        # The modification step's rotation: "starting with the attacking player and rotating
        # left each player can use one ability or event ... until no player wishes to further
        # modify the combat". ``modifiers`` are the seats in turn (empty: the state's own
        # player alone, as solo), ``modifier`` the index of the one asked, ``passes`` the
        # passes in a row (the step ends when every seat of the rotation passed).
        self.modifiers: list[int] = [] if modifiers is None else modifiers
        self.modifier = modifier
        self.passes = passes
        # Hold the Line played by the wild side's lord (hold_line: by the player's side).
        self.hold_wild = hold_wild
        # The other seats of the rotation that hold a rival ability usable in a battle
        # (Crusade: rules/game/seats.py offers it at their turn); the others pass at once.
        self.rivals: list[int] = [] if rivals is None else rivals
        # The seat whose wanderer row a hunt is on (-1: the player's own): another player's
        # at a table ("hunt another player's wanderer row"), read where it lies.
        self.row = row
        # Offense (attacker -> target -> offense) and defense (card -> attacker -> defense) of
        # pairs while the assignments are made (nothing changes them then), for policies
        # weighing every assignment; not saved, not copied. Rows indexed by instance (-1: not
        # worked out yet; a row is made at its card's first question): a list read by index,
        # where nested dictionaries hashed a boxed number at every look-up.
        self.odds: list[list[int]] = []
        self.guard_odds: list[list[int]] = []
        # The wanderers the greedy policy hunts, worked out at the first engage decision and
        # kept for the next ones (engaging changes nothing it reads); not saved, not copied.
        self.plan: list[int] | None = None
        # combat.engaged of the groups as they are, asked many times a decision: kept up to
        # date by every change of the groups (all in combat.py); not saved, not copied.
        self.engaged_memo: dict[int, list[int]] | None = None
        # What combat keeps while the assignments are made (combat.Kept); not saved, not
        # copied.
        self.assign_memo: Any = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Combat):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in COMBAT_SAVED)

    def __repr__(self) -> str:
        return "Combat(" + ", ".join(f"{name}={getattr(self, name)!r}"
                                     for name in COMBAT_SAVED) + ")"


# What a saved combat holds, in this order (the rest is worked out again or kept only while
# the assignments are made).
COMBAT_SAVED: Final = (
    "kind", "step", "player", "wild", "wall", "groups", "turn", "wall_left", "bonus_off",
    "bonus_def", "granted", "prayed", "feared", "charged", "hold_line", "climbed", "berserk",
    "previous", "berserked", "first_private", "declined", "asks_wild", "troop_kills",
    "modifiers", "modifier", "passes", "hold_wild", "rivals", "row")


# Per seat: the zones of one player, named as in ZONES (every instance is in a zone of the
# seat that owns it: GameState.owner), his personal pool and his own counters.
SEAT_SAVED: Final = ("zones", "personal", "favour", "fines_due", "bounty_due", "homeless",
                      "discards_left", "rng")


class Seat:
    """One player's side of the game: his zones, his personal token pool and his counters.

    A game has one seat per player (a solo game one); every card belongs to one seat
    (``GameState.owner``) and is always in one of that seat's zones. The zones are also bound
    as attributes (``seat.hand`` is ``seat.zones["hand"]``, the same list): the engine reads a
    zone at nearly every step, and an attribute costs far less than a lookup by name. The
    wanderer row in play is :meth:`GameState.row` (a hunt may be on another player's).

    A plain class, not a dataclass (compiled, the dataclass ``__init__`` runs as interpreted
    Python); :data:`SEAT_SAVED` lists what is saved, the rest is worked out again."""

    __slots__ = ("attached", "bounty_due", "dead", "defensive", "discards_left", "favour",
                 "fines_due", "guards", "hand", "holders_cache", "homeless", "influence_cache",
                 "members_cache", "personal", "personality_discard", "personality_pile",
                 "private", "residents", "rng", "structure_discard", "structure_pile",
                 "wanderer_discard", "wanderer_pile", "zones")

    def __init__(self, zones: dict[str, list[int]] | None = None,
                 personal: list[int] | None = None, favour: int = -1, fines_due: int = 0,
                 bounty_due: int = 0, discards_left: int = 0,
                 homeless: list[int] | None = None, rng: int = 0) -> None:
        self.zones: dict[str, list[int]] = {z: [] for z in ZONES} if zones is None else zones
        self.personal: list[int] = [0, 0, 0] if personal is None else personal
        self.favour = favour  # the token kind the player keeps for the five-members bonus
        self.fines_due = fines_due
        self.bounty_due = bounty_due  # bounty tokens the player still chooses the kinds of
        # Citizens who lost their residence with none open, their fate the player's choice
        # (rulings.rehouse), in the order they lost it.
        self.homeless: list[int] = [] if homeless is None else homeless
        self.discards_left = discards_left
        # The state of the seat's own RNG stream (rules.rng.GameRng): its shuffles, its
        # wanderers' aggression rolls, the dice of the combats fought on its cards. Solo it
        # is the game's one stream; at a table each seat's own, so what one seat draws never
        # shifts another's dice.
        self.rng = rng
        # rulings.faction_counts: the seat's personalities in play per faction and their
        # influence together (None: to work out again); rulings.plain_usable: its cards in
        # play holding abilities used outside combat. Dropped by GameState.forget_derived.
        self.members_cache: dict[str, int] | None = None
        self.influence_cache = 0
        self.holders_cache: list[int] | None = None
        self.bind_zones()

    def bind_zones(self) -> None:
        """Point the zone attributes at the lists of ``zones`` (after ``zones`` is replaced)."""
        zones = self.zones
        self.hand = zones["hand"]
        self.structure_pile = zones["structure_pile"]
        self.personality_pile = zones["personality_pile"]
        self.wanderer_pile = zones["wanderer_pile"]
        self.structure_discard = zones["structure_discard"]
        self.personality_discard = zones["personality_discard"]
        self.wanderer_discard = zones["wanderer_discard"]
        self.private = zones["private"]
        self.residents = zones["residents"]
        self.guards = zones["guards"]
        self.defensive = zones["defensive"]
        self.attached = zones["attached"]
        self.dead = zones["dead"]

    def forget_derived(self) -> None:
        self.members_cache = None
        self.holders_cache = None

    def choice_due(self) -> bool:
        """Whether the seat owes a choice that comes before anything else goes on: bounty
        tokens to take, or a homeless citizen's fate."""
        return self.bounty_due > 0 or len(self.homeless) > 0

    def to_dict(self) -> dict[str, Any]:
        return {"zones": {z: list(self.zones[z]) for z in ZONES},
                "personal": list(self.personal), "favour": self.favour,
                "fines_due": self.fines_due, "bounty_due": self.bounty_due,
                "homeless": list(self.homeless), "discards_left": self.discards_left,
                "rng": self.rng}

    @classmethod
    def from_dict(cls, data: dict[str, Any], rng: int = 0) -> Seat:
        """The seat saved by :meth:`to_dict`; ``rng``: the stream of a seat saved before
        seats had their own (the game's)."""
        return cls(zones={z: list(data["zones"][z]) for z in ZONES},
                   personal=list(data["personal"]), favour=data["favour"],
                   fines_due=data["fines_due"], bounty_due=int(data.get("bounty_due", 0)),
                   discards_left=data["discards_left"],
                   homeless=[int(i) for i in data.get("homeless") or ()],
                   rng=int(data.get("rng", rng)))

    def clone(self) -> Seat:
        """An independent copy (the caches left to fill again)."""
        return Seat(zones={name: list(cards) for name, cards in self.zones.items()},
                    personal=list(self.personal), favour=self.favour,
                    fines_due=self.fines_due, bounty_due=self.bounty_due,
                    discards_left=self.discards_left, homeless=list(self.homeless),
                    rng=self.rng)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Seat):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return "Seat(" + ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items()) + ")"


# Worked out from the rest, or kept apart from the saved state.
_NOT_SAVED: Final = frozenset({
    "by_id", "combat", "config", "events", "pending", "keyword_cache", "item_cache", "profiles",
    "action_book", "seats"})


@dataclass(slots=True)
class GameState:
    """A game of one or more seats (a solo game is a table of one).

    Cards are global instances: ``cards[i]`` is the card id of instance ``i`` and
    ``owner[i]`` the seat it belongs to (a seat's cards are numbered together, in deck
    order); ``where[i]`` names the zone of its owner's seat it is in. Everything that belongs
    to a card (host, wounds, exhaustion, tokens on it, flags) is kept by instance here; what
    belongs to a player is in his :class:`Seat`. ``to_move`` is the seat whose decision is
    pending, ``player`` the seat whose phase, turn or combat it is."""

    cards: list[str]
    seed: int
    config: GameConfig
    rng: int
    round: int = 0
    phase: Phase = "setup"
    step: Step = ""
    outcome: Outcome = ""  # "", "victory", "overrun", "stronghold" or "timeout"
    final_round: int = 0
    seats: list[Seat] = field(default_factory=lambda: [Seat()])
    owner: list[int] = field(default_factory=list)
    # The seat whose phase, turn or combat this is (``player_seat``), and the seat deciding
    # now (``mover``): the same but where another seat is asked in the player's combat (an
    # attacking lord's assignments and bribes, his or a third player's turn of the
    # modification step, the wanderers' controller). The engine sets ``to_move`` at each
    # decision (engine._advance) and gives it back to ``player`` after it.
    player: int = 0
    to_move: int = 0
    where: list[str] = field(default_factory=list)
    host: dict[int, int] = field(default_factory=dict)
    exhausted: set[int] = field(default_factory=set)
    wounds: dict[int, int] = field(default_factory=dict)
    city: list[int] = field(default_factory=lambda: [0, 0, 0])
    on_card: dict[int, list[int]] = field(default_factory=dict)  # bribes and hoards
    hoarded: dict[int, int] = field(default_factory=dict)  # how many of those were hoarded
    bounty_bonus: dict[int, int] = field(default_factory=dict)
    ignored_wound: list[int] = field(default_factory=list)
    combat: Combat | None = None
    flags: list[int] = field(default_factory=list)
    decisions: int = 0
    # Non-zero in a lookahead rollout only: the dice of each round, Wanderer Phase and combat
    # resolution are then drawn from this key and the round (rng.keyed_state), not from what
    # came before, so two rollouts that differ in one action still roll the same dice for the
    # same events (rules/game/lookahead.py). Real games never set it.
    reseed: int = 0
    facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The profile of each card by its id (built from ``facts``: not saved).
    by_id: dict[str, Profile] = field(default_factory=dict, repr=False, compare=False)
    # The events of a recorded game (None: not recorded; bulk runs skip the bookkeeping).
    events: list[dict[str, Any]] | None = field(default=None, repr=False, compare=False)
    # The legal actions of the current decision, worked out once by the engine (a cache:
    # only the engine changes a state, and it refreshes this after every change).
    pending: list[Any] | None = field(default=None, repr=False, compare=False)
    # Effective keywords per card (rulings.keywords), dropped whenever they may change: a
    # list by instance (None: not worked out; empty: all dropped), read by index where a
    # dictionary hashed a boxed number at every one of a game's many questions.
    keyword_cache: list[frozenset[str] | None] = field(default_factory=list, repr=False,
                                                       compare=False)
    item_cache: dict[int, list[int]] = field(default_factory=dict, repr=False, compare=False)
    # The profile of each instance, looked up in ``by_id`` once (the engine's hottest call).
    profiles: list[Profile] | None = field(default=None, repr=False, compare=False)
    # The deck's actions, made once (actions.ActionBook): shared by the games of a deck and
    # their clones; None until first asked for (book()).
    action_book: ActionBook | None = field(default=None, repr=False, compare=False)

    @property
    def over(self) -> bool:
        return bool(self.outcome)

    def seat_of(self, instance: int) -> Seat:
        """The seat ``instance`` belongs to."""
        return self.seats[self.owner[instance]]

    def mover(self) -> Seat:
        """The seat whose decision is pending (who pays, whose hand and abilities)."""
        return self.seats[self.to_move]

    def row(self) -> list[int]:
        """The wanderer row in play: the one a hunt in progress is on (another player's at
        a table: Combat.row), else the player's own."""
        combat = self.combat
        seat = combat.row if combat is not None and combat.row >= 0 else self.player
        return self.seats[seat].zones["wanderers"]

    def player_seat(self) -> Seat:
        """The seat whose phase, turn or combat this is (side 0 of its combat: the hunter,
        the defender)."""
        return self.seats[self.player]

    def card(self, instance: int) -> Profile:
        # (The attribute indexed in place, not held in a local: compiled, the list is then
        # borrowed, with no reference counted in and out at each of a game's many calls.)
        if self.profiles is None:  # the deck is dealt and by_id set before a card is read
            self.profiles = [self.by_id[c] for c in self.cards]
        return self.profiles[instance]

    def book(self) -> ActionBook:
        """The actions of this game's cards, each made once (actions.ActionBook)."""
        book = self.action_book
        if book is None:
            book = self.action_book = ActionBook(self.cards)
        return book

    def move(self, instance: int, zone: str) -> None:
        """Move one card to the end of ``zone`` of its owner's seat (and off any host)."""
        seat = self.seats[self.owner[instance]]
        source = self.where[instance]
        if source in IN_PLAY or zone in IN_PLAY:
            # The faction members change only when a personality enters, leaves or moves
            # within play: kept across the other cards' moves (wanderers, structures, items).
            members = seat.members_cache
            self.forget_derived()
            if self.card(instance).type != "personality" and source not in COUNTED \
                    and zone not in COUNTED:
                seat.members_cache = members
        zones = seat.zones
        zones[source].remove(instance)
        zones[zone].append(instance)
        self.where[instance] = zone
        # (Looked up and deleted: compiled, pop() with a default is a method called by name.)
        host = self.host
        if instance in host:
            del host[instance]

    def forget_derived(self) -> None:
        """Drop what is worked out from the cards in play (keywords, items in use, faction
        members, holders of abilities)."""
        self.keyword_cache.clear()
        self.item_cache.clear()
        for seat in self.seats:
            seat.members_cache = None
            seat.holders_cache = None

    def in_play(self, instance: int) -> bool:
        return self.where[instance] in IN_PLAY

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot: its own copy, unchanged by the moves that follow."""
        data = {f.name: copy.deepcopy(getattr(self, f.name))
                for f in fields(self) if f.name not in _NOT_SAVED}
        data["seats"] = [seat.to_dict() for seat in self.seats]
        data["config"] = self.config.to_dict()
        data["exhausted"] = sorted(self.exhausted)
        data["host"] = {str(k): v for k, v in self.host.items()}
        data["wounds"] = {str(k): v for k, v in self.wounds.items()}
        data["on_card"] = {str(k): v for k, v in self.on_card.items()}
        data["bounty_bonus"] = {str(k): v for k, v in self.bounty_bonus.items()}
        data["hoarded"] = {str(k): v for k, v in self.hoarded.items()}
        data["combat"] = None if self.combat is None else combat_dict(self.combat)
        return data

    def copy(self) -> GameState:
        """An independent copy that shares the (immutable) card profiles: what undo points
        and Monte Carlo playouts need, without rebuilding every profile."""
        return GameState.from_dict(self.to_dict(), by_id=self.by_id)

    def clone(self) -> GameState:
        """An unrecorded copy to play on without touching this state, for lookahead rollouts
        (many per decision): every container copied directly, the read-only parts (card ids,
        owners, options, card facts and profiles) shared, the caches left to fill again. A
        test checks it copies every field."""
        combat = self.combat
        return GameState(
            cards=self.cards, seed=self.seed, config=self.config, rng=self.rng,
            round=self.round, phase=self.phase, step=self.step, outcome=self.outcome,
            final_round=self.final_round, seats=[seat.clone() for seat in self.seats],
            owner=self.owner, player=self.player, to_move=self.to_move,
            where=list(self.where), host=dict(self.host), exhausted=set(self.exhausted),
            wounds=dict(self.wounds), city=list(self.city),
            on_card={k: list(v) for k, v in self.on_card.items()}, hoarded=dict(self.hoarded),
            bounty_bonus=dict(self.bounty_bonus), ignored_wound=list(self.ignored_wound),
            combat=None if combat is None else _combat_clone(combat), flags=list(self.flags),
            decisions=self.decisions, reseed=self.reseed, facts=self.facts, by_id=self.by_id,
            events=None, pending=None, keyword_cache=[], item_cache={}, profiles=self.profiles,
            action_book=self.action_book)

    @classmethod
    def from_dict(cls, data: dict[str, Any],
                  by_id: dict[str, Profile] | None = None) -> GameState:
        """The state saved by :meth:`to_dict`; ``by_id``: profiles already built for the same
        card facts (else they are built from the facts the state carries). A state saved
        before seats existed (a playtest game stored by an earlier version: the one player's
        zones and pool at the top level) is read as a game of one seat."""
        state = cls(cards=list(data["cards"]), seed=data["seed"],
                    config=GameConfig.from_dict(data["config"]),
                    rng=data["rng"])
        for name in ("round", "phase", "step", "outcome", "final_round", "decisions"):
            setattr(state, name, data[name])
        state.reseed = int(data.get("reseed", 0))
        seats = data.get("seats")
        if seats is None:
            seats = [{name: data.get(name, 0) for name in SEAT_SAVED}]
        state.seats = [Seat.from_dict(seat, state.rng) for seat in seats]
        state.owner = list(data.get("owner", [0] * len(state.cards)))
        state.to_move = int(data.get("to_move", 0))
        # (Saved before ``player`` existed: the state's seat was ``to_move``.)
        state.player = int(data.get("player", state.to_move))
        state.where = list(data["where"])
        state.city = list(data["city"])
        state.flags = list(data["flags"])
        state.ignored_wound = list(data["ignored_wound"])
        state.exhausted = set(data["exhausted"])
        state.host = {int(k): v for k, v in data["host"].items()}
        state.wounds = {int(k): v for k, v in data["wounds"].items()}
        state.on_card = {int(k): list(v) for k, v in data["on_card"].items()}
        state.bounty_bonus = {int(k): v for k, v in data["bounty_bonus"].items()}
        # (Saved before these existed: a playtest game stored by an earlier version.)
        state.hoarded = {int(k): v for k, v in data.get("hoarded", {}).items()}
        state.facts = {k: dict(v) for k, v in data["facts"].items()}
        state.by_id = by_id if by_id is not None else profiles_from_facts(state.facts)
        combat = data.get("combat")
        state.combat = None if combat is None else combat_from(combat)
        return state


def _combat_clone(c: Combat) -> Combat:
    return Combat(
        kind=c.kind, step=c.step, player=list(c.player), wild=list(c.wild), wall=c.wall,
        groups=[list(g) for g in c.groups], turn=c.turn, wall_left=c.wall_left,
        bonus_off=dict(c.bonus_off), bonus_def=dict(c.bonus_def),
        granted={k: list(v) for k, v in c.granted.items()}, prayed=list(c.prayed),
        feared=list(c.feared), charged=dict(c.charged), hold_line=c.hold_line,
        climbed=list(c.climbed), berserk=c.berserk, previous=dict(c.previous),
        berserked=list(c.berserked), first_private=list(c.first_private), declined=c.declined,
        asks_wild=c.asks_wild, troop_kills=list(c.troop_kills), modifiers=list(c.modifiers),
        modifier=c.modifier, passes=c.passes, hold_wild=c.hold_wild, rivals=list(c.rivals),
        row=c.row)


def combat_dict(combat: Combat) -> dict[str, Any]:
    data = {name: copy.deepcopy(getattr(combat, name)) for name in COMBAT_SAVED}
    for name in ("bonus_off", "bonus_def", "granted", "charged", "previous"):
        data[name] = {str(k): v for k, v in data[name].items()}
    return data


def combat_from(data: dict[str, Any]) -> Combat:
    combat = Combat(kind=data["kind"], step=data["step"])
    for name, value in data.items():
        if name in ("bonus_off", "bonus_def", "granted", "charged", "previous"):
            value = {int(k): v for k, v in value.items()}
        elif isinstance(value, list):
            value = [list(v) if isinstance(v, list) else v for v in value]
        setattr(combat, name, value)
    return combat
