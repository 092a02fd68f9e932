"""Phone photos of the Demo cards read as an owner's would be (issue 36): the three figures.

The photos are made here (bench.phone_photos, seeded): single cards turned 3.6-7.8 degrees
with a 2-5 % keystone, uneven warm light, blur, noise and a JPEG, on light surfaces (pine, a
white table, light oak, a light grey table) and dark ones (a dark desk, walnut, black slate),
and two binder pages of 3 x 3 cards. Each photo goes through
:func:`cards.images.photo_cards.read_photo`, the reading behind ``POST /api/scans/`` and the
edit form. Printed are:

* **cards found**: the share of the cards in the photos whose outline was found (every
  corner within 2 % of the card's width of where it is), and the outlines accepted that are
  no card's (goal: 100 %, and none);
* **fields read right**: of the fields a card prints with a value (cards.images.card_fields.
  printed_keys), the share read exactly as printed (text compared with its whitespace
  collapsed), over every card in the photos (a card not found reads nothing), and the
  fields read right least often ("missed most"); what is read is checked against the Demo
  catalogue (cards.images.card_fields.CatalogueHints), as the site checks it against its
  own; and the values **read wrong with no doubt mark** (not in the card's ``doubtful``),
  which the person would pass over (goal: none), and those read right but marked;
* **seconds a card**: what the person still does, costed by :data:`WORKFLOW`: a click or a
  tap, a character typed (the edits a wrong value needs, or the whole value when none was
  read), and a look at each value checked.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from bench.ocr_bench import edit_distance
from bench.phone_photos import SURFACES, photo_set
from cards.images.card_fields import CatalogueHints, printed_keys
from cards.images.ocr import ocr_available
from cards.images.photo_cards import CardFound, read_photo

ROOT = Path(__file__).resolve().parent.parent
CORNER_TOLERANCE: Final = 0.02  # of the card's width

# What a person's actions cost, in seconds (a phone in hand, the card beside it).
CLICK: Final = 1.5  # a tap or a click, with the scrolling to it
CHARACTER: Final = 0.35  # a character typed on a phone's keyboard
LOOK: Final = 0.8  # one value compared against the card


@dataclass(frozen=True)
class Workflow:
    """What the edit form asks of the person for each card, besides fixing wrong values."""

    name: str
    clicks_per_card: float  # open the form, attach the photo, pick the source, propose ...
    clicks_per_photo: float  # attach a photo (shared by the cards of a binder page)
    check: str  # "value": a tick per value read; "region": one per region of the card
    corner_clicks: int  # placing a card's four corners by hand when it was not found


# The edit form before issue 36: a tick per value, the source picked and the photo attached
# for every card.
TICK_PER_VALUE: Final = Workflow("a tick per value, one card a photo", clicks_per_card=5,
                                 clicks_per_photo=0, check="value", corner_clicks=0)
# The edit form now: the photo attached once for all its cards (open the form, choose the
# file), "Propose and next" for each card with the source carried over, the ticks the form
# asks (one "I checked these" per part of the card, a doubtful value ticked alone:
# form_ticks), and a card not found placed by its four corners (four drags and "Cut out").
WORKFLOW: Final = Workflow("a tick per region, a queue per photo", clicks_per_card=1,
                           clicks_per_photo=3, check="region", corner_clicks=5)


def _normal(value: object) -> object:
    if isinstance(value, str):
        return " ".join(value.replace("\u2019", "'").split())
    return value


def truth_fields(card: Mapping[str, Any]) -> dict[str, object]:
    """The fields the card's face prints with a value: what a reading should give."""
    keys = printed_keys(card.get("type"), card.get("subtype"))
    return {key: card[key] for key in keys if card.get(key) is not None and card.get(key) != ""}


def matches(found: Sequence[tuple[float, float]], truth: Sequence[tuple[float, float]]) -> bool:
    """Whether an outline found is the card's: every corner within CORNER_TOLERANCE of its
    width."""
    width = float(np.hypot(truth[1][0] - truth[0][0], truth[1][1] - truth[0][1]))
    return all(float(np.hypot(a[0] - b[0], a[1] - b[1])) <= CORNER_TOLERANCE * width
               for a, b in zip(found, truth, strict=True))


