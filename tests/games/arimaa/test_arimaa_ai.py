"""Computer player: exact goal detection, always taking a goal, sliced and stoppable search
that replays identically, legal whole turns, the repetition rule at the root."""

from __future__ import annotations

import random

import pytest

from games.arimaa.ai.evaluate import evaluate
from games.arimaa.ai.goal import find_goal
from games.arimaa.ai.levels import LEVELS, choose_turn, searcher_for
from games.arimaa.ai.search import Limits, Searcher
from games.arimaa.rules.board import GOAL_RANK
from games.arimaa.rules.game import Game
from games.arimaa.rules.position import Position
from games.arimaa.rules.randomplay import random_game, random_walk, sparse_boards
from games.arimaa.rules.steps import expand, turn_results


def goal_positions(count: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        start = sparse_boards(rng, rng.randint(4, 10))
        for boards, side in random_walk(start, rng.randrange(2), rng, 4):
            if boards[6 * side] & (0xFFFFFF << 32 if side == 0 else 0xFFFFFF << 8):
                out.append((boards, side))
    return out[:count]


def apply(boards, side, steps):
    state = (boards, 4, -1, 0, -1, 0)
    for frm, to in steps:
        child = next(c for c in expand(state[0], side, *state[1:]) if (c[0], c[1]) == (frm, to))
        state = (child[2], state[1] - 1, *child[3:7])
    assert state[2] < 0  # no push left half-done
    return state[0]


def test_goal_detection_is_exact_against_full_turn_generation() -> None:
    positives = 0
    for boards, side in goal_positions(80, seed=5):
        truth = any(b[6 * side] & GOAL_RANK[side] for b in turn_results(boards, side))
        found = find_goal(boards, side)
        assert (found is not None) == truth
        if found is not None:
            positives += 1
            assert apply(boards, side, found)[6 * side] & GOAL_RANK[side]
    assert positives >= 10


def test_every_level_plays_a_winning_goal_when_one_exists() -> None:
    checked = 0
    for boards, side in goal_positions(60, seed=8):
        if find_goal(boards, side) is None:
            continue
        for level in (1, max(LEVELS)):
            steps = Searcher(boards, side, LEVELS[level]).run()
            assert apply(boards, side, steps)[6 * side] & GOAL_RANK[side]
        checked += 1
    assert checked >= 5


def test_sliced_search_replays_identically() -> None:
    game = random_game(21, 10)
    whole = searcher_for(game, 2)
    whole.run(10_000_000)
    sliced = searcher_for(game, 2)
    slices = 0
    while not sliced.think(37):
        slices += 1
    assert slices > 10
    assert sliced.best_steps == whole.best_steps and sliced.nodes == whole.nodes


def test_stop_returns_a_legal_turn() -> None:
    game = random_game(5, 8)
    s = Searcher(game.position.boards, game.position.side, Limits(depth=12))
    s.think(700)
    s.stop()
    assert s.done
    legal = game.legal_turns()
    assert apply(game.position.boards, game.position.side, s.best_steps) in legal


@pytest.mark.parametrize("level", sorted(LEVELS)[:3])
def test_levels_choose_legal_turns(level: int) -> None:
    game = random_game(30 + level, 12)
    steps = choose_turn(game, level)
    before = game.position.boards
    game.play_turn(steps)
    assert game.position.boards != before


def test_root_respects_the_repetition_rule() -> None:
    game = random_game(3, 6)
    pos = game.position
    best = Searcher(pos.boards, pos.side, Limits(depth=2, nodes=3_000)).run()
    banned = apply(pos.boards, pos.side, best)
    again = Searcher(pos.boards, pos.side, Limits(depth=2, nodes=3_000), frozenset({banned}))
    assert apply(pos.boards, pos.side, again.run()) != banned


def test_evaluation_is_antisymmetric_and_prefers_material() -> None:
    game = random_game(4, 6)
    boards = game.position.boards
    mirrored = [0] * 12
    for index, board in enumerate(boards):
        side, kind = divmod(index, 6)
        for sq in range(64):
            if board >> sq & 1:
                mirrored[6 * (1 - side) + kind] |= 1 << ((7 - sq // 8) * 8 + sq % 8)
    assert evaluate(tuple(mirrored)) == -evaluate(boards)
    fewer = list(boards)
    fewer[6 + 1] = fewer[6 + 1] & (fewer[6 + 1] - 1)  # silver loses a cat
    if fewer[7] != boards[7]:
        assert evaluate(tuple(fewer)) > evaluate(boards)


def test_game_with_computer_on_both_sides_stays_legal() -> None:
    game = Game(start=Position(random_game(8, 2).position.boards))
    for _ in range(4):
        if game.result is not None:
            break
        game.play_turn(choose_turn(game, 1))
