"""Cross-check against the `aei` package's independent reference board (pyrimaa.board):
single steps (at turn start and mid-turn, pushes and pulls pending) and the set of distinct
whole-turn results, over >= 500 positions reached by random play."""

from __future__ import annotations

import random

import pytest
from reference_brute import to_reference

from games.arimaa.rules.board import GOAL_RANK, NEIGHBOURS, TRAPS
from games.arimaa.rules.randomplay import random_game, random_walk, sparse_boards
from games.arimaa.rules.steps import expand, frozen_mask, occupancy, turn_results


def from_reference(pos) -> tuple[int, ...]:
    b = pos.bitBoards
    return tuple(b[i] for i in range(1, 7)) + tuple(b[i] for i in range(9, 15))


def positions(count: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    """Positions by random play: 25 from games with full random setups, the rest from sparse
    random starts (cheaper for the reference's whole-turn generation, and rich in traps,
    frozen pieces, pushes, pulls and rabbits near goal)."""
    rng = random.Random(seed)
    out: list[tuple[tuple[int, ...], int]] = []
    while len(out) < 25:
        game = random_game(rng.randrange(1 << 30), rng.randint(0, 20))
        if game.result is None and not game.in_setup:
            out.append((game.position.boards, game.position.side))
    while len(out) < count:
        start = sparse_boards(rng, rng.randint(4, 11))
        for boards, side in random_walk(start, rng.randrange(2), rng, rng.randint(1, 6)):
            out.append((boards, side))
    return out[:count]


def features(boards, side) -> set[str]:
    gold, silver = occupancy(boards)
    found = set()
    if (gold | silver) & TRAPS:
        found.add("trap")
    if frozen_mask(boards):
        found.add("frozen")
    if any(c[3] >= 0 for c in expand(boards, side, 4)):
        found.add("push")
    for c in expand(boards, side, 4):
        if c[5] >= 0 and any(
            c2[1] == c[0] and c2[3] < 0 and (c2[2][6 * (1 - side) :] != c[2][6 * (1 - side) :])
            for c2 in expand(c[2], side, 3, *c[3:7])
        ):
            found.add("pull")
            break
    rabbits = boards[6 * side]
    if rabbits & (0xFFFF << 40 if side == 0 else 0xFFFF << 8) or any(
        NEIGHBOURS[sq] & GOAL_RANK[side] for sq in range(64) if rabbits >> sq & 1
    ):
        found.add("goal threat")
    return found


POSITIONS = positions(510, seed=4)


def test_the_sample_covers_every_feature() -> None:
    seen: dict[str, int] = {}
    for boards, side in POSITIONS:
        for f in features(boards, side):
            seen[f] = seen.get(f, 0) + 1
    assert len(POSITIONS) >= 500
    for name in ("trap", "frozen", "push", "pull", "goal threat"):
        assert seen.get(name, 0) >= 20, (name, seen)


def test_single_steps_match_reference_at_turn_start_and_mid_turn() -> None:
    rng = random.Random(9)
    checked = 0
    for boards, side in POSITIONS:
        state = (boards, 4, -1, 0, -1, 0)
        for _ in range(4):
            ours = expand(state[0], side, *state[1:])
            ref = to_reference(state[0], side, *state[1:])
            ref_steps = {(s, from_reference(p)) for s, p in ref.get_steps()}
            assert {((c[0], c[1]), c[2]) for c in ours} == ref_steps
            checked += 1
            if not ours:
                break
            c = rng.choice(ours)
            state = (c[2], state[1] - 1, *c[3:7])
            if state[1] == 0:
                break
    assert checked >= 1000


# A fifth of the positions in the suite, the other four fifths in the soak run (`python3
# run.py soak`): each chunk takes 1-4 minutes of a core.
@pytest.mark.slow
@pytest.mark.parametrize(
    "chunk", [0, *(pytest.param(c, marks=pytest.mark.soak) for c in range(1, 5))]
)
def test_turn_results_match_reference(chunk: int) -> None:
    for boards, side in POSITIONS[chunk::5]:
        ref = to_reference(boards, side)
        expected = {from_reference(p) for p in ref.get_moves()}
        assert set(turn_results(boards, side)) == expected
