"""Trap and goal tactics (issue 36): the static capture check and the goal searches against
positions with known answers, each answer found independently by brute force with the `aei`
package's reference board; and levels 3 and up never leave a piece the static check sees
capturable in the opponent's next turn when a turn that leaves none exists."""

from __future__ import annotations

import random

import pytest
from reference_brute import boards_of, captures, goal_in, goal_next_turn

from games.arimaa.ai.goal import find_goal
from games.arimaa.ai.levels import LEVELS
from games.arimaa.ai.search import Searcher
from games.arimaa.ai.tactics import NONE, capture_threats, goal_steps
from games.arimaa.rules.board import GOLD, SILVER
from games.arimaa.rules.randomplay import random_walk, sparse_boards
from games.arimaa.rules.steps import Boards, expand, turn_results

C, D, H = 7, 8, 9  # silver cat, dog, horse bitboards
#: (gold, silver, side to move, {enemy bitboard: fewest steps to capture one of its pieces})
CAPTURES = [
    ("Ed4 Rh1", "cd3 rh8", GOLD, {C: 2}),  # pushed into the empty trap c3
    ("Ee5 Rh1", "cd3 rh8", GOLD, {C: 4}),  # the elephant comes next to it first
    ("Ee5 Rh1", "cd3 db3 rh8", GOLD, {}),  # the dog b3 guards c3
    ("Ee3 Rh1", "ce4 rh8", GOLD, {C: 4}),  # two squares away: pushed twice
    ("Ma1 Rh1", "cc2 rh8", GOLD, {C: 4}),  # approach two steps, then the push
    ("Ec3 Db3 Rh1", "cd3 rh8", GOLD, {C: 2}),  # the elephant on the trap pulls it in
    ("Hb4 Ed2 Ra1", "dc3 cd3 rh8", GOLD, {D: 2, C: 4}),  # remove the one defender
    ("Hb4 Eg6 Ra1", "dc3 cd3 rh8", GOLD, {D: 4}),  # two attackers, one defender
    ("Db6 Ra5 Eb1", "ca6 rh8", GOLD, {C: 4}),  # pulled next to c6, then pushed in
    ("Ef6 Mg6 Hg7 Ra1", "rf7 ce5 rh8", GOLD, {6: 2}),  # E steps off f6 pulling the rabbit
    ("Hb5 Ra1", "dc3 cd3 cb3 rh8", GOLD, {}),  # two defenders, one attacker two squares off
    ("Ra1 Rb1", "ec2 rh8", GOLD, {}),  # nothing of gold is stronger than an elephant
    ("Rd3 Ra1", "hd4 ec4 rh8", SILVER, {0: 2}),  # silver pushes the rabbit into c3
]


@pytest.mark.parametrize(("gold", "silver", "side", "expected"), CAPTURES)
def test_captures_in_one_turn_match_the_reference(
    gold: str, silver: str, side: int, expected: dict[int, int]
) -> None:
    boards = boards_of(f"{gold} {silver}")
    assert captures(boards, side) == expected  # the answer itself, by brute force
    found: dict[int, int] = {}
    for _, index, _, steps in capture_threats(boards, side):
        found[index] = min(found.get(index, NONE), steps)
    assert found == expected


def _sparse(count: int, seed: int) -> list[tuple[Boards, int]]:
    rng = random.Random(seed)
    out: list[tuple[Boards, int]] = []
    while len(out) < count:
        start = sparse_boards(rng, rng.randint(5, 9))
        out.extend(random_walk(start, rng.randrange(2), rng, 2))
    return out[:count]


def test_every_static_capture_is_real_and_most_real_ones_are_seen() -> None:
    """No capture reported that the reference cannot make (the search would chase ghosts),
    and at least 90% of the real ones seen, with the right number of steps."""
    real = seen = 0
    for boards, side in _sparse(40, seed=36):
        truth = captures(boards, side)
        for _, index, _, steps in capture_threats(boards, side):
            assert index in truth and truth[index] <= steps
        found = {t[1]: t[3] for t in reversed(capture_threats(boards, side))}
        real += len(truth)
        seen += sum(1 for k, v in truth.items() if found.get(k) == v)
    assert real >= 10 and seen >= 0.9 * real