@dataclass
class CardScore:
    found: bool
    right: int
    printed: int
    seconds: float
    misses: list[str]
    keys: tuple[str, ...] = ()  # the fields the card prints with a value
    # Values read wrong with no doubt mark: what the person would pass over unchecked.
    unmarked: tuple[str, ...] = ()
    marked_right: int = 0  # values read right and marked doubtful all the same


def score_card(card: Mapping[str, Any], read: CardFound | None, workflow: Workflow,
               share_of_photo: float) -> CardScore:
    """How well ``read`` (None: not found) gives ``card``'s printed fields, and the person's
    seconds for it under ``workflow``. With a check by region, what is left to do is what
    the edit form itself asks (:func:`form_ticks`)."""
    truth = truth_fields(card)
    fields = read.fields if read is not None else {}
    right = 0
    characters = 0
    clicks = workflow.clicks_per_card + workflow.clicks_per_photo * share_of_photo
    looks = 0
    misses: list[str] = []
    unmarked: list[str] = []
    marked_right = 0
    doubtful = set(read.doubtful) if read is not None else set()
    for key, value in truth.items():
        got = fields.get(key)
        looks += 1
        if got is not None and _normal(got) == _normal(value):
            right += 1
            marked_right += key in doubtful
            if workflow.check == "value":
                clicks += 1
            continue
        misses.append(key)
        if got is not None and key not in doubtful:
            unmarked.append(key)
        clicks += 1  # to the field
        if isinstance(value, bool) or key in ("type", "subtype", "faction", "rarity"):
            clicks += 1  # a choice
        elif got is None:
            characters += len(str(value))
        else:
            characters += edit_distance(str(_normal(got)), str(_normal(value)))
    if workflow.check == "region" and read is not None:
        clicks += form_ticks(card, read)
    if read is None:
        clicks += workflow.corner_clicks
    seconds = clicks * CLICK + characters * CHARACTER + looks * LOOK
    return CardScore(read is not None, right, len(truth), seconds, misses, tuple(truth),
                     tuple(unmarked), marked_right)


def form_ticks(card: Mapping[str, Any], read: CardFound) -> int:
    """The ticks "Add a missing card" asks for ``read`` once the person has corrected every
    value read wrong and typed every one not read: an "I checked these" for each part of the
    card with a value read there, and an "I checked it" for each doubtful one (the form's own
    edits.card_form, prefilled as the queue prefills it)."""
    from edits.card_form import NEW_CARD, blank_card, form_for
    from edits.scan_queue import readings

    form = form_for(blank_card(str(card.get("set") or "DEMO"), False), mode=NEW_CARD)
    form.apply_reading(readings({"fields": read.fields, "doubtful": read.doubtful}))
    for key, value in truth_fields(card).items():
        state = form.fields.get(key)
        if state is None:
            continue
        shown = "yes" if value is True else "no" if value is False else str(value)
        if _normal(state.raw) != _normal(shown):
            state.raw = shown  # corrected (or typed): nothing to tick
    doubtful = sum(1 for state in form.fields.values()
                   if state.read is not None and not state.corrected and state.doubtful)
    return sum(1 for count in form.read_groups.values() if count) + doubtful


def by_field(scores: Sequence[CardScore]) -> dict[str, tuple[int, int]]:
    """For each field printed: (read right, printed), over ``scores``."""
    tally: dict[str, list[int]] = {}
    for score in scores:
        for key in score.keys:
            counts = tally.setdefault(key, [0, 0])
            counts[0] += key not in score.misses
            counts[1] += 1
    return {key: (right, printed) for key, (right, printed) in tally.items()}


def worst_fields(scores: Sequence[CardScore], count: int = 6) -> str:
    """The ``count`` fields read right least often, e.g. "artist 30/42, number 36/42"."""
    fields = sorted(by_field(scores).items(),
                    key=lambda item: (item[1][0] / item[1][1], -item[1][1]))
    return ", ".join(f"{key} {right}/{printed}" for key, (right, printed) in fields[:count]
                     if right < printed)


