"""The rules engine: a game of Allegiance in pure Python (rules/game/engine.py drives a solo
game; rules/game/seats.py seats 1 to 6 of them at one table, a table of one playing exactly the
solo game).

Its modules import one way, each only from modules below it (inside functions too), lowest
first: effects <- profile, config <- state <- actions <- rulings <- rivalry, battle_effects <-
combat <- engine, policies, narrate, report <- lookahead <- runner; engine, narrate, rivalry <-
seats <- table_policy <- matchup.
"""
