"""The computer's work is sliced for the frame loop: the root goal search pauses like the
tree search, with the same answers as the unsliced search (issue 13)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.arimaa.ai.goal import find_goal, find_goal_sliced
from games.arimaa.rules.randomplay import random_game


def run_sliced(boards, side, slice_size: int):  # type: ignore[no-untyped-def]
    work = [0]
    limit = [slice_size]
    gen = find_goal_sliced(boards, side, work, lambda: work[0] >= limit[0])
    pauses = 0
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value, work[0], pauses
        pauses += 1
        limit[0] = work[0] + slice_size


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(20, 90), st.integers(1, 50))
def test_sliced_goal_search_answers_like_the_exact_one(seed: int, turns: int, size: int) -> None:
    game = random_game(seed, turns)
    boards, side = game.position.boards, game.position.side
    want = find_goal(boards, side)
    got, work, pauses = run_sliced(boards, side, size)
    assert got == want
    assert pauses <= work // size + 1  # it paused whenever a slice was spent, no more
    again, work2, _ = run_sliced(boards, side, 1000)
    assert again == want and work2 == work  # the work counted does not depend on slicing