def print_figures(*, singles: int | None = 24, binders: int = 2, verbose: bool = False
                  ) -> dict[str, float]:
    """Print the three figures (and, ``verbose``, every miss); returns them."""
    absent = ocr_available()
    if absent is not None:
        print(f"scans: skipped, {absent}")
        return {}
    demo = json.loads((ROOT / "fixtures" / "cards" / "demo.json").read_text(encoding="utf-8"))
    cards = demo["cards"]
    spread = _spread(cards, singles)
    # As the site does when the Demo cards are added to their set: what is read is checked
    # against what the catalogue knows (its artists, names, words, the set's numbers).
    hints = CatalogueHints.from_cards(cards, set_code=demo["set"]["code"],
                                      set_size=demo["set"]["size"])
    start = time.perf_counter()
    photos = photo_set(spread, singles=len(spread), binders=binders, pool=cards)
    made = time.perf_counter() - start
    start = time.process_time()
    scores: list[CardScore] = []
    before_scores: list[CardScore] = []
    wrong_outlines = 0
    handed_over = 0  # doubtful outlines: the person places the corners
    light = dark = light_found = dark_found = 0
    for photo in photos:
        reading = read_photo(photo.jpeg, hints=hints)
        used: set[int] = set()
        for card, corners in zip(photo.cards, photo.corners, strict=True):
            hit = next((i for i, c in enumerate(reading.cards)
                        if i not in used and matches(c.corners, corners)), None)
            if hit is not None:
                used.add(hit)
            read = reading.cards[hit] if hit is not None else None
            score = score_card(card, read, WORKFLOW, 1 / len(photo.cards))
            scores.append(score)
            before_scores.append(score_card(card, read, TICK_PER_VALUE, 1 / len(photo.cards)))
            if len(photo.cards) == 1:
                is_light = SURFACES[photo.surface][2]
                light += is_light
                dark += not is_light
                light_found += is_light and score.found
                dark_found += (not is_light) and score.found
            if verbose and (not score.found or score.misses):
                print(f"  {photo.name}: {card['name']}: "
                      f"{'missed ' + ', '.join(score.misses) if score.found else 'not found'}"
                      f"{'; ' + '; '.join(reading.warnings) if reading.warnings else ''}")
                for key in score.unmarked:
                    assert read is not None
                    print(f"    unmarked: {key} read {read.fields.get(key)!r}, "
                          f"printed {card.get(key)!r}")
        unmatched = [c for i, c in enumerate(reading.cards) if i not in used]
        wrong_outlines += sum(1 for c in unmatched if not c.doubtful_outline)
        handed_over += sum(1 for c in unmatched if c.doubtful_outline)
    read_seconds = time.process_time() - start
    found = sum(s.found for s in scores)
    right = sum(s.right for s in scores)
    printed = sum(s.printed for s in scores)
    unmarked = sum(len(s.unmarked) for s in scores)
    marked_right = sum(s.marked_right for s in scores)
    seconds = sum(s.seconds for s in scores) / len(scores)
    print(f"scans, phone photos          cards found {found}/{len(scores)} "
          f"({found / len(scores):.1%})"
          f", wrong outlines accepted {wrong_outlines}, doubtful ones handed to the person "
          f"{handed_over}   (light surfaces {light_found}/{light}, "
          f"dark {dark_found}/{dark}, binder pages {found - light_found - dark_found}/"
          f"{len(scores) - light - dark}; {len(photos)} photos made in {made:.0f} s)")
    print(f"scans, phone photos          printed fields read right {right}/{printed} "
          f"({right / printed:.1%}), read wrong with no doubt mark {unmarked}, read right "
          f"and marked {marked_right}   "
          f"({read_seconds / len(scores) * 1000:.0f} ms a card, CPU)")
    print(f"scans, phone photos          missed most: {worst_fields(scores) or 'none'}")
    before = sum(s.seconds for s in before_scores) / len(before_scores)
    print(f"scans, phone photos          estimated {seconds:.1f} s a card for the person "
          f"({WORKFLOW.name}; {before:.1f} s with {TICK_PER_VALUE.name})")
    return {"found": found / len(scores), "wrong": float(wrong_outlines),
            "right": right / printed, "unmarked": float(unmarked), "seconds": seconds}


def _spread(cards: Sequence[Mapping[str, Any]], count: int | None) -> list[Mapping[str, Any]]:
    """``count`` cards spread evenly over the catalogue (it is sorted by type)."""
    if count is None or count >= len(cards):
        return list(cards)
    return [cards[i * len(cards) // count] for i in range(count)]


