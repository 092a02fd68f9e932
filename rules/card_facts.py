"""The engine's old name for :mod:`rules.card_anatomy`, until its rewrite (rules/game/ is not
renamed meanwhile); import from rules.card_anatomy."""

from rules.card_anatomy import applicable_keys as applicable_keys
