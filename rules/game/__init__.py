"""The rules engine: a solo game of Allegiance in pure Python (rules/game/engine.py drives it).

Its modules import one way, each only from modules below it (inside functions too), lowest
first: effects <- profile, config <- state <- actions <- rulings <- combat <- engine, policies,
narrate, report <- lookahead <- runner.
"""
