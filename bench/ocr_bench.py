"""Reading scans: every Demo card's rendered face, given as a scan and as a photo, read back.

Accuracy figures, not ratios: the name read exactly, and the abilities text's character
accuracy (1 - edit distance / length, averaged over the cards). A face "given as a scan" is
the rendered face as a PNG file; a "photo" is the face turned a few degrees on a background,
blurred, noisy and saved as a JPEG (bench.card_photos, seeded by the card's index), so it goes
through finding and straightening first. Both go through the steps of
cards.images.intake.read_scan (the web layer's entry point) but the WebP renditions: the file
checked and decoded, the card located, its text read.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from pathlib import Path

from bench.card_photos import photograph
from cards.images import face
from cards.images.locate import locate_card
from cards.images.ocr import ocr_available, read_card
from cards.images.scan import check_scan

ROOT = Path(__file__).resolve().parent.parent


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions and substitutions cost 1)."""
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def char_accuracy(expected: str | None, read: str | None) -> float:
    """1 - edit distance / length, at least 0, on whitespace-collapsed text."""
    truth = " ".join((expected or "").split())
    got = " ".join((read or "").split())
    if not truth:
        return 1.0 if not got else 0.0
    return max(0.0, 1 - edit_distance(truth, got) / len(truth))


def run(best_of: Callable[..., float], report: Callable[..., None]) -> None:
    absent = ocr_available()
    if absent is not None:
        print(f"scan reading: skipped, {absent}")
        return
    demo = json.loads((ROOT / "fixtures" / "cards" / "demo.json").read_text(encoding="utf-8"))
    cards = demo["cards"]
    results: dict[str, list[tuple[bool, float]]] = {"rendered faces": [], "photos": []}
    seconds = {"rendered faces": 0.0, "photos": 0.0}
    located = 0
    for index, card in enumerate(cards):
        image = face.render_face(card)
        buffer = io.BytesIO()
        image.save(buffer, "PNG", compress_level=1)
        photo, _ = photograph(image, seed=index)
        for kind, data in (("rendered faces", buffer.getvalue()), ("photos", photo)):
            start = time.process_time()
            location = locate_card(check_scan(data).image)
            reading = read_card(location.image) if location.is_card else None
            seconds[kind] += time.process_time() - start
            located += kind == "photos" and location.outcome == "found"
            name = reading.name.value if reading and reading.name else None
            abilities = reading.abilities.value if reading and reading.abilities else None
            results[kind].append((name == card["name"],
                                  char_accuracy(card["abilities"], abilities)))
    for kind, rows in results.items():
        exact = sum(ok for ok, _ in rows)
        chars = sum(accuracy for _, accuracy in rows) / len(rows)
        per_card = seconds[kind] / len(rows) * 1000
        print(f"scan reading, {kind:<15} names exact {exact}/{len(rows)} ({exact / len(rows):.1%})"
              f", abilities characters {chars:.2%}   ({per_card:.0f} ms a card, CPU)")
    print(f"scan reading, photos          card found and straightened in {located}/{len(cards)}")
