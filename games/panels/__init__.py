"""Panel Link: a two-player board game of numbered, connectable cards (seed 000_bf9367ae4eb66ca0).

`rules` is the pure engine (cards, field, turn machine, yaku), `ai` the computer opponent.
"""
