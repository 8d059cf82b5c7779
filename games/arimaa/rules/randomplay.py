"""Seeded random play: random games, turns and sparse positions (tests, fuzzing, demos).

Every function takes the random.Random to use, so results replay from a seed."""

from __future__ import annotations

import random
from collections.abc import Iterator

from .board import NEIGHBOURS, TRAP_SQUARES
from .game import Game
from .position import random_setup
from .steps import expand


def random_game(seed: int, max_turns: int) -> Game:
    """A game from random setups and random legal steps (ends early if the game ends)."""
    rng = random.Random(seed)
    game = Game()
    game.setup(random_setup(0, rng))
    game.setup(random_setup(1, rng))
    for _ in range(max_turns):
        if game.result is not None:
            break
        random_turn(game, rng)
    return game


def random_turn(game: Game, rng: random.Random) -> None:
    """Random steps then end the turn; retries from scratch on a dead end."""
    for _ in range(50):
        n = rng.randint(1, 4)
        for _ in range(n):
            steps = game.legal_steps()
            if not steps:
                break
            pick = rng.choice(steps)
            game.step(pick.frm, pick.to)
        while game.pending_push >= 0:
            pick = rng.choice(game.legal_steps())
            game.step(pick.frm, pick.to)
        if game.can_end_turn()[0]:
            game.end_turn()
            return
        while game.turn_steps:
            game.undo_step()
    turns = game.legal_turns()
    game.play_turn(list(rng.choice(list(turns.values()))))


def sparse_boards(rng: random.Random, pieces: int) -> tuple[int, ...]:
    """Random boards with `pieces` pieces, no unprotected trap pieces, no rabbit on a goal."""
    while True:
        boards = [0] * 12
        squares = rng.sample(range(64), pieces)
        for sq in squares:
            index = rng.randrange(12)
            if index % 6 == 0 and sq // 8 == (7 if index < 6 else 0):
                index += 1
            boards[index] |= 1 << sq
        occ = [sum(boards[0:6]), sum(boards[6:12])]
        ok = all(
            not (occ[s] >> t & 1) or NEIGHBOURS[t] & occ[s] for s in (0, 1) for t in TRAP_SQUARES
        )
        if ok and boards[0] and boards[6]:
            return tuple(boards)


def random_walk(
    boards: tuple[int, ...], side: int, rng: random.Random, turns: int
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Yield (boards, side) after each of `turns` random whole turns from a start."""
    for _ in range(turns):
        state = (boards, 4, -1, 0, -1, 0)
        taken = 0
        while True:
            children = expand(state[0], side, *state[1:])
            if not children:
                break
            c = rng.choice(children)
            state = (c[2], state[1] - 1, *c[3:7])
            taken += 1
            if state[2] < 0 and (state[1] == 0 or rng.random() < 0.3):
                break
        if taken == 0 or state[2] >= 0 or state[0] == boards:
            return
        boards, side = state[0], 1 - side
        yield boards, side
