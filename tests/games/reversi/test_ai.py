"""Computer players: search matches plain minimax, the solver is exact, levels are
deterministic and sliced."""

from __future__ import annotations

import random

import pytest

from games.reversi.ai import (
    LEVELS,
    ComputerMove,
    Search,
    Thinker,
    choose_move,
    learned_evaluator,
    rank_moves,
)
from games.reversi.ai.evaluation import evaluate
from games.reversi.rules import Game, Position, parse_square
from games.reversi.rules.bitboard import flips, legal_moves


def minimax_exact(p: int, o: int) -> int:
    """Plain full-width minimax to the end of the game (disc difference for p)."""
    m = legal_moves(p, o)
    if not m:
        if not legal_moves(o, p):
            return p.bit_count() - o.bit_count()
        return -minimax_exact(o, p)
    best = -99
    while m:
        low = m & -m
        m ^= low
        f = flips(p, o, low.bit_length() - 1)
        best = max(best, -minimax_exact(o ^ f, p | f | low))
    return best


def negamax(p: int, o: int, depth: int, evaluate=evaluate) -> int:
    """Plain fixed-depth negamax on the same evaluation (passes do not use up depth)."""
    if depth == 0:
        return evaluate(p, o)
    m = legal_moves(p, o)
    if not m:
        if not legal_moves(o, p):
            return evaluate(p, o)
        return -negamax(o, p, depth, evaluate)
    best = -(1 << 40)
    while m:
        low = m & -m
        m ^= low
        f = flips(p, o, low.bit_length() - 1)
        best = max(best, -negamax(o ^ f, p | f | low, depth - 1, evaluate))
    return best


def random_position(rng: random.Random, empties: int) -> Position:
    while True:
        g = Game()
        while not g.over and g.position.empties() > empties:
            g.play(rng.choice(sorted(g.legal())))
        if not g.over and g.position.has_move():
            return g.position


@pytest.mark.parametrize("seed", range(6))
def test_endgame_solver_matches_minimax(seed):
    rng = random.Random(seed)
    pos = random_position(rng, 8)
    for all_moves in (False, True):
        search = Search(
            pos.player,
            pos.opponent,
            max_depth=60,
            node_limit=10**7,
            exact_empties=20,
            all_moves=all_moves,
        )
        result = Thinker(search).finish()
        assert result.exact
        assert result.score == 100 * minimax_exact(pos.player, pos.opponent)
        # The chosen move really achieves that score.
        sq = result.move
        f = flips(pos.player, pos.opponent, sq)
        child = -minimax_exact(pos.opponent ^ f, pos.player | f | (1 << sq))
        assert child * 100 == result.score


def test_solver_hand_checked_last_moves():
    # Black to move, one empty square h8: g8..b8 white, a8 black -> h8 flips 6 of row 8.
    pos = Position.from_rows(["BBBBBBBB"] * 7 + ["BWWWWWW."], "black")
    search = Search(pos.player, pos.opponent, max_depth=60, node_limit=10**6, exact_empties=20)
    result = Thinker(search).finish()
    assert result.move == parse_square("h8") and result.score == 64 * 100


@pytest.mark.parametrize("seed", range(4))
def test_midgame_search_matches_plain_negamax(seed):
    rng = random.Random(100 + seed)
    pos = random_position(rng, 40 - 6 * seed)
    for depth in (1, 2, 3):
        for all_moves in (False, True):
            search = Search(
                pos.player,
                pos.opponent,
                max_depth=depth,
                node_limit=10**9,
                all_moves=all_moves,
            )
            result = Thinker(search).finish()
            assert result.depth == depth
            assert result.score == negamax(pos.player, pos.opponent, depth)


def test_sliced_search_gives_the_same_answer_as_one_call():
    pos = random_position(random.Random(7), 30)
    whole = Thinker(Search(pos.player, pos.opponent, max_depth=5, node_limit=8000)).finish()
    th = Thinker(Search(pos.player, pos.opponent, max_depth=5, node_limit=8000))
    slices = 0
    while (sliced := th.think(50)) is None:
        slices += 1
    assert slices > 10  # it really was cut into many slices
    assert (sliced.move, sliced.score, sliced.depth, sliced.nodes) == (
        whole.move,
        whole.score,
        whole.depth,
        whole.nodes,
    )


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_levels_are_deterministic_for_a_seed_and_legal(level):
    rng = random.Random(level)
    for _ in range(2):
        pos = random_position(rng, rng.randint(20, 50))
        a = ComputerMove(pos, level, seed=42).finish()
        b = ComputerMove(pos, level, seed=42).finish()
        assert a == b
        assert a in pos.legal_squares()