#: (gold, silver, side, fewest steps to goal this turn or None)
GOALS = [
    ("Re7 Ha1", "rh8 ca8", GOLD, 1),
    ("Re6 Ha1", "ce8 rh1", GOLD, 3),  # e7 would freeze it next to the cat: round by d7
    ("Rb7 Ha1", "db6 rh1", GOLD, None),  # frozen by the dog, no friend near
    ("Rb7 Hc6", "db6 rh1", GOLD, 2),  # the horse steps next to it and unfreezes it
    ("Rc7 Db7 Eb8", "cc8 rd7 rh1", GOLD, 3),  # the elephant pulls the cat off c8
    ("Rd6 Ee6", "cd7 rh1", GOLD, None),
    ("Rd4 Ha1", "ea8 rh1", GOLD, 4),
    ("Ra2 Hh1", "ea8 rh1", GOLD, None),
    ("Eh8 Rh1", "re2 ha8", SILVER, 1),
]


@pytest.mark.parametrize(("gold", "silver", "side", "expected"), GOALS)
def test_goals_in_one_turn_match_the_reference(
    gold: str, silver: str, side: int, expected: int | None
) -> None:
    boards = boards_of(f"{gold} {silver}")
    assert goal_in(boards, side) == expected
    for steps in range(1, 5):
        reachable = expected is not None and expected <= steps
        assert (find_goal(boards, side, steps_left=steps) is not None) == reachable


#: (gold, silver, side, the static estimate of a rabbit's own steps to goal)
TWO_TURN_GOALS = [
    ("Re3 Ha1", "ea8 rh1", GOLD, 5),
    ("Ra2 Hh1", "ea8 rh1", GOLD, 7),  # up the b-file: a7 is next to the elephant
    ("Ra1 Hh1", "eb5 rh8", GOLD, NONE),  # a5, b4, c5 freeze it: 10 steps round by d
]


@pytest.mark.parametrize(("gold", "silver", "side", "steps"), TWO_TURN_GOALS)
def test_goals_in_two_turns_match_the_reference(
    gold: str, silver: str, side: int, steps: int
) -> None:
    boards = boards_of(f"{gold} {silver}")
    assert goal_steps(boards, side, 8) == steps
    assert goal_in(boards, side) is None
    assert goal_next_turn(boards, side) == (steps <= 8)


def _result_of(boards: Boards, side: int, steps: list[tuple[int, int]]) -> Boards:
    state = (boards, 4, -1, 0, -1, 0)
    for frm, to in steps:
        child = next(c for c in expand(state[0], side, *state[1:]) if (c[0], c[1]) == (frm, to))
        state = (child[2], state[1] - 1, *child[3:7])
    return state[0]


def _danger_positions(count: int) -> list[tuple[Boards, int]]:
    """Sparse positions where the opponent can capture a piece next turn, the side to move
    has no capture of its own, and some turn leaves nothing capturable: none the static
    check sees, and none the reference finds either (the static check misses a few
    patterns, and a deeper search rightly prefers losing a rabbit to losing a horse the
    static check missed)."""
    rng = random.Random(3636)
    out: list[tuple[Boards, int]] = []
    while len(out) < count:
        start = sparse_boards(rng, rng.randint(6, 9))
        for boards, side in random_walk(start, rng.randrange(2), rng, 2):
            if not capture_threats(boards, 1 - side) or capture_threats(boards, side):
                continue
            if find_goal(boards, side) or find_goal(boards, 1 - side):
                continue
            safe = (b for b in turn_results(boards, side) if not capture_threats(b, 1 - side))
            if any(not captures(b, 1 - side) for _, b in zip(range(5), safe, strict=False)):
                out.append((boards, side))
    return out[:count]


@pytest.mark.parametrize("level", [3, 4, 5])
def test_levels_from_3_leave_nothing_capturable_when_they_can(level: int) -> None:
    for boards, side in _danger_positions(4):
        steps = Searcher(boards, side, LEVELS[level]).run()
        after = _result_of(boards, side, steps)
        assert not capture_threats(after, 1 - side), (level, steps)
