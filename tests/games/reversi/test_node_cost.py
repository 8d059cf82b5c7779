"""Cheaper search nodes (issue 36, item 2) change nothing the search decides: the faster move
generation and the evaluation's one-pass mobility equal their plain versions on any boards,
and a fixed-depth search gives the same move, score and node count with them as with the
plain versions, on random positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.reversi.ai import search as search_module
from games.reversi.ai.learned import make_evaluator, reference_evaluate, shipped_weights
from games.reversi.ai.search import Search, Thinker
from games.reversi.rules import Game
from games.reversi.rules.bitboard import both_legal_moves, legal_moves, reference_legal_moves

boards = st.integers(min_value=0, max_value=(1 << 64) - 1)


@given(boards, boards, boards)
@settings(max_examples=400, deadline=None)
def test_legal_moves_equal_the_plain_fill_on_any_boards(a: int, b: int, keep: int) -> None:
    p, o = a & keep, b & ~a
    assert legal_moves(p, o) == reference_legal_moves(p, o)
    assert both_legal_moves(p, o) == (legal_moves(p, o), legal_moves(o, p))


def _position(seed: int, plies: int) -> tuple[int, int] | None:
    rng = random.Random(seed)
    g = Game()
    for _ in range(plies):
        if g.over:
            return None
        g.play(rng.choice(sorted(g.legal())))
    if g.over or not g.position.has_move():
        return None
    return g.position.player, g.position.opponent


@given(st.integers(0, 10**6), st.integers(4, 52), st.integers(1, 3))
@settings(max_examples=25, deadline=None)
def test_fixed_depth_search_is_the_same_with_the_plain_versions(
    seed: int, plies: int, depth: int
) -> None:
    pos = _position(seed, plies)
    if pos is None:
        return
    p, o = pos
    weights = shipped_weights()
    fast = Thinker(
        Search(p, o, max_depth=depth, node_limit=10**9, evaluator=make_evaluator(weights))
    ).finish()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(search_module, "legal_moves", reference_legal_moves)
        plain = Thinker(
            Search(
                p,
                o,
                max_depth=depth,
                node_limit=10**9,
                evaluator=lambda p, o: reference_evaluate(weights, p, o),
            )
        ).finish()
    assert (fast.move, fast.score, fast.nodes, fast.scores) == (
        plain.move,
        plain.score,
        plain.nodes,
        plain.scores,
    )


def test_the_strongest_search_is_unchanged_on_seeded_positions() -> None:
    """The fingerprint `bench/node_cost.py reversi --positions 4 --depth 4` printed before
    the cheaper nodes (main at 71783a6): the same moves, scores and node counts."""
    import hashlib

    from games.reversi.ai.players import learned_evaluator

    rng = random.Random(3)
    digest = hashlib.sha256()
    count = 0
    while count < 4:
        g = Game()
        target = rng.randint(20, 50)
        while not g.over and g.position.empties() > target:
            g.play(rng.choice(sorted(g.legal())))
        if g.over or not g.position.has_move() or g.position.empties() != target:
            continue
        count += 1
        pos = g.position
        result = Thinker(
            Search(
                pos.player, pos.opponent, max_depth=4, node_limit=10**9,
                evaluator=learned_evaluator(),
            )
        ).finish()  # fmt: skip
        digest.update(f"{result.move}:{result.score}:{result.nodes};".encode())
    assert digest.hexdigest()[:16] == "bf7a10c68d2a10b7"