def test_beginner_varies_with_seed():
    pos = Game(moves=["f5", "d6", "c3", "d3", "c4"]).position
    picks = {choose_move(pos, 1, seed) for seed in range(30)}
    assert len(picks) > 1


def test_pass_when_no_move():
    pos = Position.from_rows(["W......."] + ["........"] * 7, "black")
    assert choose_move(pos, 4) == "pass"


def test_rank_moves_scores_every_move_best_first():
    pos = random_position(random.Random(3), 44)
    ranked = rank_moves(pos, 3)
    assert {m.square for m in ranked} == set(pos.legal_squares())
    assert [m.discs for m in ranked] == sorted((m.discs for m in ranked), reverse=True)
    for m in ranked:  # each value is the 2-ply negamax of the move's child, in discs
        sq = parse_square(m.square)
        f = flips(pos.player, pos.opponent, sq)
        assert (
            m.discs * 100
            == pytest.approx(
                -negamax(pos.opponent ^ f, pos.player | f | (1 << sq), 2, learned_evaluator())
            )
            or abs(m.discs) >= 100
        )


def test_rank_moves_exact_in_endgame():
    pos = random_position(random.Random(11), 9)
    ranked = rank_moves(pos, 4)
    assert all(m.exact for m in ranked)
    for m in ranked:
        sq = parse_square(m.square)
        f = flips(pos.player, pos.opponent, sq)
        assert m.discs == -minimax_exact(pos.opponent ^ f, pos.player | f | (1 << sq))


def profile_speeds() -> dict[str, int]:
    """Work units per second of every device profile, as the scene gives them."""
    from firmware.match.profiles import PROFILES
    from games.reversi.match import TICKS_PER_SECOND, UNITS_PER_TICK

    return {n: p.budget(UNITS_PER_TICK) * TICKS_PER_SECOND for n, p in PROFILES.items()}


@pytest.mark.parametrize("profile", sorted(profile_speeds()))
def test_every_level_stays_within_its_work_budget_on_every_profile(profile):
    from games.reversi.ai.players import EXACT_SECONDS, MID_NODE_UNITS, MID_SECONDS, solve_empties

    ups = profile_speeds()[profile]
    rng = random.Random(f"budget:{profile}")
    # A midgame position, and one just inside the strongest level's exact-solve range from
    # a game the novice played against itself (solves of random-play positions run longer).
    strongest = LEVELS[4].at_speed(ups)
    game = Game()
    for _ in range(4):
        game.play(rng.choice(sorted(game.legal())))
    while game.position.empties() > strongest.exact_empties or not game.position.has_move():
        game.play(choose_move(game.position, 2, seed=1))
    cases = [random_position(rng, 40), game.position]
    for level in sorted(LEVELS):
        lv = LEVELS[level].at_speed(ups)
        if not lv.greedy:
            assert lv.node_limit <= MID_SECONDS * ups / MID_NODE_UNITS + 50
            assert solve_empties(lv.exact_node_limit, 64) >= lv.exact_empties
        for pos in cases if level in (3, 4) or profile == "pi-zero-2w-sliced" else cases[:1]:
            job = ComputerMove(pos, level, seed=5, units_per_second=ups)
            move = job.finish()
            assert move in pos.legal_squares()
            # The worst case of the pacing: all of the solve budget, then the midgame one.
            assert job.units <= (MID_SECONDS + EXACT_SECONDS) * ups * 1.05 + 2000
    # The strongest level solves exactly where its budget allows, and plays its best there.
    job = ComputerMove(cases[1], 4, seed=5, units_per_second=ups)
    job.finish()
    assert job.result is not None and job.result.exact


def test_budgets_follow_the_units_speed():
    speeds = profile_speeds()
    slow = LEVELS[4].at_speed(speeds["pi-zero-2w-sliced"])
    fast = LEVELS[4].at_speed(speeds["desktop-worker"])
    assert slow.node_limit < fast.node_limit and slow.exact_empties < fast.exact_empties
    assert fast.exact_empties == 14
    # The weaker levels never get more than their own budgets, even on a fast unit.
    assert LEVELS[3].at_speed(10**9).node_limit == LEVELS[3].node_limit


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_level_moves_are_deterministic_for_a_seed_on_a_profile(level):
    speeds = profile_speeds()
    pos = random_position(random.Random(40 + level), 30)
    for ups in (speeds["pi-zero-2w"], speeds["desktop"]):
        a = ComputerMove(pos, level, seed=3, units_per_second=ups)
        b = ComputerMove(pos, level, seed=3, units_per_second=ups)
        assert a.finish() == b.finish() and a.units == b.units
        # Sliced into frames, the same move and the same work.
        c = ComputerMove(pos, level, seed=3, units_per_second=ups)
        while (move := c.think_units(700)) is None:
            pass
        assert move == a.move and c.units == a.units
