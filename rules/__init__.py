"""The game's rules as pure Python: card facts, deck construction, draws and odds, the engine."""

from rules.compiled import prefer_sources

# Before any engine module is imported: a stale compiled build must not shadow the sources.
prefer_sources()
