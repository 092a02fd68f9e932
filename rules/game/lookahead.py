"""The lookahead player: each decision by Monte Carlo rollouts of the greedy policy.

Pure Python. The measure of how much the greedy policy leaves on the table: at every decision
with more than one distinct choice, candidate actions are each played out to the end of the
game by the greedy policy, on the same sampled futures, and the lookahead departs from the
greedy policy's own choice only where the rollouts show another action doing better (a one-step
rollout policy, protected so that sampling noise alone never makes it worse than greedy).

* **What a rollout knows.** The order of the three draw piles is hidden from the player and the
  dice are not rolled yet: each sample plays on a copy of the state (:meth:`GameState.clone`)
  whose draw piles are reshuffled and whose dice are keyed by the sample (``GameState.reseed``:
  the dice of each round, Wanderer Phase and combat resolution come from the sample's key and
  the round, not from the dice rolled before). Every candidate gets the same samples, so two
  actions are compared on the same luck: the same pile order, the same aggression rolls and
  combat dice round by round, even when one of them rolled more dice earlier.
* **Seeded and deterministic.** A sample's key is derived from the state's RNG state, the
  decision number and the sample number; the choice depends on the state alone, so a game is
  the same whatever process plays it (same seed, same games, for any number of workers).
* **The score** of a rollout is its victory round, or the round cap plus :data:`LOSS_PENALTY`
  for a loss or a timeout: winning at all comes first, then winning early. Sums are integers.
* **The budget** ``N`` (``--policy lookahead:N``, default :data:`DEFAULT_BUDGET`) is the number of
  rollouts per decision. One sample of every candidate first; then the greedy policy's choice
  and the :data:`CONTENDERS` best other candidates share the rest of the budget equally. The
  best contender is played instead of the greedy choice only when, over the samples both got,
  its mean score is lower by more than :data:`Z` standard errors of the paired differences (and
  by at least :data:`MIN_GAIN` rounds). Decisions with a single distinct choice cost nothing.
* **Candidates** are the legal actions, one per distinct choice: copies of a card with the same
  wounds and exhaustion are interchangeable (a citizen on either of two identical houses).

The **reference player** (:class:`ReferencePolicy`, ``--policy reference`` or ``reference:N``)
is the same search with other rollouts. The lookahead's rollouts are greedy's, so a card whose
worth needs a move greedy never makes later (a guard for a barracks, keeping a dear item, a
battle event) scores nothing there, and the lookahead inherits greedy's blind spots. The
reference player's rollouts are played by :class:`MixedPolicy`: greedy's choice with
probability :data:`GREEDY_SHARE`, a random legal action otherwise (drawn from the sample's key:
every candidate's rollouts of one sample make the same draws, in order). Its choice still
departs from greedy's only where the rollouts show a gain beyond their noise (by :data:`Z`
standard errors: now and then by chance, over the many decisions of a game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from rules.game import engine
from rules.game.actions import Action
from rules.game.policies import GreedyPolicy, Policy
from rules.game.state import GameState
from rules.rng import GameRng, derive_seed

DEFAULT_BUDGET = 16
MAX_BUDGET = 4096
HIDDEN_PILES = ("structure_pile", "personality_pile", "wanderer_pile")
LOSS_PENALTY = 5
CONTENDERS = 2
# Exact fractions, so that a comparison at the bound comes out the same compiled or not (in
# floats, 1.5 standard errors of [0, -1, -2, 0, 0] fell on either side of the bound).
Z = Fraction(3, 2)
MIN_GAIN = Fraction(1, 4)
# The reference player's rollouts: the greedy choice this share of the time, else a random one
# (some ten random moves a rollout: enough to try what greedy never does, few enough that a
# rollout still plays to win).
GREEDY_SHARE = 0.9
SHARE_SCALE = 1 << 16
GREEDY_SHARE_OF_SCALE = round(GREEDY_SHARE * SHARE_SCALE)


class LookaheadPolicy:
    name = "lookahead"

    def __init__(self, seed: int = 0, budget: int = DEFAULT_BUDGET) -> None:
        del seed  # the samples are seeded by the state itself (module docstring)
        if not 1 <= budget <= MAX_BUDGET:
            raise ValueError(f"the lookahead budget must be 1..{MAX_BUDGET}, not {budget}")
        self.budget = budget
        self.greedy = GreedyPolicy()
        # The last decision weighed: its candidates and each one's rollout scores (what a
        # person or a test may read to see why the choice was made).
        self.weighed: list[tuple[Action, list[int]]] = []

    def __call__(self, state: GameState, actions: Sequence[Action]) -> Action:
        self.weighed = []
        first = self.greedy(state, actions)
        if len(actions) == 1:
            return first
        candidates = distinct_choices(state, actions, first)
        if len(candidates) == 1:
            return first
        return candidates[self.choose(state, candidates)]

    def rollout_policy(self, key: int) -> Policy:
        """Who plays a rollout of sample ``key`` after the candidate: the greedy policy."""
        del key
        return self.greedy

    def choose(self, state: GameState, candidates: list[Action]) -> int:
        """The index of the candidate to play (0, the greedy choice, unless beaten)."""
        base = derive_seed(state.mover().rng, "lookahead", state.decisions)
        loss = state.config.round_cap + LOSS_PENALTY
        scores: list[list[int]] = [[] for _ in candidates]

        def sample(indexes: list[int], number: int) -> None:
            key = derive_seed(base, "sample", number) | 1  # never 0: 0 means "not keyed"
            for index in indexes:
                scores[index].append(rollout(state, candidates[index], key,
                                             self.rollout_policy(key), loss))

        everyone = list(range(len(candidates)))
        sample(everyone, 0)
        others = sorted(everyone[1:], key=lambda i: (scores[i][0], i))[:CONTENDERS]
        finalists = [0, *others]
        for number in range(1, max(1, (self.budget - len(candidates)) // len(finalists)) + 1):
            sample(finalists, number)
        self.weighed = list(zip(candidates, scores, strict=True))
        best = min(others, key=lambda i: (sum(scores[i]), i))
        return best if beats(scores[best], scores[0]) else 0


class ReferencePolicy(LookaheadPolicy):
    """The reference player (``--policy reference`` or ``reference:N``): the lookahead's
    search, with rollouts that do not share the greedy policy's blind spots. A rollout is
    played by :class:`MixedPolicy`: the greedy policy's choice with probability
    :data:`GREEDY_SHARE`, else a legal action drawn at random, so the futures it weighs a
    candidate by include guards, items, invocations and battle events greedy never takes (a
    barracks can show what its guards are worth there; a kept item gets used)."""

    name = "reference"

    def rollout_policy(self, key: int) -> Policy:
        # The same key for every candidate: the same coin flips and draws, in order, so two
        # candidates' rollouts are compared on the same deviations as on the same dice.
        return MixedPolicy(self.greedy, derive_seed(key, "mixed"))


class MixedPolicy:
    """Greedy's choice with probability :data:`GREEDY_SHARE`, else a uniformly random legal
    action, each decision with more than one action (a rollout policy: seeded by its key)."""

    name = "mixed"

    def __init__(self, greedy: GreedyPolicy, seed: int) -> None:
        self.greedy = greedy
        self.rng = GameRng(seed)

    def __call__(self, state: GameState, actions: Sequence[Action]) -> Action:
        if len(actions) == 1:
            return actions[0]
        if self.rng.below(SHARE_SCALE) < GREEDY_SHARE_OF_SCALE:
            return self.greedy(state, actions)
        return actions[self.rng.below(len(actions))]


def beats(challenger: list[int], incumbent: list[int]) -> bool:
    """Whether ``challenger`` scores lower than ``incumbent`` beyond sampling noise, by the
    paired differences of their samples (the same futures, sample by sample)."""
    count = len(challenger)
    differences = [c - i for c, i in zip(challenger, incumbent, strict=True)]
    total = sum(differences)
    if total >= 0 or -total < MIN_GAIN * count:
        return False
    if count < 2:
        return False
    # mean² · count > Z² · variance, in integers: mean = total / count, and the variance
    # times count · (count - 1) is count · Σd² - total².
    squares = 0
    for d in differences:
        squares += d * d
    spread = count * squares - total * total
    return spread == 0 or total * total * (count - 1) > Z * Z * spread


def distinct_choices(state: GameState, actions: Sequence[Action], first: Action) -> list[Action]:
    """The legal actions, one per distinct choice, ``first`` first (module docstring)."""
    seen: set[tuple[str, str, str, str]] = set()
    found: list[Action] = []
    for action in (first, *actions):
        key = (action.kind, _look(state, action.card), _look(state, action.target),
               action.option)
        if key not in seen:
            seen.add(key)
            found.append(action)
    return found


def _look(state: GameState, instance: int) -> str:
    """What tells a card apart from another copy: its id, wounds and exhaustion."""
    if instance < 0:
        return ""
    return (f"{state.cards[instance]}/{state.wounds.get(instance, 0)}"
            f"/{int(instance in state.exhausted)}")


def rollout(state: GameState, action: Action, key: int, policy: Policy, loss: int) -> int:
    """One sample: ``action`` on a copy of ``state`` whose hidden piles and dice come from
    ``key``, then ``policy`` to the end; the victory round, or ``loss``."""
    copy = state.clone()
    if copy.config.seated:
        # A seat of a table of one: its state is the solo game's at every decision
        # (seats.new_table), and plays on as one.
        copy.config = replace(copy.config, seated=False)
    rng = GameRng(key)
    me = copy.mover()
    for pile in HIDDEN_PILES:
        rng.shuffle(me.zones[pile])
    me.rng = rng.state
    copy.reseed = key
    result = engine.apply(copy, action)
    if not result.ok:  # the piles' order never makes an action illegal: a bug, fail loudly
        raise RuntimeError(f"lookahead rollout refused {action}: {result.reason}")
    legal, apply = engine.legal_actions, engine.apply
    while not copy.outcome:
        apply(copy, policy(copy, legal(copy)))
    return copy.final_round if copy.outcome == "victory" else loss
