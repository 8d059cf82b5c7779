"""The computer opponent: legal, deterministic, greedy where it should be, games end."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.panels.ai.match import play_game, simulate
from games.panels.ai.player import LEVELS, choose_turn
from games.panels.rules import items as it
from games.panels.rules.actions import Determine, Pass, UseItem
from games.panels.rules.cards import RAINBOW
from games.panels.rules.combination import evaluate
from games.panels.rules.field import SHAPE_NAMES
from games.panels.rules.game import GameConfig, GameState
from games.panels.rules.positions import card as c
from games.panels.rules.positions import position


def mid_game(seed: int, turns: int = 12) -> GameState:
    state = GameState.new(GameConfig(seed=seed))
    rng = random.Random(seed)
    for _ in range(turns):
        for action in choose_turn(state, 1, rng):
            state.apply(action)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_whole_turn(level) -> None:
    state = mid_game(21)
    state.players[state.current].items = [it.PRISM, it.RENUMBER, it.SWIVEL]
    mover = state.current
    actions = choose_turn(state, level, random.Random(1))
    assert isinstance(actions[-1], Determine | Pass)
    for action in actions:
        state.apply(action)  # raises if any is illegal
    assert state.current != mover or state.over


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_choice(level) -> None:
    a = choose_turn(mid_game(5), level, random.Random(9))
    b = choose_turn(mid_game(5), level, random.Random(9))
    assert a == b


def best_points_by_brute_force(state: GameState) -> int:
    p = state.current
    best = 0
    for stock, square, turns in state.placements(p):
        trial = state.field.copy()
        trial.cells[square] = state.players[p].stock[stock].rotated(turns)
        best = max(best, sum(y.points for y in evaluate(trial, square, p)))
    return best


@pytest.mark.parametrize("seed", range(6))
def test_greedy_level_takes_the_most_points(seed) -> None:
    state = mid_game(seed, turns=14)
    expected = best_points_by_brute_force(state)
    mover = state.current
    before = state.players[mover].score
    for action in choose_turn(state, 2, random.Random(0)):
        state.apply(action)
    assert state.players[mover].score - before == expected


def test_top_level_takes_a_winning_placement() -> None:
    st_ = position(
        ["...", "..."],
        {(0, 0): c(3, "0100"), (1, 2): c(3, "1000", 1)},
        [c(3, "0001"), c(2, "0001")],
        target=60,
    )
    st_.players[0].score = 0
    actions = choose_turn(st_, 4, random.Random(0))
    for action in actions:
        st_.apply(action)
    assert st_.over and st_.winner == 0


def test_top_level_uses_an_item_that_creates_points() -> None:
    # renumbering (0,0) from 5 to 1 (+1, cyclic) makes the only placement a same-number pair
    st_ = position(["..", "##"], {(0, 0): c(5, "0100")}, [c(1, "1001")])
    st_.players[0].items = [it.RENUMBER]
    actions = choose_turn(st_, 4, random.Random(0))
    assert isinstance(actions[0], UseItem)
    for action in actions:
        st_.apply(action)
    assert st_.players[0].score == 20


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    levels=st.lists(st.sampled_from(LEVELS), min_size=2, max_size=2),
    removal=st.booleans(),
    shape=st.sampled_from(SHAPE_NAMES),
    target=st.sampled_from([100, 300, 2000]),
)
def test_games_between_computers_always_end(seed, levels, removal, shape, target) -> None:
    config = GameConfig(seed=seed, removal=removal, shape=shape, target=target)
    state, turns = play_game(config, levels)
    assert state.over
    if not removal:  # each turn fills a square or passes; two passes in a row end the game
        assert turns <= 2 * 64 + 2
    assert state.end_reason in ("target", "full", "blocked")
    if state.end_reason == "target":
        assert state.players[state.winner].score >= target  # type: ignore[index]
    else:
        assert all(p.score < target for p in state.players)


def test_simulation_counts_add_up_and_are_reproducible() -> None:
    a = simulate(6, (3, 1), seed=40)
    b = simulate(6, (3, 1), seed=40)
    assert a.to_json() == b.to_json()
    wins = sum(p.wins for p in a.players)
    assert wins + a.players[0].draws == 6
    assert a.players[0].draws == a.players[1].draws


@pytest.mark.slow
def test_top_level_beats_the_lowest() -> None:
    result = simulate(12, (4, 1), seed=1000)
    assert result.players[0].wins >= 9  # 75%; the 200-game figure is in bench/panels.py


def test_three_player_game_between_computers() -> None:
    state, _turns = play_game(GameConfig(seed=77, players=3, target=200), [4, 3, 2])
    assert state.over
    colours = {card.owner for card in state.field.cells if card is not None}
    assert colours <= {0, 1, 2, RAINBOW} and {0, 1, 2} <= colours
