"""Seeds, as every command, page and API reads them: a whole number from 0 to 2**63 - 1. A
negative seed is refused, never folded onto its absolute value (``--seed -7`` dealt the hand
of ``--seed 7``)."""

from __future__ import annotations

import argparse
from typing import Final

MAX_SEED: Final = 2**63 - 1


def seed_argument(text: str) -> int:
    """An argparse ``type`` for ``--seed``."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number, not {text!r}") from None
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"the seed must be from 0 to {MAX_SEED} (2**63 - 1), not {seed}")
    return seed
